"""The built executable answers a piped command; the other Python suites build on this."""
import os
import subprocess


def test_help_lists_the_list_commands(tmp_path):
    result = subprocess.run(
        [os.environ["CONTACTSBOOK_BIN"], "--db", ":memory:"],
        input="help\n", capture_output=True, text=True, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    assert "search TEXT..." in result.stdout
    assert result.stderr == ""
