"""An independent vCard validator: Debian's ez-vcard (libez-vcard-java, with libvinnie-java, both
installed by scripts/setup) reads the cards and says what `VCard.validate(version)` finds, through
the small Java program Tests/tools/VCardValidate.java, compiled once into .build/vcard-validator.

    from vcard_validator import validate, errors
    cards = validate(b"BEGIN:VCARD\\r\\n...", version="3.0")   # or validate(path)
    problems = errors(cards[0])                                 # [] when the card is valid

Each card is a dict: version (as declared), validated_as, parse_warnings (line, property, code,
message) and validation (property, code, message). Many files go through one JVM with
validate_many(), since starting Java costs about half a second.
"""
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "Tests" / "tools" / "VCardValidate.java"
BUILD = ROOT / ".build" / "vcard-validator"

# ez-vcard's validation codes (messages.properties, "validate.N") that do NOT make a card invalid
# for its version, and why:
#   3  a parameter value that is not one of the standard ones (TYPE=iPhone, TYPE=x-custom): vCard
#      3.0 and 4.0 allow iana-token and x-name values, and real clients write them;
#   8  a property with an empty value (NOTE:): the grammar allows an empty text value;
#   9  a TYPE value the version does not list for that property (EMAIL;TYPE=work in 3.0, which
#      Apple and Google write; EMAIL;TYPE=internet in 4.0): both grammars take any iana-token or
#      x-name as a TYPE value, and a reader ignores one it does not know;
#   34, 35  notes on how ez-vcard itself would write 2.1 (several names or streets): we never
#      write 2.1, and they say nothing about the card.
# Every other validation code (a property or parameter the version does not have, a required FN
# or N missing, a malformed value, a bad group or parameter name, ...) counts as an error, and so
# does every parse warning: ez-vcard warns while parsing only when a line or value is malformed
# for the version the card declares (a date that is not a date, a skipped line, bad
# quoted-printable).
NOT_ERRORS = frozenset({3, 8, 9, 34, 35})


class ValidatorUnavailable(RuntimeError):
    pass


def _package_jar(package, fallback):
    """The jar a Debian package installs (dpkg -L), or its usual path."""
    try:
        listing = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        listing = ""
    jars = [line for line in listing.splitlines() if line.startswith("/usr/share/java/") and line.endswith(".jar")]
    # The unversioned name is the package's stable link (ez-vcard.jar -> ez-vcard-0.11.2.jar).
    jars.sort(key=lambda path: (re.search(r"-\d", os.path.basename(path)) is not None, path))
    if jars:
        return jars[0]
    return fallback if os.path.exists(fallback) else None


def classpath():
    """ez-vcard and what it needs: vinnie (its vobject parser); Debian's package does not depend on
    it, so scripts/setup installs both."""
    jars = [_package_jar("libez-vcard-java", "/usr/share/java/ez-vcard.jar"),
            _package_jar("libvinnie-java", "/usr/share/java/vinnie.jar")]
    if None in jars:
        raise ValidatorUnavailable("ez-vcard or vinnie is not installed (scripts/setup installs "
                                   "libez-vcard-java and libvinnie-java)")
    return jars


def _compiled():
    """The directory holding VCardValidate.class, compiled again when the source is newer."""
    target = BUILD / "VCardValidate.class"
    if target.exists() and target.stat().st_mtime >= SOURCE.stat().st_mtime:
        return BUILD
    BUILD.mkdir(parents=True, exist_ok=True)
    # Compiled into a scratch folder and moved, so two test processes never see half a class file.
    scratch = Path(tempfile.mkdtemp(dir=BUILD))
    try:
        result = subprocess.run(["javac", "-nowarn", "-d", str(scratch), "-cp", ":".join(classpath()), str(SOURCE)],
                                capture_output=True, text=True)
    except OSError as error:
        raise ValidatorUnavailable(f"javac is missing ({error}); scripts/setup installs a JDK") from error
    if result.returncode != 0:
        raise ValidatorUnavailable("VCardValidate.java did not compile:\n" + result.stderr)
    for produced in scratch.iterdir():
        os.replace(produced, BUILD / produced.name)
    scratch.rmdir()
    return BUILD


def validate_many(paths, version=None):
    """{path: [card, ...]} for every file, read by ez-vcard in one JVM. `version` ("3.0", "4.0")
    validates every card against that version instead of the VERSION it declares."""
    paths = [str(path) for path in paths]
    if not paths:
        return {}
    command = ["java", "-cp", ":".join(classpath() + [str(_compiled())]), "VCardValidate"]
    if version:
        command += ["--version", version]
    result = subprocess.run(command + paths, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"VCardValidate failed ({result.returncode}):\n{result.stderr}")
    answers = {}
    for line in result.stdout.splitlines():
        answer = json.loads(line)
        if answer["error"]:
            raise RuntimeError(f"ez-vcard could not read {answer['file']}: {answer['error']}")
        answers[answer["file"]] = answer["cards"]
    return answers


def validate(data, version=None):
    """The cards ez-vcard reads from `data`, a path or the bytes of a file."""
    if isinstance(data, (bytes, bytearray)):
        with tempfile.NamedTemporaryFile(suffix=".vcf") as handle:
            handle.write(data)
            handle.flush()
            return validate_many([handle.name], version)[handle.name]
    return validate_many([data], version)[str(data)]


def errors(card):
    """What makes `card` (one entry of validate()) invalid for the version it was validated as:
    every parse warning and each validation warning whose code is not in NOT_ERRORS, as short
    sentences naming the property."""
    found = []
    for warning in card["parse_warnings"]:
        where = f"line {warning['line']} " if warning["line"] is not None else ""
        found.append(f"{where}{warning['property'] or ''}: parse warning {warning['code']}: {warning['message']}")
    for warning in card["validation"]:
        if warning["code"] not in NOT_ERRORS:
            # A warning about the card as a whole is about the property it lacks: N (0) or FN (1).
            name = warning["property"] or {0: "N", 1: "FN"}.get(warning["code"], "card")
            found.append(f"{name}: W{warning['code']}: {warning['message']}")
    return found


def flagged_properties(card):
    """The property names whose validation counts as an error (a required FN or N that is missing
    is named FN or N): what a writer cannot keep as it is and stay valid for that version, so a
    round trip may change them (in ways the import's report must name)."""
    names = set()
    for warning in card["validation"]:
        if warning["code"] in NOT_ERRORS:
            continue
        # An ENCODING or CHARSET the version does not have is no reason for the value to change:
        # the value is compared decoded, so a writer converting them keeps it the same.
        if warning["code"] in (4, 6) and re.match(r"(ENCODING|CHARSET) parameter", warning["message"]):
            continue
        if warning["property"]:
            names.add(warning["property"].upper())
        elif warning["code"] == 0:
            names.add("N")
        elif warning["code"] == 1:
            names.add("FN")
    for warning in card["parse_warnings"]:
        if warning["property"]:
            names.add(warning["property"].upper())
    return names


# What ez-vcard does not look at, because its reader normalises it away before validate() runs:
# the bytes themselves. RFC 6350 §3.2 and RFC 2426 §5.8.1 (with RFC 2425 §5.8.1): lines end in
# CRLF and are folded at 75 octets; text carries no control characters other than the escaped
# line break (a raw form feed or NUL breaks readers such as SabreDAV's).
def syntax_errors(data, version):
    """What ez-vcard's reader forgives in a 3.0 or 4.0 card and so never shows validate(): 2.1's
    parameters without a name (TEL;WORK;VOICE: RFC 2426 and RFC 6350 want TYPE=), base64 with
    spaces in it, and 4.0's LABEL property (ez-vcard quietly turns it into an ADR's LABEL
    parameter; RFC 6350 has no LABEL property)."""
    if isinstance(data, (str, os.PathLike)):
        data = Path(data).read_bytes()
    found = []
    logical = []
    for number, line in enumerate(re.split(rb"\r\n|\r|\n", data), 1):
        if line[:1] in (b" ", b"\t") and logical:
            logical[-1][1] += line[1:]
        elif line:
            logical.append([number, line])
    for number, line in logical:
        # The name and parameters end at the first colon outside quotes, and split at semicolons
        # outside them (RFC 6350 §5.9's `SORT-AS="あんどう;ろいど"` is one parameter).
        text = line.decode("utf-8", "replace")
        parts, current, quoted, value = [], "", False, ""
        for index, char in enumerate(text):
            if char == '"':
                quoted = not quoted
            if char == ":" and not quoted:
                value = text[index + 1:]
                break
            if char == ";" and not quoted:
                parts.append(current)
                current = ""
            else:
                current += char
        parts.append(current)
        value = value.encode("utf-8")
        name = parts[0].rsplit(".", 1)[-1].upper()
        for param in parts[1:]:
            if "=" not in param:
                found.append(f"line {number} {name}: parameter {param!r} without a name (2.1 syntax)")
            elif param.split("=", 1)[0].upper() == "ENCODING" and re.search(rb"\s", value):
                found.append(f"line {number} {name}: whitespace inside its base64 value")
        if version == "4.0" and name == "LABEL":
            found.append(f"line {number} LABEL: not a vCard 4.0 property")
    return found


def raw_errors(data):
    """Problems in the bytes of a written file that a parser hides: bare CR or LF line ends, lines
    longer than 75 octets, control bytes, text that is not UTF-8."""
    found = []
    if isinstance(data, (str, os.PathLike)):
        data = Path(data).read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        found.append(f"not UTF-8 at byte {error.start}")
    lines = data.split(b"\r\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, line in enumerate(lines, 1):
        if b"\r" in line or b"\n" in line:
            found.append(f"line {number}: a line end that is not CRLF")
        if len(line) > 75:
            found.append(f"line {number}: {len(line)} octets, over the 75 of a folded line")
        control = re.search(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", line)
        if control:
            found.append(f"line {number}: control byte 0x{control.group()[0]:02x}")
    return found
