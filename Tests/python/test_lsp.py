"""`contactsbook --lsp` driven by an independent LSP client: pytest-lsp's (on pygls), which also
checks each answer against the capabilities the client declared. Mail drafts as mutt and Emacs
write them; the book is changed by other processes to see diagnostics follow; positions in
UTF-16 (the default) and UTF-8, with characters outside the BMP.

Framing-level cases a library client cannot make (a cancellation in the same read as its
request, requests before initialize, exit without shutdown) are sent as raw bytes."""
import asyncio
import subprocess
from typing import Union

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import make_test_lsp_client

from rpc_client import TIMEOUT, binary, frame, isolated_env, parse_frames

CARDS = """BEGIN:VCARD
VERSION:3.0
UID:jose
N:Ñúñez;José;;;
FN:José Ñúñez
NICKNAME:Pepe
ORG:Ñandú Ltd
TITLE:Engineer
EMAIL;TYPE=work:jose@example.org
EMAIL;TYPE=home:pepe@home.example
TEL;TYPE=cell:+1 555 123 4567
BDAY:1980-04-02
END:VCARD
BEGIN:VCARD
VERSION:3.0
UID:ann
N:Lee;Ann;;;
FN:Ann Lee
ORG:Acme
EMAIL;TYPE=work:ann@acme.test
END:VCARD
BEGIN:VCARD
VERSION:3.0
UID:annb
N:Lee;Ann B.;;;
FN:Ann B. Lee
EMAIL:annb@lee.example
END:VCARD
"""

URI = "file:///tmp/draft.eml"


def run(body):
    asyncio.run(asyncio.wait_for(body(), TIMEOUT * 3))


@pytest.fixture
def book(tmp_path):
    path = tmp_path / "book.sqlite"
    cards = tmp_path / "cards.vcf"
    cards.write_text(CARDS)
    contactsbook(tmp_path, path, "import", str(cards), "--create")
    return path


def contactsbook(tmp_path, db, *args, stdin=None, check=True):
    """Another process on the same book."""
    return subprocess.run([binary(), "--db", str(db), *args], input=stdin, capture_output=True, text=True,
                          env=isolated_env(tmp_path), timeout=TIMEOUT, check=check).stdout


def code_action_or_command(value, _):
    """lsprotocol 2025.0.0 reads any object with a `command` member as a Command, so a CodeAction
    that runs one (as the spec allows, and as every editor reads it) lost its kind and
    diagnostics: a Command's `command` is a string, a CodeAction's an object."""
    kind = lsp.Command if isinstance(value.get("command"), str) else lsp.CodeAction
    return CONVERTER.structure(value, kind)


async def start(tmp_path, db, encodings=None):
    global CONVERTER
    client = make_test_lsp_client()
    CONVERTER = client.protocol._converter
    CONVERTER.register_structure_hook(Union[lsp.Command, lsp.CodeAction], code_action_or_command)
    await client.start_io(binary(), "--lsp", "--db", str(db), env=isolated_env(tmp_path))
    general = lsp.GeneralClientCapabilities(position_encodings=encodings) if encodings else None
    capabilities = lsp.ClientCapabilities(
        general=general,
        text_document=lsp.TextDocumentClientCapabilities(
            completion=lsp.CompletionClientCapabilities(completion_item=lsp.ClientCompletionItemOptions(
                documentation_format=[lsp.MarkupKind.Markdown, lsp.MarkupKind.PlainText])),
            hover=lsp.HoverClientCapabilities(content_format=[lsp.MarkupKind.Markdown]),
            code_action=lsp.CodeActionClientCapabilities(code_action_literal_support=lsp.ClientCodeActionLiteralOptions(
                code_action_kind=lsp.ClientCodeActionKindOptions(value_set=[lsp.CodeActionKind.QuickFix]))),
            publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(version_support=True)))
    result = await client.initialize_session(lsp.InitializeParams(capabilities=capabilities))
    return client, result


def expect_diagnostics(client):
    """A future for the next diagnostics, waiting from now (pytest-lsp's coroutine would only
    start waiting when awaited, and diagnostics sent before a response would be missed)."""
    return asyncio.wrap_future(client.protocol.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS))


async def open_draft(client, text, uri=URI):
    waiting = expect_diagnostics(client)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="mail", version=1, text=text)))
    return await waiting


async def complete(client, line, character, uri=URI):
    return await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=character)))


async def stop(client):
    await client.shutdown_session()
    assert client._server.returncode == 0


def test_initialize_declares_the_served_capabilities_and_shutdown_then_exit_ends_cleanly(tmp_path, book):
    async def body():
        client, result = await start(tmp_path, book)
        caps = result.capabilities
        assert result.server_info.name == "contactsbook"
        assert caps.position_encoding == lsp.PositionEncodingKind.Utf16
        assert caps.text_document_sync.open_close is True
        assert caps.text_document_sync.change == lsp.TextDocumentSyncKind.Incremental
        assert caps.completion_provider is not None and caps.hover_provider is True
        assert list(caps.code_action_provider.code_action_kinds) == [lsp.CodeActionKind.QuickFix]
        assert set(caps.execute_command_provider.commands) == {
            "contactsbook.addAddress", "contactsbook.addUnknown", "contactsbook.search", "contactsbook.show"}
        await stop(client)
    run(body)


def test_utf8_is_chosen_when_the_client_offers_it(tmp_path, book):
    async def body():
        client, result = await start(tmp_path, book, encodings=[lsp.PositionEncodingKind.Utf8, lsp.PositionEncodingKind.Utf16])
        assert result.capabilities.position_encoding == lsp.PositionEncodingKind.Utf8
        await stop(client)
    run(body)


def test_completion_of_an_accented_name_from_plain_letters_replaces_only_the_typed_address(tmp_path, book):
    async def body():
        client, _ = await start(tmp_path, book)
        await open_draft(client, "From: me@example.net\nTo: jos\nSubject: hi\n\nbody\n")
        result = await complete(client, 1, 7)
        assert result.is_incomplete is True
        labels = [item.label for item in result.items]
        assert labels[0] == "José Ñúñez <jose@example.org>", labels
        assert "José Ñúñez <pepe@home.example>" in labels
        first = result.items[0]
        assert first.text_edit.new_text == "José Ñúñez <jose@example.org>"
        assert first.text_edit.range == lsp.Range(start=lsp.Position(line=1, character=4), end=lsp.Position(line=1, character=7))
        assert "Ñandú Ltd" in first.documentation.value and "pepe@home.example" in first.documentation.value
        assert first.detail == "work · Ñandú Ltd"
        # Inside the family name, without its accents.
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=lsp.Position(line=1, character=4), end=lsp.Position(line=1, character=7)), text="nun")]))
        result = await complete(client, 1, 7)
        assert result.items[0].label == "José Ñúñez <jose@example.org>"
        await stop(client)
    run(body)


def test_a_second_address_after_a_comma_keeps_the_first_and_the_separator(tmp_path, book):
    async def body():
        client, _ = await start(tmp_path, book)
        line = "To: Ann Lee <ann@acme.test>, jos"
        await open_draft(client, line + "\n\nbody\n")
        result = await complete(client, 0, len(line))
        edit = result.items[0].text_edit
        assert edit.new_text == "José Ñúñez <jose@example.org>"
        assert (edit.range.start.character, edit.range.end.character) == (line.index("jos"), len(line))
        # The edit applied gives the header a mail client reads.
        applied = line[:edit.range.start.character] + edit.new_text + line[edit.range.end.character:]
        assert applied == "To: Ann Lee <ann@acme.test>, José Ñúñez <jose@example.org>"
        await stop(client)
    run(body)


def test_a_folded_continuation_line_completes_and_names_needing_quotes_are_quoted(tmp_path, book):
    async def body():
        client, _ = await start(tmp_path, book)
        await open_draft(client, "To: jose@example.org\nCc: Ann Lee <ann@acme.test>,\n  lee\nSubject: x\n\n")
        result = await complete(client, 2, 5)
        labels = [item.label for item in result.items]
        assert "Ann Lee <ann@acme.test>" in labels and '"Ann B. Lee" <annb@lee.example>' in labels, labels
        assert all(item.text_edit.range.start == lsp.Position(line=2, character=2) for item in result.items)
        await stop(client)
    run(body)


def test_body_lines_and_other_fields_get_no_completion(tmp_path, book):
    async def body():
        client, _ = await start(tmp_path, book)
        await open_draft(client, "To: ann@acme.test\nSubject: jos\n\njos\nTo: jos\n")
        for line in (1, 3, 4):
            result = await complete(client, line, 7)
            assert list(result.items) == [], line
        # The field name itself is not an address.
        assert list((await complete(client, 0, 1)).items) == []
        await stop(client)
    run(body)


def test_emacs_message_mode_separator_ends_the_headers(tmp_path, book):
    async def body():
        client, _ = await start(tmp_path, book)
        await open_draft(client, "To: jos\n--text follows this line--\nTo: jos\n")
        assert (await complete(client, 0, 7)).items[0].label == "José Ñúñez <jose@example.org>"
        assert list((await complete(client, 2, 7)).items) == []
        await stop(client)
    run(body)


def test_hover_shows_the_contact_or_says_it_is_unknown(tmp_path, book):
    async def body():
        client, _ = await start(tmp_path, book)
        await open_draft(client, "To: Pepe <jose@example.org>, zoe@example.org, bad@@x\n\nbody\n")
        hover = await client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=URI), position=lsp.Position(line=0, character=10)))
        text = hover.contents.value
        assert hover.contents.kind == lsp.MarkupKind.Markdown
        for part in ("**José Ñúñez**", "Ñandú Ltd · Engineer", "`jose@example.org` (work)", "`pepe@home.example` (home)",
                     "555", "1980-04-02"):
            assert part in text, (part, text)
        assert hover.range == lsp.Range(start=lsp.Position(line=0, character=4), end=lsp.Position(line=0, character=27))
        hover = await client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=URI), position=lsp.Position(line=0, character=32)))
        assert hover.contents.value == "`zoe@example.org` is not in your contacts"
        hover = await client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=URI), position=lsp.Position(line=0, character=48)))
        assert "not a valid address" in hover.contents.value
        nothing = await client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=URI), position=lsp.Position(line=2, character=1)))
        assert nothing is None
        await stop(client)
    run(body)


def test_diagnostics_hint_unknown_and_warn_invalid_addresses(tmp_path, book):
    async def body():
        client, _ = await start(tmp_path, book)
        published = await open_draft(client, "To: Ann Lee <ann@acme.test>, Zoe Park <zoe@example.org>\nCc: Bob bob@x.org, <nope\n\nzoe@body.example\n")
        found = {(d.code, d.severity, d.range.start.line, d.range.start.character) for d in published.diagnostics}
        assert found == {("unknown-address", lsp.DiagnosticSeverity.Hint, 0, 29),
                         ("invalid-address", lsp.DiagnosticSeverity.Warning, 1, 4),
                         ("invalid-address", lsp.DiagnosticSeverity.Warning, 1, 19)}, found
        assert published.version == 1
        await stop(client)
    run(body)


def test_code_action_adds_the_address_journalled_so_undo_in_another_process_removes_it(tmp_path, book):
    async def body():
        client, _ = await start(tmp_path, book)
        await open_draft(client, "To: Zoe Park <zoe@example.org>, jose@example.org\n\n")
        actions = await client.text_document_code_action_async(lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=URI),
            range=lsp.Range(start=lsp.Position(line=0, character=8), end=lsp.Position(line=0, character=8)),
            context=lsp.CodeActionContext(diagnostics=[])))
        titles = [action.title for action in actions]
        assert titles == ["Add Zoe Park <zoe@example.org> to contacts", "Add every unknown recipient"]
        assert actions[0].diagnostics[0].code == "unknown-address"
        command = actions[0].command
        cleared = expect_diagnostics(client)
        result = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
            command=command.command, arguments=command.arguments))
        assert [c["name"] for c in result["added"]] == ["Zoe Park"]
        assert list((await cleared).diagnostics) == []
        assert "Zoe Park" in contactsbook(tmp_path, book, "search", "zoe")
        # Nothing left to offer once the address is in the book.
        again = await client.text_document_code_action_async(lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=URI),
            range=lsp.Range(start=lsp.Position(line=0, character=8), end=lsp.Position(line=0, character=8)),
            context=lsp.CodeActionContext(diagnostics=[])))
        assert list(again) == []
        await stop(client)
    run(body)
    history = contactsbook(tmp_path, book, stdin="history\n")
    assert "lsp" in history and "added Zoe Park" in history, history
    contactsbook(tmp_path, book, stdin="undo\n")
    assert "Zoe" not in contactsbook(tmp_path, book, "search", "zoe", check=False)


def test_adding_every_unknown_recipient_is_one_change_undone_at_once(tmp_path, book):
    async def body():
        client, _ = await start(tmp_path, book)
        await open_draft(client, "To: Zoe Park <zoe@example.org>, \"Lee, Bo\" <bo@lee.example>\nCc: ann@acme.test,\n  max@example.org\n\n")
        result = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(
            command="contactsbook.addUnknown", arguments=[URI]))
        assert [c["name"] for c in result["added"]] == ["Zoe Park", "Lee, Bo", "max@example.org"]
        assert result["known"] == ["ann@acme.test"]
        await stop(client)
    run(body)
    listing = contactsbook(tmp_path, book, stdin="list\n")
    assert "Zoe Park" in listing and "max@example.org" in listing
    contactsbook(tmp_path, book, stdin="undo\n")
    listing = contactsbook(tmp_path, book, stdin="list\n")
    assert "Zoe" not in listing and "max@" not in listing and "José Ñúñez" in listing


def test_diagnostics_follow_another_process_adding_the_address(tmp_path, book):
    async def body():
        client, _ = await start(tmp_path, book)
        published = await open_draft(client, "To: Zoe Park <zoe@example.org>\n\n")
        assert [d.code for d in published.diagnostics] == ["unknown-address"]
        waiting = expect_diagnostics(client)
        card = tmp_path / "zoe.vcf"
        card.write_text("BEGIN:VCARD\nVERSION:3.0\nFN:Zoe Park\nN:Park;Zoe;;;\nEMAIL:zoe@example.org\nEND:VCARD\n")
        contactsbook(tmp_path, book, "import", str(card))
        assert list((await waiting).diagnostics) == []
        # And back when the other process takes it away again.
        waiting = expect_diagnostics(client)
        contactsbook(tmp_path, book, stdin="undo\n")
        assert [d.code for d in (await waiting).diagnostics] == ["unknown-address"]
        await stop(client)
    run(body)


def test_picker_commands_search_show_and_add_keep_no_state_between_calls(tmp_path, book):
    async def body():
        client, _ = await start(tmp_path, book)
        execute = client.workspace_execute_command_async
        found = await execute(lsp.ExecuteCommandParams(command="contactsbook.search", arguments=["lee"]))
        assert found["total"] == 2
        ann = next(c for c in found["contacts"] if c["name"] == "Ann Lee")
        assert ann["emails"] == [{"label": "work", "value": "ann@acme.test"}]
        assert ann["addresses"] == ["Ann Lee <ann@acme.test>"]
        shown = await execute(lsp.ExecuteCommandParams(command="contactsbook.show", arguments=["pepe@home.example"]))
        assert shown["name"] == "José Ñúñez" and len(shown["emails"]) == 2 and shown["phones"][0]["value"] == "+1 555 123 4567"
        added = await execute(lsp.ExecuteCommandParams(command="contactsbook.addAddress", arguments=["Max Mustermann <max@example.org>"]))
        assert added["added"][0]["name"] == "Max Mustermann"
        again = await execute(lsp.ExecuteCommandParams(command="contactsbook.addAddress", arguments=[{"email": "MAX@example.org"}]))
        assert again["added"] == [] and again["known"] == ["MAX@example.org"]
        # A search right after an add: no screen to be on.
        found = await execute(lsp.ExecuteCommandParams(command="contactsbook.search", arguments=["max", 5]))
        assert [c["name"] for c in found["contacts"]] == ["Max Mustermann"]
        await stop(client)
    run(body)


@pytest.mark.parametrize("encoding", [None, lsp.PositionEncodingKind.Utf8])
def test_positions_count_in_the_agreed_encoding_past_the_bmp(tmp_path, book, encoding):
    def units(text):
        return len(text.encode("utf-8")) if encoding == lsp.PositionEncodingKind.Utf8 else len(text.encode("utf-16-le")) // 2

    async def body():
        client, result = await start(tmp_path, book, encodings=[encoding] if encoding else None)
        assert result.capabilities.position_encoding == (encoding or lsp.PositionEncodingKind.Utf16)
        head = 'To: "😀 Fan 𝄞" <fan@example.org>, '
        published = await open_draft(client, head + "j\n\n")
        unknown = [d for d in published.diagnostics if d.code == "unknown-address"]
        assert [(d.range.start.character, d.range.end.character) for d in unknown] == [(units("To: "), units(head) - 2)]
        # An incremental edit at a position past the astral characters.
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=lsp.Position(line=0, character=units(head + "j")),
                                end=lsp.Position(line=0, character=units(head + "j"))), text="os")]))
        result = await complete(client, 0, units(head + "jos"))
        edit = result.items[0].text_edit
        assert edit.new_text == "José Ñúñez <jose@example.org>"
        assert (edit.range.start.character, edit.range.end.character) == (units(head), units(head + "jos"))
        hover = await client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=URI), position=lsp.Position(line=0, character=units('To: "😀 F'))))
        assert hover.contents.value == "`fan@example.org` is not in your contacts"
        await stop(client)
    run(body)


# Raw frames: what a library client cannot send.

def raw_session(tmp_path, db, messages, chunks=None):
    data = b"".join(frame(m, "content-length") for m in messages)
    done = subprocess.run([binary(), "--lsp", "--db", str(db)], input=data, capture_output=True,
                          env=isolated_env(tmp_path), timeout=TIMEOUT)
    return done.returncode, parse_frames(done.stdout, "content-length")


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}


def test_requests_before_initialize_are_refused_and_exit_without_shutdown_fails(tmp_path, book):
    status, frames = raw_session(tmp_path, book, [
        {"jsonrpc": "2.0", "id": 0, "method": "textDocument/hover",
         "params": {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}},
        INIT, {"jsonrpc": "2.0", "method": "exit"}])
    assert frames[0] == {"jsonrpc": "2.0", "id": 0, "error": {"code": -32002, "message": "server not initialized: send initialize first"}}
    assert frames[1]["id"] == 1 and "capabilities" in frames[1]["result"]
    assert status == 1


def test_a_request_cancelled_in_the_same_read_is_answered_request_cancelled(tmp_path, book):
    status, frames = raw_session(tmp_path, book, [
        INIT, {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": {"textDocument": {"uri": URI, "languageId": "mail", "version": 1, "text": "To: jos\n"}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion",
         "params": {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 7}}},
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/completion",
         "params": {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 7}}},
        {"jsonrpc": "2.0", "id": 4, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}])
    responses = {f["id"]: f for f in frames if "id" in f}
    assert responses[2]["error"]["code"] == -32800
    assert responses[3]["result"]["items"][0]["label"] == "José Ñúñez <jose@example.org>"
    assert responses[4]["result"] is None
    assert status == 0
    # After shutdown, stdout held frames only (parse_frames is strict) and diagnostics came first.
    assert frames[1]["method"] == "textDocument/publishDiagnostics"


def test_shutdown_and_exit_with_null_params_as_eglot_sends_them(tmp_path, book):
    # Emacs 28's eglot 1.9 sends `"params": null` (strict --rpc refuses it; --lsp reads it as none).
    status, frames = raw_session(tmp_path, book, [
        INIT, {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None}])
    assert frames[1] == {"jsonrpc": "2.0", "id": 2, "result": None}
    assert status == 0


def test_requests_after_shutdown_are_invalid(tmp_path, book):
    status, frames = raw_session(tmp_path, book, [
        INIT, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
         "params": {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}},
        {"jsonrpc": "2.0", "method": "exit"}])
    assert frames[2]["error"]["code"] == -32600
    assert status == 0


def test_lsp_excludes_the_other_protocols(tmp_path, book):
    done = subprocess.run([binary(), "--lsp", "--mcp", "--db", str(book)], capture_output=True, text=True,
                          env=isolated_env(tmp_path), timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode != 0 and "--lsp and --mcp exclude each other" in done.stderr


def test_bad_params_get_errors_and_the_server_goes_on(tmp_path, book):
    def request(id, method, params=None):
        return {"jsonrpc": "2.0", "id": id, "method": method, **({"params": params} if params is not None else {})}
    cases = [
        ("textDocument/completion", {"textDocument": {"uri": URI}}, -32602),
        ("textDocument/completion", {"textDocument": {"uri": URI}, "position": {"line": -1, "character": 0}}, -32602),
        ("textDocument/completion", [1, 2], -32602),
        ("textDocument/hover", {"textDocument": {"uri": "file:///not/open"}, "position": {"line": 0, "character": 0}}, -32602),
        ("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": {"start": {}}}, -32602),
        ("workspace/executeCommand", {"command": "contactsbook.nothing"}, -32602),
        ("workspace/executeCommand", {"command": "contactsbook.addAddress", "arguments": ["not an address"]}, -32602),
        ("workspace/executeCommand", {"command": "contactsbook.addAddress", "arguments": [{"email": 3}]}, -32602),
        ("workspace/executeCommand", {"command": "contactsbook.search", "arguments": ["x", 0]}, -32602),
        ("workspace/executeCommand", {"command": "contactsbook.show", "arguments": ["nobody at all"]}, -32803),
        ("textDocument/definition", {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}, -32601),
    ]
    messages = [INIT, {"jsonrpc": "2.0", "method": "initialized", "params": {}},
                {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                 "params": {"textDocument": {"uri": URI, "languageId": "mail", "version": 1, "text": "To: jos\n"}}},
                # Broken notifications are dropped; the document stays as it was.
                {"jsonrpc": "2.0", "method": "textDocument/didChange",
                 "params": {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"range": {}, "text": "x"}]}},
                {"jsonrpc": "2.0", "method": "textDocument/didChange",
                 "params": {"textDocument": {"uri": "file:///other", "version": 2}, "contentChanges": []}},
                {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 7}}]
    messages += [request(10 + index, method, params) for index, (method, params, _) in enumerate(cases)]
    messages += [request(99, "textDocument/completion", {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 7}}),
                 request(100, "shutdown"), {"jsonrpc": "2.0", "method": "exit"}]
    status, frames = raw_session(tmp_path, book, messages)
    responses = {f["id"]: f for f in frames if "id" in f}
    for index, (method, params, code) in enumerate(cases):
        assert responses[10 + index]["error"]["code"] == code, (method, params, responses[10 + index])
    assert responses[99]["result"]["items"][0]["label"] == "José Ñúñez <jose@example.org>"
    assert status == 0


def test_completion_offers_the_book_then_the_organisations_directory(tmp_path, book, ldap_directory):
    # The session's directory of 10,000 people (conftest.people_directory) holds 25 Ann Lees
    # (Lee, Lee1 ... Lee24); the book two.
    contactsbook(tmp_path, book, "directory", "add", "corp", ldap_directory.url, "--plaintext")

    async def body():
        client, _ = await start(tmp_path, book)
        line = "To: Ann Lee <ann@acme.test>, ann lee"
        await open_draft(client, line + "\nSubject: hi\n\nbody\n")
        result = await complete(client, 0, len(line))
        labels = [item.label for item in result.items]
        assert labels[:2] == ["Ann Lee <ann@acme.test>", '"Ann B. Lee" <annb@lee.example>'], labels
        directory = result.items[2:]
        assert sorted(item.label for item in directory) == sorted(
            f"Ann Lee{r or ''} <p{400 * r}@corp.example.org>" for r in range(25))
        assert {item.detail for item in directory} == {"corp directory · Example Corp"}
        # Taking one replaces what was typed, as a book's address would.
        (chosen,) = [item for item in directory if item.label == "Ann Lee <p0@corp.example.org>"]
        edit = chosen.text_edit
        assert edit.new_text == "Ann Lee <p0@corp.example.org>"
        assert (edit.range.start.character, edit.range.end.character) == (line.index("ann lee"), len(line))
        await stop(client)
    run(body)
