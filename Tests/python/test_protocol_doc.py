"""Protocol.md stays true to the running build: the methods and notifications it documents are
exactly those `contactsbook --api-info` lists, and its error table has every code."""
import json
import pathlib
import re
import subprocess

from rpc_client import TIMEOUT, binary, isolated_env

PROTOCOL = (pathlib.Path(__file__).resolve().parents[2] / "Protocol.md").read_text()


def api_info(tmp_path):
    out = subprocess.run([binary(), "--api-info"], capture_output=True, check=True, env=isolated_env(tmp_path),
                         timeout=TIMEOUT).stdout
    return json.loads(out)


def section(title):
    start = PROTOCOL.index(f"## {title}")
    end = PROTOCOL.find("\n## ", start + 1)
    return PROTOCOL[start:end if end >= 0 else None]


def first_column_names(text):
    """The backticked names in the first column of the tables of a section."""
    return {match for match in re.findall(r"^\| `([^`]+)` \|", text, flags=re.MULTILINE)}


def test_contact_methods_section_lists_exactly_the_scene_methods(tmp_path):
    document = api_info(tmp_path)
    scene_methods = {m["name"] for m in document["methods"] if "scene" in m}
    assert first_column_names(section("10. Contact methods")) == scene_methods


def test_router_and_lifecycle_methods_are_documented(tmp_path):
    document = api_info(tmp_path)
    others = {m["name"] for m in document["methods"] if "scene" not in m}
    documented = first_column_names(section("5. Methods")) | first_column_names(section("4. Lifecycle"))
    assert others <= documented, others - documented
    assert documented - others <= {"initialized", "exit", "rpc.discover"}


def test_notifications_are_documented(tmp_path):
    document = api_info(tmp_path)
    server = {n["name"] for n in document["notifications"] if n.get("direction") == "server"}
    assert first_column_names(section("7. Notifications from the server")) == server
    for client in (n["name"] for n in document["notifications"] if n.get("direction") == "client"):
        assert f"`{client}`" in PROTOCOL, client


def test_every_error_code_is_in_the_error_table(tmp_path):
    document = api_info(tmp_path)
    table = section("6. Errors")
    documented = {int(code) for code in re.findall(r"^\| (-\d+) \|", table, flags=re.MULTILINE)}
    assert {e["code"] for e in document["errors"]} <= documented


def test_contact_detail_schema_is_described_and_documented(tmp_path):
    document = api_info(tmp_path)
    schema = document["viewModels"]["contactDetail"]
    record = schema["properties"]["contact"]
    documented = section("10. Contact methods")
    for member in record["properties"]:
        assert f'"{member}"' in documented, member
    show = next(m for m in document["methods"] if m["name"] == "contacts/show")
    assert show["params"]["properties"]["contact"]["type"] == ["string", "integer"]
