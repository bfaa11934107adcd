"""The Protocol.md recipes (docs/recipes/) run against the built executable and print the same
transcript: Neovim's vim.lsp.rpc, Emacs's jsonrpc.el, and plain Python. Each uses a temporary book
unless CONTACTSBOOK_DB names one (which it leaves as it was), and ends with a message and status 1
on any failure instead of waiting. The VS Code recipe needs
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
    "found: Ann Lee ann@example.org",
    "stack: contacts > contact",
    "detail: Ann Lee",
    "stack: contacts",
    "message: success: Undid: added Ann Lee",
    "exit: 0",
]

NVIM = ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {RECIPES / 'neovim.lua'}"]
EMACS = ["emacs", "--batch", "-Q", "-l", str(RECIPES / "emacs.el")]
PYTHON = ["python3", str(RECIPES / "python_client.py")]
needs_nvim = pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed (scripts/setup installs it)")
needs_emacs = pytest.mark.skipif(shutil.which("emacs") is None, reason="Emacs is not installed (scripts/setup installs emacs-nox)")
RECIPE_COMMANDS = [pytest.param(NVIM, marks=needs_nvim, id="neovim"), pytest.param(EMACS, marks=needs_emacs, id="emacs"),
                   pytest.param(PYTHON, id="python")]


def recipe_env(tmp_path, **variables):
    env = isolated_env(tmp_path)
    env["CONTACTSBOOK_BIN"] = binary()
    env.update(variables)
    return env


def run_recipe(tmp_path, command, **variables):
    """Runs a recipe with its own temporary book (no CONTACTSBOOK_DB), from a folder of its own."""
    result = subprocess.run(command, capture_output=True, text=True, env=recipe_env(tmp_path, **variables), timeout=LIMIT,
                            stdin=subprocess.DEVNULL, cwd=tmp_path)
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result.stdout.splitlines()


def check_transcript(lines):
    assert lines[0].startswith("server: contactsbook "), lines
    assert lines[0].endswith(", protocol 1.7"), lines
    body = lines[1:]
    assert len(body) == len(EXPECTED), lines
    for got, expected in zip(body, EXPECTED):
        if expected.startswith("save refused"):
            assert got.startswith(expected) and "email 1" in got and "is not an email address" in got, got
        else:
            assert got == expected


def listing(tmp_path, db):
    return subprocess.run([binary(), "list", "--db", db], capture_output=True, text=True, env=isolated_env(tmp_path),
                          timeout=LIMIT).stdout


@pytest.mark.parametrize("command", RECIPE_COMMANDS)
def test_a_book_it_is_given_is_left_as_it_was(tmp_path, command):
    db = str(tmp_path / "mine.sqlite")
    subprocess.run([binary(), "--db", db, "--create"], input="add\ngiven Olga\nfamily Brown\nsave\n", check=True,
                   capture_output=True, text=True, env=isolated_env(tmp_path), timeout=LIMIT)
    before = listing(tmp_path, db)
    lines = run_recipe(tmp_path, command, CONTACTSBOOK_DB=db)
    assert "found: Ann Lee ann@example.org" in lines and lines[-1] == "exit: 0"
    assert listing(tmp_path, db) == before and "Olga Brown" in before


@pytest.mark.parametrize("command", RECIPE_COMMANDS)
def test_a_book_already_holding_the_example_contact(tmp_path, command):
    # Issue 28: the Emacs recipe once ended in a Lisp backtrace (exit 255) here, its
    # "show ann lee" matching two contacts. Each recipe names its own contact by its number.
    db = str(tmp_path / "mine.sqlite")
    subprocess.run([binary(), "--db", db, "--create"],
                   input="add\ngiven Ann\nfamily Lee\nemail work ann@example.org\nsave\n", check=True,
                   capture_output=True, text=True, env=isolated_env(tmp_path), timeout=LIMIT)
    before = listing(tmp_path, db)
    result = subprocess.run(command, capture_output=True, text=True, env=recipe_env(tmp_path, CONTACTSBOOK_DB=db),
                            timeout=LIMIT, stdin=subprocess.DEVNULL, cwd=tmp_path)
    assert result.returncode == 0, result
    lines = result.stdout.splitlines()
    assert lines.count("found: Ann Lee ann@example.org") == 1 and "detail: Ann Lee" in lines, lines
    assert "Debugger entered" not in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert listing(tmp_path, db) == before


@pytest.mark.parametrize("command", RECIPE_COMMANDS)
@pytest.mark.parametrize("variables, says", [
    ({"CONTACTSBOOK_BIN": "/nonexistent/contactsbook"}, "/nonexistent/contactsbook"),
    ({"CONTACTSBOOK_DB": "/nonexistent/book.sqlite"}, "there is no book at /nonexistent/book.sqlite"),
], ids=["missing-binary", "missing-book"])
def test_a_failure_ends_the_recipe_with_a_message(tmp_path, command, variables, says):
    # The timeout only bounds a broken recipe: one that fails cleanly ends in well under a second.
    result = subprocess.run(command, capture_output=True, text=True, env=recipe_env(tmp_path, **variables), timeout=LIMIT,
                            stdin=subprocess.DEVNULL, cwd=tmp_path)
    assert result.returncode == 1, result
    assert "recipe failed: " in result.stderr and says.lower() in result.stderr.lower(), result.stderr
    assert not (tmp_path / "nonexistent").exists()


@needs_nvim
def test_neovim_recipe(tmp_path):
    check_transcript(run_recipe(tmp_path, NVIM))


def test_neovim_recipe_never_calls_terminate():
    # Neovim 0.7's vim.lsp.rpc client has no terminate(): calling it in the error path hung the recipe.
    assert "terminate()" not in "\n".join(line for line in (RECIPES / "neovim.lua").read_text().splitlines()
                                          if not line.strip().startswith("--"))


@needs_emacs
def test_emacs_recipe(tmp_path):
    check_transcript(run_recipe(tmp_path, EMACS))


def test_python_recipe(tmp_path):
    check_transcript(run_recipe(tmp_path, PYTHON))


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
def test_vscode_recipe_is_valid_javascript(tmp_path):
    # Syntax only: vscode-jsonrpc cannot be installed without the npm registry.
    subprocess.run(["node", "--check", str(RECIPES / "vscode.js")], check=True, timeout=LIMIT)
