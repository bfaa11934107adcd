"""scripts/install end to end: the binary, a man page per command (generated from the command
declarations) and the bash, zsh and fish completions, under a PREFIX and a DESTDIR."""
import glob
import os
import pathlib
import subprocess

import pytest

from rpc_client import TIMEOUT, binary, isolated_env

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The tool ArgumentParser's generate-manual plugin builds (`swift package generate-manual`);
# without it the script runs the plugin itself (slower: it checks the debug build first).
TOOLS = glob.glob(str(ROOT / ".build" / "*" / "*" / "generate-manual-tool"))
PLUGIN_LIMIT = 900  # seconds; an upper bound only: the plugin may build its tool on a fresh machine


def install(tmp_path, **variables):
    manual = {"GENERATE_MANUAL": TOOLS[0]} if TOOLS else {"CONFIGURATION": "debug"}
    env = {**isolated_env(tmp_path), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "CONTACTSBOOK_BIN": binary(),
           **manual, **variables}
    return subprocess.run([str(ROOT / "scripts" / "install")], capture_output=True, text=True, env=env,
                          timeout=PLUGIN_LIMIT, cwd=tmp_path)


def test_install_through_the_plugin_makes_the_same_pages(tmp_path):
    result = install(tmp_path, PREFIX=str(tmp_path / "p"), GENERATE_MANUAL="", CONFIGURATION="debug")
    assert result.returncode == 0, result.stderr
    pages = sorted(path.name for path in (tmp_path / "p" / "share" / "man" / "man1").iterdir())
    assert "contactsbook.1" in pages and "contactsbook.export.1" in pages and "contactsbook.add.1" in pages, pages


def test_install_puts_the_binary_man_pages_and_completions_under_the_prefix(tmp_path):
    prefix = tmp_path / "prefix"
    result = install(tmp_path, PREFIX=str(prefix))
    assert result.returncode == 0, result.stderr
    installed = prefix / "bin" / "contactsbook"
    assert os.access(installed, os.X_OK)
    version = subprocess.run([str(installed), "--version"], capture_output=True, text=True, timeout=TIMEOUT)
    assert version.returncode == 0 and version.stdout.strip()
    pages = sorted(path.name for path in (prefix / "share" / "man" / "man1").iterdir())
    for command in ("contactsbook.1", "contactsbook.query.1", "contactsbook.import.1", "contactsbook.session.1"):
        assert command in pages, pages
    page = (prefix / "share" / "man" / "man1" / "contactsbook.query.1").read_text()
    assert page.startswith(".ds") or ".Dt" in page or ".TH" in page, page[:200]
    assert "Fl -format" in page and "aerc" in page  # from the declaration, not written by hand
    rendered = subprocess.run(["man", "-l", str(prefix / "share" / "man" / "man1" / "contactsbook.1")], capture_output=True,
                              text=True, env={**isolated_env(tmp_path), "MANPAGER": "cat", "MANWIDTH": "80"}, timeout=TIMEOUT)
    assert rendered.returncode == 0 and "A contacts book for the terminal" in rendered.stdout, rendered.stderr
    assert "_contactsbook" in (prefix / "share" / "bash-completion" / "completions" / "contactsbook").read_text()
    assert (prefix / "share" / "zsh" / "site-functions" / "_contactsbook").read_text().startswith("#compdef contactsbook")
    assert "complete -c 'contactsbook'" in (prefix / "share" / "fish" / "vendor_completions.d" / "contactsbook.fish").read_text()
    assert f"Installed {installed}" in result.stdout


def test_install_stages_under_destdir(tmp_path):
    result = install(tmp_path, PREFIX="/usr", DESTDIR=str(tmp_path / "stage"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "stage" / "usr" / "bin" / "contactsbook").exists()
    assert (tmp_path / "stage" / "usr" / "share" / "man" / "man1" / "contactsbook.1").exists()


def test_install_without_a_binary_says_so(tmp_path):
    result = install(tmp_path, PREFIX=str(tmp_path / "p"), CONTACTSBOOK_BIN=str(tmp_path / "missing"),
                     GENERATE_MANUAL="/bin/false")
    assert result.returncode == 1
    assert "no executable at" in result.stderr
    assert not (tmp_path / "p" / "bin" / "contactsbook").exists()
