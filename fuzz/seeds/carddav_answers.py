"""Records real Radicale and Xandikos answers to the requests ContactsBook's CardDAV client sends
(DAVXML in CardDAVClient.swift), as seeds for the `carddav` fuzz harness:

    python3 fuzz/seeds/carddav_answers.py fuzz/corpus/carddav

Each server runs on 127.0.0.1 in a scratch directory (Tests/python/carddav_servers.py)."""
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "python"))
from carddav_servers import Server, vcard  # noqa: E402

NS = 'xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"'


def propfind(*props):
    return f'<?xml version="1.0" encoding="utf-8"?>\n<D:propfind {NS}><D:prop>{"".join(f"<{p}/>" for p in props)}</D:prop></D:propfind>'


def sync(token):
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<D:sync-collection {NS}><D:sync-token>{token}</D:sync-token>'
            '<D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>')


def multiget(hrefs):
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<C:addressbook-multiget {NS}><D:prop><D:getetag/><C:address-data/>'
            f'</D:prop>{"".join(f"<D:href>{h}</D:href>" for h in hrefs)}</C:addressbook-multiget>')


def record(kind, out):
    with tempfile.TemporaryDirectory() as scratch:
        server = Server(kind, pathlib.Path(scratch))
        try:
            def save(name, method, url, body, depth):
                status, _, answer = server.request(method, url, body.encode(), {"Depth": depth})
                (out / f"recorded-{kind}-{name}.xml").write_bytes(answer)
                return answer.decode()

            save("root-propfind", "PROPFIND", server.base, propfind(
                "D:current-user-principal", "D:resourcetype", "C:addressbook-home-set", "D:displayname",
                "C:supported-address-data"), "0")
            server.put("a1.vcf", vcard("a1", "Ann", "Lee", "EMAIL;TYPE=work:ann@example.org", "TEL;TYPE=cell:+1 555 0100"))
            server.put("b2.vcf", vcard("b2", "José", "Ñúñez", "NOTE:two\\nlines & <markup>", "ADR;TYPE=home:;;1 Main St;Springfield;IL;62701;USA"))
            server.put("c3.vcf", vcard("c3", "太郎", "山田", "ORG:Acme;Sales", "BDAY:1990-05-17"))
            first = save("sync-initial", "REPORT", server.book, sync(""), "1")
            save("list-members", "PROPFIND", server.book, propfind("D:getetag", "D:resourcetype", "D:sync-token"), "1")
            hrefs = [server.book.split(server.base[:-1], 1)[1] + name for name in ("a1.vcf", "b2.vcf", "c3.vcf", "gone.vcf")]
            save("multiget", "REPORT", server.book, multiget(hrefs), "1")
            import re
            token = re.search(r"<(?:\w+:)?sync-token>([^<]+)<", first).group(1)
            server.delete("a1.vcf")
            server.put("d4.vcf", vcard("d4", "Bo", "Ng"))
            save("sync-changes", "REPORT", server.book, sync(token), "1")
            save("sync-invalid-token", "REPORT", server.book, sync(token + "x"), "1")
        finally:
            server.stop()


if __name__ == "__main__":
    target = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "fuzz/corpus/carddav")
    target.mkdir(parents=True, exist_ok=True)
    for kind in ("radicale", "xandikos"):
        record(kind, target)
