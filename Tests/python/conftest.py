import pytest

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
