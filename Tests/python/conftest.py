import pytest

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
