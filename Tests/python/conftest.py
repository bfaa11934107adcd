import pytest

from carddav_servers import Server
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


@pytest.fixture(params=["radicale", "xandikos"])
def carddav_server(request, tmp_path):
    """A real CardDAV server (Radicale with a password, Xandikos without) on a free port."""
    server = Server(request.param, tmp_path)
    yield server
    server.stop()


@pytest.fixture
def radicale(tmp_path):
    """Radicale alone, for what needs a password (a wrong one) or a server to stop."""
    server = Server("radicale", tmp_path)
    yield server
    server.stop()
