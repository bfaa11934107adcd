"""`python3 -m radicale`, its files not synced to disk: Radicale's `_filesystem_fsync`, which its own
tests turn off and only code may set. For a test's book of thousands of cards, which Radicale
caches card by card (a file and an fsync each: minutes on a loaded host) the first time it lists
them. Everything else is Radicale as it runs."""
import radicale.__main__ as main
from radicale import config

load = config.load


def load_unsynced(*args, **kwargs):
    configuration = load(*args, **kwargs)
    configuration.update({"storage": {"_filesystem_fsync": "False"}}, "tests", privileged=True)
    return configuration


config.load = load_unsynced
main.run()
