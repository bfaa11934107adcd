"""End to end over pipes: `contactsbook --rpc` driven through a whole flow, in both framings."""
import pytest

FRAMINGS = ["content-length", "ndjson"]


def stack_ids(result):
    return [entry["scene"] for entry in result["stack"]]


def kinds(result):
    return [entry["kind"] for entry in result["displayed"]]


def add_contact(rpc, given, family, email):
    rpc.request("contacts/add")
    rpc.request("form/given", {"value": given})
    rpc.request("form/family", {"value": family})
    rpc.request("form/email", {"label": "work", "value": email})
    return rpc.request("form/save")


@pytest.mark.parametrize("framing", FRAMINGS)
def test_a_whole_flow_search_show_edit_save_back(spawn_rpc, framing):
    rpc = spawn_rpc(framing)
    # initialize, initialized
    notes, response = rpc.request("initialize", {"clientInfo": {"name": "pytest"}, "capabilities": {}})
    assert notes == []
    result = response["result"]
    assert result["serverInfo"]["name"] == "contactsbook"
    assert result["protocolVersion"] == "1.7"
    assert result["capabilities"]["framing"] == ("contentLength" if framing == "content-length" else "newlineDelimited")
    assert result["capabilities"]["progress"] is True
    assert [scene["id"] for scene in result["scenes"]] == ["contacts", "contact", "form"]
    assert "contacts/search" in result["scenes"][0]["methods"]
    rpc.notify("initialized", {})

    # two contacts, added through the form
    for given, family, email in [("Ann", "Lee", "ann@example.org"), ("Bob", "Stone", "bob@example.org")]:
        notes, response = add_contact(rpc, given, family, email)
        assert "result" in response, response
        assert stack_ids(response["result"]) == ["contacts"]

    # search
    notes, response = rpc.request("contacts/search", {"text": "lee"})
    assert notes == []
    listing = response["result"]["displayed"][0]
    assert listing["kind"] == "contactList"
    assert [row["name"] for row in listing["value"]["rows"]] == ["Ann Lee"]
    assert listing["value"]["total"] == 1

    # show: the result carries the detail that was pushed
    notes, response = rpc.request("contacts/show", {"contact": "ann lee"})
    result = response["result"]
    assert kinds(result) == ["contactDetail"]
    detail = result["displayed"][0]["value"]
    assert detail["name"] == "Ann Lee"
    assert result["routes"] == [{"route": "push", "scene": "contact"}]
    assert stack_ids(result) == ["contacts", "contact"]
    assert [n["method"] for n in notes] == ["session/stackChanged"]
    assert notes[0]["params"]["stack"] == result["stack"]

    # edit
    notes, response = rpc.request("contact/edit")
    assert stack_ids(response["result"]) == ["contacts", "contact", "form"]

    # a save with two invalid fields: -32010 with the details per field, nothing saved
    rpc.request("form/birthday", {"value": "1990-13-45"})
    rpc.request("form/email", {"label": "home", "value": "not-an-email"})
    notes, response = rpc.request("form/save")
    error = response["error"]
    assert error["code"] == -32010
    assert error["data"]["code"] == "validation_failed"
    details = error["data"]["details"]
    assert set(details) == {"birthday", "email 2"}
    assert "YYYY-MM-DD" in details["birthday"]
    assert "email" in details["email 2"]
    assert stack_ids(error["data"]) == ["contacts", "contact", "form"]
    assert [n["method"] for n in notes] == ["session/message"]
    assert notes[0]["params"]["kind"] == "error"
    assert notes[0]["params"]["details"] == details

    # fix it, then a good save: data change, message, stack change, then the response
    rpc.request("form/clear", {"field": "birthday"})
    rpc.request("form/remove", {"kind": "email", "number": 2})
    rpc.request("form/organization", {"value": "Acme"})
    notes, response = rpc.request("form/save")
    result = response["result"]
    assert [n["method"] for n in notes] == ["session/dataChanged", "session/message", "session/stackChanged"]
    assert notes[0]["params"] == {"topic": "contacts", "kind": "updated", "ids": [str(detail["id"])], "external": False}
    assert notes[1]["params"]["kind"] == "success"
    assert stack_ids(result) == ["contacts", "contact"]
    assert result["routes"] == [{"route": "pop", "scene": "form"}]

    # the detail, as stored now
    notes, response = rpc.request("contact/show")
    fields = {f["label"]: f["value"] for f in response["result"]["displayed"][0]["value"]["fields"]}
    assert fields.get("Organization") == "Acme", fields

    # back
    notes, response = rpc.request("session/back")
    assert response["result"]["routes"] == [{"route": "pop", "scene": "contact"}]
    assert stack_ids(response["result"]) == ["contacts"]

    # shutdown, exit: status 0, nothing more on stdout
    notes, response = rpc.request("shutdown")
    assert response["result"] is None
    rpc.notify("exit")
    assert rpc.wait() == 0
    assert rpc.messages.get(timeout=1) is None  # the reader saw the end of stdout


@pytest.mark.parametrize("framing", FRAMINGS)
def test_ids_are_echoed_with_their_type(spawn_rpc, framing):
    rpc = spawn_rpc(framing)
    rpc.request("initialize", {})
    _, response = rpc.request("session/stack", id="abc")
    assert response["id"] == "abc"
    _, response = rpc.request("session/stack", id=42)
    assert response["id"] == 42 and isinstance(response["id"], int)


@pytest.mark.parametrize("framing", FRAMINGS)
def test_exit_on_end_of_input_leaves_no_process(spawn_rpc, framing):
    rpc = spawn_rpc(framing)
    rpc.request("initialize", {})
    assert rpc.close_and_wait() == 0
    assert rpc.proc.poll() == 0
    assert rpc.messages.get(timeout=1) is None


def test_exit_without_shutdown_is_status_1(spawn_rpc):
    rpc = spawn_rpc()
    rpc.request("initialize", {})
    rpc.notify("exit")
    assert rpc.wait() == 1


def test_data_persists_in_the_db_file_across_processes(spawn_rpc, tmp_path):
    first = spawn_rpc("ndjson")
    add_contact(first, "Ann", "Lee", "ann@example.org")
    assert first.close_and_wait() == 0
    second = spawn_rpc("ndjson", db=first.db)
    _, response = second.request("contacts/list")
    assert [row["name"] for row in response["result"]["displayed"][0]["value"]["rows"]] == ["Ann Lee"]
    assert second.close_and_wait() == 0


@pytest.mark.parametrize("framing", FRAMINGS)
def test_show_by_the_rows_numeric_id_gives_the_structured_contact(spawn_rpc, framing):
    rpc = spawn_rpc(framing)
    rpc.request("initialize", {"capabilities": {}})
    rpc.notify("initialized", {})
    add_contact(rpc, "ann", "lee", "ann@example.org")
    _, response = rpc.request("contacts/list")
    row = response["result"]["displayed"][0]["value"]["rows"][0]
    assert isinstance(row["id"], int)

    # the row's id, as the number it is
    _, response = rpc.request("contacts/show", {"contact": row["id"]})
    detail = response["result"]["displayed"][0]["value"]
    contact = detail["contact"]
    assert contact["id"] == row["id"] == detail["id"]
    assert contact["uid"] == detail["uid"] and contact["version"] == detail["version"] == 1
    # as typed, where the display capitalises; labelled values without display labels
    assert (contact["givenName"], contact["familyName"]) == ("ann", "lee")
    assert {"label": "Email (work)", "value": "ann@example.org"} in detail["fields"]
    assert contact["emails"] == [{"label": "work", "value": "ann@example.org"}]
    assert contact["phones"] == [] and contact["addresses"] == [] and contact["tags"] == []
    assert "birthday" not in contact
    assert contact["created"].endswith("Z") and contact["updated"] == contact["created"]

    # bad types are refused, naming both accepted types
    rpc.request("session/back")
    _, response = rpc.request("contacts/show", {"contact": 1.5})
    assert response["error"]["code"] == -32602
    assert response["error"]["data"]["expected"] == "a string or an integer"
    _, response = rpc.request("contacts/delete", {"contact": 99})
    assert response["error"]["code"] == -32011


@pytest.mark.parametrize("framing", FRAMINGS)
def test_a_plugin_needs_no_scene_knowledge_and_rows_carry_every_address(spawn_rpc, framing):
    """An editor plugin makes calls in any order: each names its scene and runs there, the
    screens above it left as `back` leaves them (a form cancelled out loud)."""
    rpc = spawn_rpc(framing)
    rpc.request("initialize", {"clientInfo": {"name": "plugin"}})
    rpc.request("contacts/add")
    rpc.request("form/given", {"value": "José"})
    rpc.request("form/family", {"value": "Ñúñez"})
    rpc.request("form/email", {"label": "work", "value": "jose@correo.es"})
    rpc.request("form/email", {"label": "home", "value": "pepe@casa.example"})
    rpc.request("form/phone", {"label": "mobile", "value": "+34 612 345 678"})
    rpc.request("form/save")

    # the form left open by a plugin that went on: a search cancels it, saying so
    rpc.request("contacts/add")
    rpc.request("form/given", {"value": "half typed"})
    notes, response = rpc.request("contacts/search", {"text": "jos"})
    result = response["result"]
    assert result["routes"] == [{"route": "pop", "scene": "form"}]
    assert stack_ids(result) == ["contacts"]
    assert kinds(result) == ["message", "contactList"]
    assert result["displayed"][0]["value"]["text"].startswith("Cancelled")
    assert [n["method"] for n in notes] == ["session/message", "session/stackChanged"]
    row = result["displayed"][1]["value"]["rows"][0]
    assert row["name"] == "José Ñúñez"
    assert row["email"] == "jose@correo.es"
    assert row["emails"] == [{"label": "work", "value": "jose@correo.es"}, {"label": "home", "value": "pepe@casa.example"}]
    assert row["phones"] == [{"label": "mobile", "value": row["phone"]}] and row["phone"]
    assert rpc.request("session/stack")[1]["result"]["stack"] == [{"scene": "contacts", "title": result["stack"][0]["title"]}]

    # from a contact's form, another contact's detail: edit form and detail are left
    rpc.request("contacts/show", {"contact": row["id"]})
    rpc.request("contact/edit")
    _, response = rpc.request("contacts/show", {"contact": row["id"]})
    result = response["result"]
    assert result["routes"] == [{"route": "pop", "scene": "form"}, {"route": "pop", "scene": "contact"},
                                {"route": "push", "scene": "contact"}]
    assert stack_ids(result) == ["contacts", "contact"]
    assert kinds(result)[-1] == "contactDetail"
    # a scene that is not open cannot be reached
    _, response = rpc.request("form/save")
    assert response["error"]["code"] == -32013
    assert rpc.close_and_wait() == 0
