"""The Protocol.md recipes (docs/recipes/) run against the built executable and print the same
transcript: Neovim's vim.lsp.rpc, Emacs's jsonrpc.el, and plain Python. The VS Code recipe needs
vscode-jsonrpc from npm, which cannot be reached here, so only its syntax is checked."""
import pathlib
import shutil
import subprocess

import pytest

from rpc_client import binary, isolated_env

RECIPES = pathlib.Path(__file__).resolve().parents[2] / "docs" / "recipes"
LIMIT = 120  # seconds; an upper bound only (editors start slowly on a busy machine)

EXPECTED = [
    "stack: contacts > form",
    "message: error: not saved: 1 field is not valid",
    "save refused: -32010",
    "message: success: Added Ann Lee as #1",
    "stack: contacts",
    "found: 1 Ann Lee ann@example.org",
    "stack: contacts > contact",
    "detail: Ann Lee",
    "stack: contacts",
    "exit: 0",
]


def run_recipe(tmp_path, command):
    env = isolated_env(tmp_path)
    env["CONTACTSBOOK_BIN"] = binary()
    env["CONTACTSBOOK_DB"] = str(tmp_path / "book.sqlite")
    # The recipes open a book that exists (an editor never makes one by mistake): make it first.
    subprocess.run([binary(), "--db", env["CONTACTSBOOK_DB"], "--create"], input="", check=True,
                   capture_output=True, env=env, timeout=LIMIT)
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=LIMIT,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result.stdout.splitlines()


def check_transcript(lines):
    assert lines[0].startswith("server: contactsbook "), lines
    assert lines[0].endswith(", protocol 1.4"), lines
    body = lines[1:]
    assert len(body) == len(EXPECTED), lines
    for got, expected in zip(body, EXPECTED):
        if expected.startswith("save refused"):
            assert got.startswith(expected) and "email 1" in got and "is not an email address" in got, got
        else:
            assert got == expected


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed (scripts/setup installs it)")
def test_neovim_recipe(tmp_path):
    check_transcript(run_recipe(tmp_path, ["nvim", "--headless", "-u", "NONE", "-i", "NONE",
                                           "-c", f"luafile {RECIPES / 'neovim.lua'}"]))


@pytest.mark.skipif(shutil.which("emacs") is None, reason="Emacs is not installed (scripts/setup installs emacs-nox)")
def test_emacs_recipe(tmp_path):
    check_transcript(run_recipe(tmp_path, ["emacs", "--batch", "-Q", "-l", str(RECIPES / "emacs.el")]))


def test_python_recipe(tmp_path):
    check_transcript(run_recipe(tmp_path, ["python3", str(RECIPES / "python_client.py")]))


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
def test_vscode_recipe_is_valid_javascript(tmp_path):
    # Syntax only: vscode-jsonrpc cannot be installed without the npm registry.
    subprocess.run(["node", "--check", str(RECIPES / "vscode.js")], check=True, timeout=LIMIT)
