"""The real-world card corpus (Tests/Fixtures/vcards) and the three things issue 25 requires of
every card in it, shared by Tests/python/test_real_cards.py and Tests/tools/corpus_report.py:

  valid-3.0, valid-4.0  the card exported as vCard 3.0 and as 4.0 is valid for that version, as
                        ez-vcard sees it (vcard_validator.errors) and in its bytes (raw_errors);
  roundtrip             exported in the card's own version (3.0 for a 2.1 card: we write no 2.1)
                        it has the same properties as it came with (see `equivalent` below);
  roundtrip-other       and still has them after a trip through the other version (exported in
                        4.0, that file imported into a new book, exported in the own version);
  report                every difference the import made is named in the import's report.

Each card of a file is imported on its own (a file of one card, sliced byte-exact from the corpus
file), so the report's line numbers are the card's own.

What "the same properties" means (the equivalence `roundtrip` checks; anything else is a
difference):
  - lines are unfolded (2.1: the line break goes, the space stays; 3.0 and 4.0: both go, RFC 2425
    §5.8.1) and line ends are CRLF, LF, CR or iOS's CR CR LF alike; QUOTED-PRINTABLE soft breaks
    join lines; a 2.1 line ending in a backslash continues on the next (a line break in the value);
    `#` comment lines are ignored; blank lines are ignored;
  - VERSION, PRODID and REV are the writer's and are not compared; a UID is compared only when the
    card came with one (the import gives a card without one a UID of its own);
  - names of groups, properties and parameters are compared without case; parameters in any order;
    TYPE values without case and as a set (TYPE=a,b = TYPE=a;TYPE=b = 2.1's bare ;A;B);
    VALUE=URL is VALUE=uri; a VALUE that only repeats a date property's default type is dropped;
  - values are compared decoded: QUOTED-PRINTABLE and CHARSET (any charset Python knows, a byte
    not valid in it as U+FFFD; UTF-8 when none is given, and Windows-1252 for bytes that are not
    valid in it, as SAP writes) decoded
    to text, escapes undone (3.0/4.0: \\n \\, \\; \\\\; 2.1 escapes only ; in compound values), CRLF in
    text as LF; N, ADR, ORG, GENDER and CLIENTPIDMAP as components (trailing empty ones do not
    count; in 3.0 and 4.0 N's and ADR's components are comma lists, while 2.1 has no lists there,
    so its `Richter,James` is one name, written `Richter\\,James` in 3.0), NICKNAME and CATEGORIES
    as lists; BASE64/ENCODING=b and data: URIs as their decoded bytes with the media type
    (TYPE=JPEG = image/jpeg); GEO as its latitude and longitude (2.1's `lat,lon`, 3.0's
    `lat;lon`, 4.0's `geo:` URI), and inline data that came without a media type matches the same
    bytes written with one (a 4.0 data: URI needs one, read from the bytes); dates in ISO 8601
    basic or extended form alike;
  - properties of one name keep their order among themselves (the first phone stays the first);
    how properties of different names interleave does not count.
A difference is tolerated by `roundtrip` (never by `report`, which wants it named) in a property
that ez-vcard says cannot stay as it is in the version written (the source card validated against
that version: a 4.0-only property in a 3.0 card, a missing FN that must be added, a date that is
not one): a writer cannot both keep it and be valid. An ENCODING or CHARSET the version lacks is
no such excuse (values are compared decoded). `roundtrip-other` also tolerates what the other
version cannot hold. The tolerance is by property name: one bad TEL excuses changes to every TEL,
and the X-TEL it may be written as.

`report` looks for each difference in the one-shot import's output: a line naming the source
line (`line 12`) and the property, or for a property the import added, a line naming it; a card
refused whole must make the import exit non-zero and name a line. Changes an export makes later
are not looked for elsewhere: the issue asks the import's report to name them.
"""
import base64
import binascii
import hashlib
import os
import quopri
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import vcard_validator

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "Tests" / "Fixtures" / "vcards"
KNOWN_FAILURES = CORPUS / "KNOWN-FAILURES.txt"
CHECKS = ("valid-3.0", "valid-4.0", "roundtrip", "roundtrip-other", "report")
IGNORED = {"VERSION", "PRODID", "REV"}


# ---------------------------------------------------------------------------------------------
# The corpus, card by card

@dataclass
class Card:
    id: str          # origin/file.vcf#N, N counting the file's cards from 1
    path: Path
    index: int
    data: bytes      # the card's own bytes, sliced from the file as they are
    version: str     # as declared: 2.1 (or none), 3.0, 4.0

    @property
    def own_version(self):
        return "4.0" if self.version == "4.0" else "3.0"

    @property
    def other_version(self):
        return "3.0" if self.own_version == "4.0" else "4.0"


PHYSICAL_LINE = re.compile(rb"([^\r\n]*)(\r*\n|\r|$)")
BEGIN = re.compile(rb"^\s*(?:[\w-]+\.)?(?:AGENT[^:]*:)?\s*BEGIN\s*:\s*VCARD\s*$", re.I)
END = re.compile(rb"^\s*END\s*:\s*VCARD\s*$", re.I)


def physical_lines(data):
    """(text without its line end, line end) for each line; CR CR LF (iOS) is one line end."""
    lines = []
    for match in PHYSICAL_LINE.finditer(data):
        if match.group(1) == b"" and match.group(2) == b"":
            break
        lines.append((match.group(1), match.group(2)))
    return lines


def split_cards(data):
    """The byte slices of a file's top-level cards, each from its BEGIN line to its END line, with
    the cards nested in them (2.1 AGENT) inside."""
    cards, depth, start, offset = [], 0, None, 0
    for text, end in physical_lines(data):
        if BEGIN.match(text):
            if depth == 0:
                start = offset
            depth += 1
        elif END.match(text) and depth > 0:
            depth -= 1
            if depth == 0:
                cards.append(data[start:offset + len(text) + len(end)])
        offset += len(text) + len(end)
    return cards


def declared_version(data):
    for text, _ in physical_lines(data):
        match = re.match(rb"^\s*VERSION\s*:\s*([\d.]+)\s*$", text, re.I)
        if match:
            value = match.group(1).decode()
            return {"4": "4.0", "3": "3.0", "2": "2.1"}.get(value, value)
    return "2.1"


def corpus_cards():
    cards = []
    for path in sorted(CORPUS.glob("*/*.vcf")):
        data = path.read_bytes()
        for index, slice_ in enumerate(split_cards(data), 1):
            cards.append(Card(f"{path.parent.name}/{path.name}#{index}", path, index, slice_,
                              declared_version(slice_)))
    return cards


# ---------------------------------------------------------------------------------------------
# Reading a card into comparable properties

STRUCTURED = {"N", "ADR", "ORG", "GENDER", "CLIENTPIDMAP"}
COMMA_COMPONENTS = {"N", "ADR"}
LISTS = {"NICKNAME", "CATEGORIES"}
MEDIA = {"PHOTO", "LOGO", "SOUND", "KEY"}
DATES = {"BDAY", "ANNIVERSARY", "DEATHDATE"}
DATE_VALUE_TYPES = {"date", "date-time", "date-and-or-time", "timestamp"}
ENCODINGS = {"QUOTED-PRINTABLE", "BASE64", "B", "8BIT", "7BIT"}


@dataclass
class Property:
    line: int        # where it starts in the card's file
    text: str        # its logical line, for messages
    group: str
    name: str
    params: frozenset
    value: object

    @property
    def key(self):
        return (self.group, self.name, self.params, self.value)

    def describe(self):
        text = self.text if len(self.text) <= 120 else self.text[:117] + "..."
        return f"line {self.line}: {text}"


@dataclass
class ParsedCard:
    version: str
    properties: list = field(default_factory=list)
    noise: list = field(default_factory=list)     # (line, text) of lines that are no content line


def _logical_lines(lines, version, first_number):
    """Unfolded lines as (line number, bytes), comments and blank lines left out, and the lines
    that are no content line (no colon once unfolded) as `noise`."""
    unfolded = []  # [number, bytes, continues-by-soft-break]
    for number, (text, _) in enumerate(lines, first_number):
        if unfolded and unfolded[-1][2]:  # a quoted-printable soft break: this line continues it
            joined = unfolded[-1][1][:-1] + text
            unfolded[-1][1:] = [joined, _soft_break(joined)]
        elif text[:1] in (b" ", b"\t") and unfolded and text.strip():
            joined = unfolded[-1][1] + (text if version == "2.1" else text[1:])
            unfolded[-1][1:] = [joined, _soft_break(joined)]
        elif text.strip() and not text.lstrip().startswith(b"#"):
            unfolded.append([number, text, _soft_break(text)])
    logical, noise = [], []
    for number, text, _ in unfolded:
        if b":" in text:
            logical.append((number, text))
        elif version == "2.1" and logical and logical[-1][1].endswith(b"\\"):
            # A 2.1 value continued on the next line after a backslash (Android's reader).
            logical[-1] = (logical[-1][0], logical[-1][1][:-1] + b"\n" + text)
        else:
            noise.append((number, text.decode("utf-8", "replace")))
    return logical, noise


def _soft_break(line):
    head = line.split(b":", 1)[0]
    return bool(re.search(rb";\s*(ENCODING\s*=\s*)?QUOTED-PRINTABLE\b", head, re.I)) and line.endswith(b"=")


def _split_outside_quotes(text, separator):
    parts, current, quoted = [], "", False
    for char in text:
        if char == '"':
            quoted = not quoted
        if char == separator and not quoted:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


def _content_line(line):
    """(group, name, [(param name, value)], value bytes) of a content line."""
    quoted, colon = False, None
    for index, byte in enumerate(line):
        if byte == 0x22:
            quoted = not quoted
        elif byte == 0x3A and not quoted:
            colon = index
            break
    if colon is None:
        colon = line.index(b":")
    head, value = line[:colon].decode("utf-8", "replace"), line[colon + 1:]
    parts = _split_outside_quotes(head, ";")
    name = parts[0].strip()
    group = ""
    if "." in name:
        group, name = name.rsplit(".", 1)
    params = []
    for part in parts[1:]:
        part = part.strip()
        if not part:
            continue
        if "=" in part:
            key, raw = part.split("=", 1)
            params.append((key.strip().upper(), raw.strip()))
        else:  # 2.1's bare parameter: an encoding, or a TYPE
            params.append(("ENCODING" if part.upper() in ENCODINGS else "TYPE", part))
    return group.lower(), name.upper(), params, value


def _unquote(value):
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value


def _unescape(text):
    out, index = [], 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            following = text[index + 1]
            out.append({"n": "\n", "N": "\n"}.get(following, following if following in "\\,;:" else "\\" + following))
            index += 2
        else:
            out.append(char)
            index += 1
    return "".join(out)


def _split_escaped(text, separator):
    parts, current, index = [], "", 0
    while index < len(text):
        if text[index] == "\\" and index + 1 < len(text):
            current += text[index:index + 2]
            index += 2
        elif text[index] == separator:
            parts.append(current)
            current = ""
            index += 1
        else:
            current += text[index]
            index += 1
    parts.append(current)
    return parts


def _unescape_21(component):
    # vCard 2.1 escapes only the semicolon of a compound value; Android's reader also takes \\.
    return component.replace("\\\\", "\x00").replace("\\;", ";").replace("\x00", "\\")


def _basic_date(value):
    match = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):?(\d{2})(?::?(\d{2}))?(.*))?", value)
    if not match:
        return value
    year, month, day, hour, minute, second, zone = match.groups()
    text = year + month + day
    if hour:
        text += "T" + hour + minute + (second or "") + (zone or "").replace(":", "")
    return text


def _media_type(value):
    value = value.lower()
    return value.split("/", 1)[1] if "/" in value else value


def _base64(text):
    """The bytes of base64 text, whitespace and all; text that is not base64 stays as it is (less
    its whitespace), so two writers' copies of one broken value still compare equal."""
    text = re.sub(rb"\s", b"", text)
    try:
        return base64.b64decode(text + b"=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return text


def _binary(data):
    return (hashlib.sha256(data).hexdigest()[:16], len(data))


def _text(value, charset):
    if charset:
        # A value that names its charset is read in it: a byte not valid there is one U+FFFD
        # (Android cuts a UTF-8 ORG in the middle of a character), not the whole value another charset.
        try:
            return value.decode(charset, "replace")
        except LookupError:
            pass
    for name in ("utf-8", "cp1252"):
        try:
            return value.decode(name)
        except UnicodeDecodeError:
            continue
    return value.decode("utf-8", "replace")


GEO = re.compile(r"\s*(?:geo:)?\s*([-+]?\d+(?:\.\d*)?)\s*[,;]\s*([-+]?\d+(?:\.\d*)?)\s*(?:;.*)?", re.I | re.S)


def normalise(group, name, params, raw, version):
    """The comparable (params, value) of one property: see the module's comment."""
    encoding = charset = None
    values = {}
    for key, value in params:
        value = _unquote(value)
        if key == "ENCODING":
            encoding = value.lower()
        elif key == "CHARSET":
            charset = value
        else:
            values.setdefault(key, []).append(value)
    types = set()
    for value in values.pop("TYPE", []):
        types.update(part.strip().lower() for part in _split_outside_quotes(value, ",") if part.strip())
    types = {_unquote(t) for t in types}
    value_type = None
    if "VALUE" in values:
        value_type = values.pop("VALUE")[-1].lower()
        value_type = "uri" if value_type == "url" else value_type
    if encoding == "quoted-printable":
        raw = quopri.decodestring(raw)
    result = None
    if encoding in ("b", "base64"):
        data = _base64(raw)
        media = None
        if name in MEDIA and types:
            media = ",".join(sorted(_media_type(t) for t in types))
            types = set()
        result = ("binary", media) + _binary(data)
        value_type = None
    else:
        text = _text(raw, charset)
        data_uri = re.fullmatch(r"data:([^,;]*)((?:;[^,]*)?),(.*)", text.strip(), re.S)
        if data_uri and name in MEDIA:
            payload = data_uri.group(3)
            data = _base64(payload.encode()) if "base64" in data_uri.group(2) else payload.encode()
            result = ("binary", _media_type(data_uri.group(1)) if data_uri.group(1) else None) + _binary(data)
            value_type = None
        else:
            text = text.replace("\r\n", "\n")
            if name in STRUCTURED:
                if version == "2.1":
                    parts = [(_unescape_21(part),) for part in _split_escaped(text, ";")]
                else:
                    parts = [tuple(_unescape(piece) for piece in _split_escaped(part, ",")) if name in COMMA_COMPONENTS
                             else (_unescape(part),) for part in _split_escaped(text, ";")]
                while parts and all(piece == "" for piece in parts[-1]):
                    parts.pop()
                result = ("parts", tuple(parts))
            elif name in LISTS:
                result = ("list", tuple(_unescape(piece) for piece in _split_escaped(text, ",")))
            elif version == "2.1":
                result = ("text", text)
            else:
                result = ("text", _unescape(text))
            if name in DATES and result[0] == "text":
                result = ("text", _basic_date(result[1]))
            if name == "GEO" and result[0] == "text" and GEO.fullmatch(result[1]):
                # 2.1's `lat,lon`, 3.0's `lat;lon` and 4.0's `geo:lat,lon` are one position.
                result = ("geo",) + GEO.fullmatch(result[1]).groups()
            if name == "KIND" and result[0] == "text":
                result = ("text", result[1].lower())
    if value_type is not None and not (name in DATES | {"REV"} and value_type in DATE_VALUE_TYPES):
        values["VALUE"] = [value_type]
    if "LANGUAGE" in values:
        values["LANGUAGE"] = [v.lower() for v in values["LANGUAGE"]]
    normalised = {(key, tuple(vals)) for key, vals in values.items()}
    if types:
        normalised.add(("TYPE", frozenset(types)))
    return frozenset(normalised), result


def parse(data, version=None):
    """The card in `data` (one card's bytes) as a ParsedCard. Cards nested in it (2.1 AGENT) are
    the value of their AGENT property, or of a property named BEGIN when no AGENT holds them."""
    version = version or declared_version(data)
    lines = physical_lines(data)
    logical, noise = _logical_lines(lines, version, 1)
    card, _ = _parse_block(logical, 0, version)
    card.noise = noise
    return card


def _parse_block(logical, start, version):
    """Reads from the BEGIN:VCARD at logical[start] to its END:VCARD."""
    card = ParsedCard(version)
    index = start + 1 if start < len(logical) and BEGIN.match(logical[start][1]) else start
    while index < len(logical):
        number, line = logical[index]
        if END.match(line):
            return card, index + 1
        if BEGIN.match(line):
            nested, index = _parse_block(logical, index, version)
            holder = card.properties[-1] if card.properties and card.properties[-1].name == "AGENT" \
                and card.properties[-1].value == ("text", "") else None
            value = ("card", frozenset(p.key for p in nested.properties if p.name not in IGNORED))
            if line.upper().lstrip().startswith(b"AGENT") or re.match(rb"^\s*[\w-]+\.AGENT", line, re.I):
                group, name, params, _ = _content_line(line)
                normalised, _ = normalise(group, name, params, b"", version)
                card.properties.append(Property(number, line.decode("utf-8", "replace"), group, name, normalised, value))
            elif holder is not None:
                holder.value = value
            else:
                card.properties.append(Property(number, "BEGIN:VCARD (a card nested in the card)", "", "BEGIN",
                                                frozenset(), value))
            continue
        group, name, params, raw = _content_line(line)
        normalised, value = normalise(group, name, params, raw, version)
        if name == "AGENT" and value[0] == "text" and re.match(r"\s*BEGIN:VCARD", value[1], re.I):
            # A 3.0 AGENT holds its card as an escaped text value.
            nested = parse(value[1].encode("utf-8"), "3.0")
            value = ("card", frozenset(p.key for p in nested.properties if p.name not in IGNORED))
        card.properties.append(Property(number, line.decode("utf-8", "replace"), group, name, normalised, value))
        index += 1
    return card, index


def parse_file(data):
    """Every top-level card of a written file, parsed."""
    return [parse(card) for card in split_cards(data)]


# ---------------------------------------------------------------------------------------------
# Comparing

@dataclass
class Difference:
    kind: str        # "lost" (in the source, not written back), "added", "reordered", "noise"
    name: str
    line: int = None  # the source line, for lost, reordered and noise
    text: str = ""

    def describe(self):
        where = f"line {self.line}: " if self.line else ""
        return f"{self.kind} {where}{self.text}"


def differences(source, written):
    """How `written` (a ParsedCard, or None when nothing was written) differs from `source`."""
    has_uid = any(p.name == "UID" for p in source.properties)

    def kept(card):
        return [p for p in card.properties if p.name not in IGNORED and (has_uid or p.name != "UID")]

    ours = kept(source)
    theirs = kept(written) if written else []
    found = []
    remaining = {}
    for prop in theirs:
        remaining.setdefault(prop.key, []).append(prop)
    matched = []
    unmatched = []
    for prop in ours:
        if remaining.get(prop.key):
            matched.append((prop, remaining[prop.key].pop(0)))
        else:
            unmatched.append(prop)
    for prop in unmatched:
        # Inline data that came without a media type may come back with the one its bytes are
        # (a 4.0 data: URI needs one; the converter reads it from the data): nothing was lost.
        twin = None
        if prop.value[0] == "binary" and prop.value[1] is None:
            twin = next((p for props in remaining.values() for p in props
                         if (p.group, p.name, p.params) == (prop.group, prop.name, prop.params)
                         and p.value[0] == "binary" and p.value[2:] == prop.value[2:]), None)
        if twin is not None:
            remaining[twin.key].remove(twin)
            matched.append((prop, twin))
        else:
            found.append(Difference("lost", prop.name, prop.line, prop.text))
    for props in remaining.values():
        for prop in props:
            found.append(Difference("added", prop.name, None, prop.text))
    # Among properties of one name, the order they came in.
    by_name = {}
    for mine, theirs_prop in matched:
        by_name.setdefault(mine.name, []).append(theirs.index(theirs_prop))
    for name, positions in by_name.items():
        if positions != sorted(positions):
            first = next(p for p in ours if p.name == name)
            found.append(Difference("reordered", name, first.line, f"the {name} properties are in another order"))
    for line, text in source.noise:
        found.append(Difference("noise", "", line, text))
    return found


def tolerated(difference, flagged):
    # A property the version cannot hold is written as its X- form (RFC 2426 §3.8, issue 25: "4.0-only
    # ones into X- properties for 3.0"): the X- property that appears is that same difference.
    return difference.kind != "noise" and (difference.name in flagged or (
        difference.kind == "added" and difference.name.startswith("X-") and difference.name[2:] in flagged))


# ---------------------------------------------------------------------------------------------
# Running contactsbook on a card

@dataclass
class CardRun:
    card: Card
    import_status: int
    import_output: str
    exports: dict          # "3.0"/"4.0" -> bytes of the exported file (b"" when none)
    back: bytes            # own version, after the trip through the other version
    session_errors: str


def _binary_path():
    path = os.environ.get("CONTACTSBOOK_BIN") or str(ROOT / ".build" / "debug" / "contactsbook")
    if not os.path.exists(path):
        raise RuntimeError(f"no contactsbook at {path}: build it or set CONTACTSBOOK_BIN")
    return path


def _session(binary, db, commands, home, create=False):
    return subprocess.run([binary, "--db", str(db)] + (["--create"] if create else []),
                          input="".join(c + "\n" for c in commands), capture_output=True, text=True,
                          env={"HOME": str(home), "PATH": "/usr/bin:/bin"}, timeout=120)


def run_card(card, workdir):
    """Imports the card alone into a new book with the one-shot `import`, exports it as 3.0 and
    4.0, and takes the other version's export through a second new book back to the own version."""
    binary = _binary_path()
    work = Path(workdir)
    work.mkdir(parents=True, exist_ok=True)
    source = work / "card.vcf"
    source.write_bytes(card.data)
    book = work / "book.sqlite"
    imported = subprocess.run([binary, "--db", str(book), "--create", "import", str(source)],
                              capture_output=True, text=True, env={"HOME": str(work), "PATH": "/usr/bin:/bin"},
                              timeout=120)
    exports, errors = {}, ""
    if book.exists():
        session = _session(binary, book, [f"export {work / 'export-3.0.vcf'} vcard3",
                                          f"export {work / 'export-4.0.vcf'} vcard4"], work)
        errors += session.stderr
    for version in ("3.0", "4.0"):
        path = work / f"export-{version}.vcf"
        exports[version] = path.read_bytes() if path.exists() else b""
    back = b""
    other = work / f"export-{card.other_version}.vcf"
    if exports[card.other_version]:
        flag = "vcard4" if card.own_version == "4.0" else "vcard3"
        session = _session(binary, work / "back.sqlite", [f"import {other}", f"export {work / 'back.vcf'} {flag}"],
                           work, create=True)
        errors += session.stderr
        if (work / "back.vcf").exists():
            back = (work / "back.vcf").read_bytes()
    return CardRun(card, imported.returncode, imported.stdout + imported.stderr, exports, back, errors)


# ---------------------------------------------------------------------------------------------
# The checks

@dataclass
class Outcome:
    passed: bool
    reason: str      # one line: why it fails (empty when it passes)
    details: str = ""


def _best_match(source, written_cards):
    """The written card closest to the source (most properties in common), and the others."""
    if not written_cards:
        return None, []
    keys = {p.key for p in source.properties}
    best = max(written_cards, key=lambda card: sum(p.key in keys for p in card.properties))
    return best, [card for card in written_cards if card is not best]


def _summary(found):
    """A short, stable line: which properties were lost, added or reordered, and noise lines."""
    parts = []
    for kind in ("lost", "added", "reordered"):
        names = sorted({d.name for d in found if d.kind == kind})
        if names:
            parts.append(f"{kind} {','.join(names)}")
    noise = [d for d in found if d.kind == "noise"]
    if noise:
        parts.append(f"{len(noise)} unreadable line(s)")
    return "; ".join(parts)


class Corpus:
    """Runs every card once (two at a time) and the validator once per version for all of them,
    then answers each check from what was seen."""

    def __init__(self, cards=None, workdir=None, jobs=2):
        self.cards = cards if cards is not None else corpus_cards()
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="real-cards-"))
        self.jobs = jobs
        self._runs = None
        self._validation = None

    def runs(self):
        if self._runs is None:
            with ThreadPoolExecutor(self.jobs) as pool:
                results = pool.map(lambda pair: run_card(pair[1], self.workdir / f"card-{pair[0]:04d}"),
                                   enumerate(self.cards))
                self._runs = {run.card.id: run for run in results}
        return self._runs

    def validation(self):
        """{(card id, "export"|"source", version): [ez-vcard card, ...]}."""
        if self._validation is None:
            runs = self.runs()
            self._validation = {}
            for version in ("3.0", "4.0"):
                paths = {}
                for index, card in enumerate(self.cards):
                    folder = self.workdir / f"card-{index:04d}"
                    paths[(card.id, "source", version)] = folder / "card.vcf"
                    exported = folder / f"export-{version}.vcf"
                    if runs[card.id].exports[version]:
                        paths[(card.id, "export", version)] = exported
                answers = vcard_validator.validate_many(sorted({str(p) for p in paths.values()}), version)
                for key, path in paths.items():
                    self._validation[key] = answers[str(path)]
        return self._validation

    def flagged(self, card, version):
        """Property names of the source card that cannot stay as they are in `version`."""
        names = set()
        for answer in self.validation()[(card.id, "source", version)]:
            names |= vcard_validator.flagged_properties(answer)
        return names

    def check(self, card, check):
        run = self.runs()[card.id]
        if check.startswith("valid-"):
            return self._valid(card, run, check[len("valid-"):])
        if check == "roundtrip":
            return self._roundtrip(card, run, run.exports[card.own_version], {card.own_version})
        if check == "roundtrip-other":
            if not run.exports[card.other_version]:
                return Outcome(False, self._refused(run) if not run.exports[card.own_version]
                               else f"nothing exported in {card.other_version}")
            return self._roundtrip(card, run, run.back, {card.own_version, card.other_version})
        if check == "report":
            return self._report(card, run)
        raise ValueError(check)

    def _refused(self, run):
        first = next((line for line in run.import_output.splitlines() if re.search(r"line \d+", line)),
                     run.import_output.strip().splitlines()[0] if run.import_output.strip() else "no output")
        return f"not imported: {first.strip()}"

    def _valid(self, card, run, version):
        written = run.exports[version]
        if not written:
            return Outcome(False, self._refused(run))
        problems = vcard_validator.raw_errors(written) + vcard_validator.syntax_errors(written, version)
        answers = self.validation()[(card.id, "export", version)]
        if len(answers) != 1:
            problems.append(f"ez-vcard read {len(answers)} cards")
        for answer in answers:
            problems += vcard_validator.errors(answer)
        if not problems:
            return Outcome(True, "")
        kinds = {}  # kind of problem -> the properties it is about, for a short stable reason
        for problem in problems:
            match = re.match(r"(\S+): (W\d+|parse warning \d+)", problem) or \
                re.match(r"line \d+ (\S*): (parse warning \d+)", problem)
            if match:
                kind, prop = match.group(2).replace("parse warning ", "P"), match.group(1)
            else:
                match = re.match(r"line \d+ (\S+): (.*)", problem)
                prop, kind = (match.group(1), match.group(2)) if match else ("", re.sub(r"^line \d+: ", "", problem))
                kind = re.sub(r"parameter '.*' without a name \(2.1 syntax\)", "bare parameter", kind)
                kind = re.sub(r"\d+ octets, over the 75 of a folded line", "line over 75 octets", kind.split(" at byte")[0])
            props = kinds.setdefault(kind, [])
            if prop and prop not in props:
                props.append(prop)
        reason = "; ".join(f"{kind} {','.join(props)}".strip() for kind, props in kinds.items())
        return Outcome(False, reason, "\n".join(problems))

    def _roundtrip(self, card, run, written_bytes, versions):
        if not written_bytes:
            return Outcome(False, self._refused(run) if not run.exports[card.own_version] else "nothing written back")
        source = parse(card.data)
        written_cards = parse_file(written_bytes)
        best, extra = _best_match(source, written_cards)
        found = differences(source, best)
        for other in extra:
            found += [Difference("added", p.name, None, f"(another contact) {p.text}") for p in other.properties
                      if p.name not in IGNORED | {"UID"}]
        flagged = set()
        for version in versions:
            flagged |= self.flagged(card, version)
        failing = [d for d in found if not tolerated(d, flagged)]
        if not failing:
            return Outcome(True, "")
        details = "\n".join(d.describe() for d in failing)
        note = f" (+{len(extra)} more contact(s))" if extra else ""
        return Outcome(False, _summary(failing) + note, details)

    def _report(self, card, run):
        report = run.import_output.splitlines()
        if not run.exports[card.own_version]:
            if run.import_status == 0:
                return Outcome(False, "nothing imported, but the import exited 0")
            if not any(re.search(r"\bline \d+", line) for line in report):
                return Outcome(False, "nothing imported, and no line named")
            return Outcome(True, "")
        source = parse(card.data)
        best, extra = _best_match(source, parse_file(run.exports[card.own_version]))
        found = differences(source, best)
        for other in extra:
            found += [Difference("added", p.name, None, f"(another contact) {p.text}") for p in other.properties
                      if p.name not in IGNORED | {"UID"}]
        unnamed = []
        for difference in found:
            name = re.compile(rf"(?<![\w-]){re.escape(difference.name)}(?![\w-])", re.I) if difference.name else None
            at = re.compile(rf"\bline {difference.line}\b") if difference.line else None
            if not any((at is None or at.search(line)) and (name is None or name.search(line)) for line in report):
                unnamed.append(difference)
        if not unnamed:
            return Outcome(True, "")
        return Outcome(False, "not in the report: " + _summary(unnamed),
                       "\n".join(d.describe() for d in unnamed) + "\n--- the report:\n" + run.import_output)


# ---------------------------------------------------------------------------------------------
# KNOWN-FAILURES.txt: "card-id check observed reason", one line each; # starts a comment

def read_known_failures(path=KNOWN_FAILURES):
    known = {}
    if not path.exists():
        return known
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        card_id, check, *reason = line.split(" ", 2)
        known[(card_id, check)] = reason[0] if reason else ""
    return known


HEADER = """\
# Today's failures of Tests/python/test_real_cards.py, one line per card and check:
#   CARD-ID CHECK OBSERVED-REASON
# Each line makes that test an xfail(strict=True): it must fail, so a fix turns the test red
# until its line is removed here. `python3 Tests/tools/corpus_report.py --write-known-failures`
# rewrites this file from a run (review the diff: a line that goes away is a fix, one that
# appears is a regression).
# A reason starting 'by design:' is a card that cannot round-trip as the checks want without
# breaking its version or another card (the converter's export report names the change);
# 'not fixed:' is a known defect. A rewrite keeps these reasons while the check still fails.
"""


def write_known_failures(outcomes, path=KNOWN_FAILURES):
    # A reason someone wrote ("by design: ...", "not fixed: ...") stays while the check still fails.
    kept = {key: reason for key, reason in read_known_failures(path).items()
            if reason.startswith(("by design:", "not fixed:"))}
    lines = [f"{card_id} {check} {kept.get((card_id, check), outcome.reason)}".rstrip()
             for (card_id, check), outcome in outcomes if not outcome.passed]
    path.write_text(HEADER + "".join(line + "\n" for line in lines), encoding="utf-8")
