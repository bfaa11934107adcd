"""libcurl, libxml2 and libedit are loaded on first use (issue 32): the executable does not link
them, a `query` or a non-REPL session never maps them (libedit waits for the REPL), and a sync on a machine without one says which package to
install and fails as a request would, without crashing."""
import os
import re
import subprocess

from rpc_client import RpcProcess

BIN = os.environ["CONTACTSBOOK_BIN"]


def needed(binary):
    out = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True, check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def maps_foundation_xml():
    """A debug build links the toolchain's shared FoundationXML, which links libxml2 itself; a
    release build links Foundation statically and loads libxml2 on first use."""
    return "libFoundationXML.so" in needed(BIN)


def mapped(pid):
    with open(f"/proc/{pid}/maps") as maps:
        return {line.split()[-1].rsplit("/", 1)[-1] for line in maps if "/" in line}


def run(tmp_path, *args, env=(), commands=()):
    return subprocess.run(
        [BIN, *args, "--db", str(tmp_path / "book.sqlite"), "--create"],
        input="".join(c + "\n" for c in commands), capture_output=True, text=True, timeout=120,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", **dict(env)})


def test_the_executable_does_not_link_libcurl_or_libxml2():
    libraries = needed(BIN)
    assert libraries, "readelf found no NEEDED entry: not a dynamic executable?"
    assert not [name for name in libraries if name.startswith(("libcurl", "libxml2", "libedit"))], libraries


def test_a_query_maps_neither_library(tmp_path):
    run(tmp_path, commands=["add", "given Ann", "family Lee", "email work ann@example.org", "save"])
    # The loader names every library it opens; dlopen would too.
    result = subprocess.run([BIN, "query", "--db", str(tmp_path / "book.sqlite"), "ann@"],
                            capture_output=True, text=True, timeout=60,
                            env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LD_DEBUG": "files"})
    assert result.returncode == 0, result.stderr
    assert "ann@example.org" in result.stdout
    opened = set(re.findall(r"file=(\S+)\s+\[0\];\s+needed by", result.stderr))
    assert opened, "LD_DEBUG=files reported nothing"
    assert not [name for name in opened if name.startswith(("libcurl", "libedit", "libtinfo", "libbsd"))], opened
    if not maps_foundation_xml():
        assert not [name for name in opened if name.startswith(("libxml2", "libicu"))], opened


def test_a_json_rpc_session_maps_neither_library(tmp_path):
    rpc = RpcProcess(tmp_path)
    try:
        _, response = rpc.request("initialize", {})
        assert "result" in response, response
        libraries = mapped(rpc.proc.pid)
        assert [name for name in libraries if name.startswith("libc.so")], libraries
        assert not [name for name in libraries if name.startswith(("libcurl", "libedit", "libtinfo", "libbsd"))], libraries
        if not maps_foundation_xml():
            assert not [name for name in libraries if name.startswith(("libxml2", "libicu"))], libraries
    finally:
        rpc.kill()


def add_account(tmp_path, server):
    args = ["account", "add", "home", server.base, "--user", "alice"]
    if server.password_command:
        args += ["--password-command", server.password_command]
    result = run(tmp_path, *args)
    assert result.returncode == 0, result.stderr


def test_a_sync_without_libcurl_names_the_package_and_changes_nothing(tmp_path, radicale):
    add_account(tmp_path, radicale)
    run(tmp_path, commands=["add", "given Cy", "family Dee", "save"])
    # A library name that exists nowhere: what dlopen meets on a machine without libcurl4.
    result = run(tmp_path, "sync", env={"CONTACTSBOOK_TEST_LIBCURL": "libcurl-not-installed.so.4"})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "sync needs libcurl, which could not be loaded (libcurl-not-installed.so.4: cannot open shared object file" \
        in result.stderr
    assert "install the libcurl4 package" in result.stderr
    assert radicale.names() == []
    # The same book syncs once the library is there.
    assert run(tmp_path, "sync").returncode == 0
    assert len(radicale.names()) == 1


def test_a_sync_without_libxml2_names_the_package(tmp_path, radicale):
    add_account(tmp_path, radicale)
    result = run(tmp_path, "sync", env={"CONTACTSBOOK_TEST_LIBXML2": "libxml2-not-installed.so.2"})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "sync needs libxml2, which could not be loaded (libxml2-not-installed.so.2" in result.stderr
    assert "install the libxml2 package" in result.stderr
