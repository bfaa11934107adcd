"""A real OpenLDAP server (Debian's slapd) for the directory tests (issue 31): a generated
directory of people with Unicode names, loaded with slapadd into an mdb database in a temporary
folder (`Directory`, made once), served on 127.0.0.1 on free ports (plain LDAP with StartTLS, and
LDAPS) with a self-signed certificate made by openssl (`LDAPServer`, one per copy of the
database). Ready when ldapsearch answers, under a deadline."""
import base64
import os
import shutil
import socket
import subprocess
import threading
import time

BASE = "dc=example,dc=org"
PEOPLE = f"ou=people,{BASE}"
READER_DN = f"cn=reader,{BASE}"
READER_PASSWORD = "reader-secret"

GIVEN = ["Ann", "José", "Zoë", "Łukasz", "Søren", "Ærwyn", "Chloé", "Björn", "Dāvis", "Ñico", "Ольга", "Ἀλέξανδρος",
         "太郎", "Mia", "Noah", "Iñaki", "Åsa", "Jürgen", "Émile", "Ravi"]
FAMILY = ["Lee", "García", "Müller", "Kowalski", "Ødegaard", "Nguyễn", "Dubois", "Søndergaard", "Ivanova", "山田",
          "O'Brien", "Smith", "Björk", "Łęcki", "Papadopoulos", "Tanaka", "Rossi", "Schäfer", "Kim", "Novák"]

# The smallest JPEG a viewer opens (1x1), as a directory's jpegPhoto.
TINY_JPEG = base64.b64decode(
    "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////"
    "////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=")


def missing():
    """Why the tests cannot run here, or None."""
    for tool in ("slapd", "slapadd", "ldapsearch", "openssl"):
        if not shutil.which(tool) and not os.path.exists(f"/usr/sbin/{tool}"):
            return f"{tool} is not installed (scripts/setup installs slapd, ldap-utils and openssl)"
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ldif_value(name, value):
    """An LDIF line; base64 when the value is not safe as it is (RFC 2849)."""
    if isinstance(value, bytes):
        return f"{name}:: {base64.b64encode(value).decode()}"
    raw = value.encode()
    if not value or value[0] in " :<" or value[-1] == " " or any(b < 0x20 or b > 0x7E for b in raw):
        return f"{name}:: {base64.b64encode(raw).decode()}"
    return f"{name}: {value}"


def person(uid, given, family, mail=None, extra=()):
    lines = [f"dn: uid={uid},{PEOPLE}", "objectClass: inetOrgPerson", ldif_value("uid", uid),
             ldif_value("cn", f"{given} {family}"), ldif_value("givenName", given), ldif_value("sn", family)]
    if mail:
        lines.append(ldif_value("mail", mail))
    lines += [ldif_value(name, value) for name, value in extra]
    return "\n".join(lines) + "\n"


def people(count):
    """`count` generated people: every combination of the names, numbered past the first round."""
    out = []
    for index in range(count):
        given = GIVEN[index % len(GIVEN)]
        family = FAMILY[(index // len(GIVEN)) % len(FAMILY)]
        round_ = index // (len(GIVEN) * len(FAMILY))
        suffix = f"{round_}" if round_ else ""
        out.append(person(f"p{index}", given, family + suffix, mail=f"p{index}@corp.example.org",
                          extra=[("telephoneNumber", f"+1 555 {index:07d}"), ("o", "Example Corp"), ("title", "Engineer")]))
    return out


# Entries a directory should never send, and do: escape sequences, a value of 200,000 characters,
# a photo, bidirectional and line-separator characters.
ESCAPE = "\x1b]0;pwned\x07\x1b[31mRed"
HOSTILE = [
    "\n".join([f"dn: uid=hostile,{PEOPLE}", "objectClass: inetOrgPerson", "uid: hostile",
               ldif_value("cn", f"Xavier {ESCAPE}"), "givenName: Xavier", ldif_value("sn", ESCAPE),
               "mail: xavier@corp.example.org", ldif_value("description", "x" * 200_000),
               ldif_value("jpegPhoto", TINY_JPEG),
               ldif_value("title", "Chief\u202eTrouble\u2028Maker")]) + "\n",
]


class Directory:
    """A directory's data made once, for any number of servers: `count` generated people plus
    `extra` LDIF entries loaded with slapadd into an mdb database (offline, straight into the
    database: 10,000 people in 1.6 s on the loaded 2-core build machine, where ldapadd through a
    running slapd took 8.5 s), and a self-signed certificate. Each server serves a copy
    (`LDAPServer`)."""

    def __init__(self, path, count=200, extra=()):
        self.dir = path
        (self.dir / "db").mkdir(parents=True)
        self.cert = self.dir / "cert.pem"
        self.key = self.dir / "key.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                        "-keyout", str(self.key), "-out", str(self.cert)], check=True, capture_output=True, timeout=60)
        ldif = [f"dn: {BASE}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n",
                f"dn: {PEOPLE}\nobjectClass: organizationalUnit\nou: people\n",
                f"dn: {READER_DN}\nobjectClass: person\nobjectClass: simpleSecurityObject\ncn: reader\nsn: reader\n"
                f"userPassword: {READER_PASSWORD}\n"]
        ldif += people(count)
        ldif += list(extra)
        (self.dir / "people.ldif").write_text("\n".join(ldif), encoding="utf-8")
        conf = self.configuration(self.dir, self.dir / "db")
        # -q: no consistency checks, the fastest load; the LDIF is ours.
        subprocess.run(["/usr/sbin/slapadd", "-q", "-f", str(conf), "-l", str(self.dir / "people.ldif")],
                       check=True, capture_output=True, timeout=300)

    def configuration(self, where, database):
        conf = where / "slapd.conf"
        conf.write_text(f"""
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
modulepath /usr/lib/ldap
moduleload back_mdb
pidfile {where}/slapd.pid
argsfile {where}/slapd.args
TLSCertificateFile {self.cert}
TLSCertificateKeyFile {self.key}
sizelimit 2000
database mdb
maxsize 1073741824
suffix "{BASE}"
rootdn "cn=admin,{BASE}"
rootpw admin-secret
directory {database}
access to attrs=userPassword by anonymous auth by self write by * none
access to * by * read
""")
        return conf


class LDAPServer:
    """slapd on 127.0.0.1 (plain LDAP with StartTLS, and LDAPS, each on a free port) serving a copy
    of `directory`'s database, or of one made for it of `count` people plus `extra` entries."""

    def __init__(self, tmp_path, count=200, extra=(), directory=None):
        self.dir = tmp_path / "slapd"
        self.dir.mkdir(parents=True)
        if directory is None:
            directory = Directory(tmp_path / "slapd-data", count, extra)
        self.cert, self.key = directory.cert, directory.key
        # A copy: a test may stop its server, and two slapd must not share one database.
        shutil.copytree(directory.dir / "db", self.dir / "db")
        self.port = free_port()
        self.tls_port = free_port()
        self.conf = directory.configuration(self.dir, self.dir / "db")
        self.proc = None
        self.start()

    @property
    def url(self):
        return f"ldap://127.0.0.1:{self.port}/{PEOPLE}"

    @property
    def ldaps_url(self):
        return f"ldaps://127.0.0.1:{self.tls_port}/{PEOPLE}"

    @property
    def starttls_url(self):
        return f"ldap://127.0.0.1:{self.port}/{PEOPLE}"

    def start(self):
        self.proc = subprocess.Popen(
            ["/usr/sbin/slapd", "-f", str(self.conf), "-h",
             f"ldap://127.0.0.1:{self.port}/ ldaps://127.0.0.1:{self.tls_port}/", "-d", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            probe = subprocess.run(["ldapsearch", "-x", "-LLL", "-H", f"ldap://127.0.0.1:{self.port}", "-b", BASE,
                                    "-s", "base", "-o", "nettimeout=2", "dn"], capture_output=True, timeout=30)
            if probe.returncode == 0:
                return
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"slapd did not answer within 30 s: {probe.stderr!r}")
            try:
                # Waiting on the server itself: returns at once if it died.
                self.proc.wait(timeout=0.05)
                raise RuntimeError("slapd exited at start")
            except subprocess.TimeoutExpired:
                pass

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class SilentProxy:
    """A TCP server that accepts connections and never answers: a directory too slow to wait for.
    Connections are held until `close`."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.held = []
        self.closed = False
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while not self.closed:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self):
        self.closed = True
        self.sock.close()
        for conn in self.held:
            conn.close()
