"""`contactsbook --help` on a terminal: rendered at the width the terminal reports, exactly as
ArgumentParser's own parse renders it (`--log-level warning --help`), whether or not that width
is the 80 columns whose text the binary keeps ready (scripts/regenerate-help)."""

import pexpect
import pytest

from rpc_client import TIMEOUT, binary, isolated_env


def on_terminal(arguments, columns, env):
    child = pexpect.spawn(binary(), arguments, env=env, dimensions=(40, columns), timeout=TIMEOUT)
    output = child.read()
    child.close()
    assert child.exitstatus == 0, output
    return output


def test_help_on_a_terminal_is_the_trees_text_at_its_width(tmp_path):
    env = isolated_env(tmp_path)
    trees = {}
    for columns in [60, 80, 132]:
        trees[columns] = on_terminal(["--log-level", "warning", "--help"], columns, env)
        assert trees[columns].startswith(b"OVERVIEW: A contacts book")
        for flag in ["--help", "-h"]:
            assert on_terminal([flag], columns, env) == trees[columns], (flag, columns)
    # The width is the terminal's: three widths, three renderings.
    assert len(set(trees.values())) == 3


def test_columns_in_the_environment_wins_over_the_terminal(tmp_path):
    env = isolated_env(tmp_path)
    at_80 = on_terminal(["--log-level", "warning", "--help"], 80, env)
    env["COLUMNS"] = "80"
    assert on_terminal(["--log-level", "warning", "--help"], 132, env) == at_80
    assert on_terminal(["--help"], 132, env) == at_80
