import pytest

import ldap_server
from carddav_servers import Server, sabredav_missing
from rpc_client import RpcProcess


@pytest.fixture
def spawn_rpc(tmp_path):
    """Starts `contactsbook --rpc` processes for a test and makes sure none outlives it."""
    started = []

    def spawn(framing="content-length", **kwargs):
        process = RpcProcess(tmp_path, framing=framing, **kwargs)
        started.append(process)
        return process

    yield spawn
    for process in started:
        process.kill()


@pytest.fixture(params=["radicale", "xandikos", "sabredav", "sabredav-digest"])
def carddav_server(request, tmp_path):
    """A real CardDAV server (Radicale with a password, Xandikos without, SabreDAV with Basic or
    Digest) on a free port."""
    if request.param.startswith("sabredav") and sabredav_missing():
        pytest.skip(sabredav_missing())
    server = Server(request.param, tmp_path)
    yield server
    server.stop()


@pytest.fixture
def radicale(tmp_path):
    """Radicale alone, for what needs a password (a wrong one) or a server to stop."""
    server = Server("radicale", tmp_path)
    yield server
    server.stop()


@pytest.fixture(params=["sabredav", "sabredav-digest"])
def sabredav(request, tmp_path):
    """SabreDAV alone (Basic and Digest): its validator refuses cards, and it logs each request."""
    if sabredav_missing():
        pytest.skip(sabredav_missing())
    server = Server(request.param, tmp_path)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def people_directory(tmp_path_factory):
    """The organisation's directory of the issue (31): 10,000 generated people with Unicode names
    and one hostile entry, generated and loaded once per session (`ldap_server.Directory`)."""
    if ldap_server.missing():
        pytest.skip(ldap_server.missing())
    return ldap_server.Directory(tmp_path_factory.mktemp("ldap-data"), count=10_000, extra=ldap_server.HOSTILE)


@pytest.fixture(scope="session")
def ldap_directory(people_directory, tmp_path_factory):
    """slapd serving `people_directory`, one for the session: tests only read from it, and one that
    stops a server starts its own (`ldap_server.LDAPServer(tmp_path, directory=people_directory)`)."""
    server = ldap_server.LDAPServer(tmp_path_factory.mktemp("ldap"), directory=people_directory)
    yield server
    server.stop()
