"""Writes the hostile shapes of CardDAV answers (issue 26) as seeds for the `carddav` fuzz harness:

    python3 fuzz/seeds/carddav_shapes.py fuzz/corpus/carddav

Huge (many members, a card with a large photo, a card cut off mid-answer), deep (nesting under
and over the reader's 256 levels), off-host and outside-the-book hrefs, and entities (declared,
external, parameter, nested, in an attribute). Each stays under the harness's 16 KB input limit."""
import base64
import pathlib
import random
import sys

NS = 'xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"'
HEAD = '<?xml version="1.0" encoding="utf-8"?>\n'


def card(uid, *lines):
    return ("BEGIN:VCARD\nVERSION:3.0\nUID:" + uid + "\nFN:" + uid.title() + " Lee\n"
            + "".join(line + "\n" for line in lines) + "END:VCARD\n")


def response(href, props="", status="HTTP/1.1 200 OK"):
    return (f"<D:response><D:href>{href}</D:href><D:propstat><D:prop>{props}</D:prop>"
            f"<D:status>{status}</D:status></D:propstat></D:response>")


def member(href, etag, data=None):
    props = f'<D:getetag>"{etag}"</D:getetag>'
    if data is not None:
        props += f"<C:address-data>{data}</C:address-data>"
    return response(href, props)


def multistatus(body, doctype="", token=None):
    tail = f"<D:sync-token>{token}</D:sync-token>" if token else ""
    return f"{HEAD}{doctype}<D:multistatus {NS}>{body}{tail}</D:multistatus>"


def shapes():
    rng = random.Random(26)
    photo = base64.b64encode(rng.randbytes(9_000)).decode()
    yield "shape-huge-listing", multistatus("".join(member(f"/alice/book/m{n}.vcf", n) for n in range(90)), token="t-huge")
    yield "shape-huge-card", multistatus(member("/alice/book/a.vcf", 1, card("ann", "PHOTO;ENCODING=b;TYPE=JPEG:" + photo))
                                         + member("/alice/book/b.vcf", 2, card("bob")))
    yield "shape-huge-cut-off", multistatus(member("/alice/book/a.vcf", 1, card("ann"))
                                            + member("/alice/book/b.vcf", 2, card("bob", "NOTE:" + "x" * 3000)))[:-900]
    yield "shape-deep-under-limit", multistatus(response("/alice/book/", "<D:resourcetype>" + "<D:x>" * 200
                                                         + "</D:x>" * 200 + "<D:collection/></D:resourcetype>"))
    yield "shape-deep-over-limit", multistatus(response("/alice/book/", "<D:x>" * 300 + "</D:x>" * 300))
    yield "shape-offhost-multiget", multistatus(
        member("http://other.example/steal/y.vcf", 1, card("mal"))
        + member("//other.example/alice/book/z.vcf", 2, card("zed"))
        + member("https://dav.example:8443/alice/book/p.vcf", 3, card("pat"))
        + member("/alice/book/%2e%2e/%2E%2E/other/q.vcf", 4, card("quin"))
        + member("/alice/book/ok.vcf", 5, card("ok")))
    yield "shape-entity-nested", multistatus(member("/alice/book/a.vcf", 1, "NOTE:&lol3;"), doctype=(
        '<!DOCTYPE D:multistatus [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">'
        '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;">]>'))
    yield "shape-entity-parameter", multistatus(member("/alice/book/a.vcf", 1, card("ann")), doctype=(
        '<!DOCTYPE D:multistatus [<!ENTITY % p "<!ENTITY a \'x\'>"> %p;]>'))
    yield "shape-entity-in-attribute", multistatus(response("/alice/book/", (
        '<C:supported-address-data><C:address-data-type content-type="text/vcard" version="&v;"/>'
        '</C:supported-address-data>')), doctype='<!DOCTYPE D:multistatus [<!ENTITY v "4.0">]>')
    yield "shape-entity-after-cdata", multistatus(member("/alice/book/a.vcf", 1, "<![CDATA[AT&T; &x;]]>&amp;&#65;&y;"))


def main(out):
    out = pathlib.Path(out)
    for name, text in shapes():
        data = text.encode()
        assert len(data) <= 16384, (name, len(data))
        (out / f"{name}.xml").write_bytes(data)


if __name__ == "__main__":
    main(sys.argv[1])
