"""ARCHITECTURE.md names only files and types that exist (scripts/check-architecture), and the
check catches a renamed type, a moved file and a missing member."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECK = ROOT / "scripts" / "check-architecture"


def check(doc):
    return subprocess.run([sys.executable, str(CHECK), str(doc)], capture_output=True, text=True, timeout=120)


def test_the_architecture_names_what_exists():
    result = check(ROOT / "ARCHITECTURE.md")
    assert result.returncode == 0, result.stdout
    assert "every file and type it names exists" in result.stdout


def test_a_name_the_code_lost_fails_the_check(tmp_path):
    doc = tmp_path / "ARCHITECTURE.md"
    doc.write_text("`ListContactsInteractor.fetchContacts` in `Scenes/ListContacts/`, `Session.run(_:reaching:)`.\n"
                   "Gone: `ListContactsToolsInteractor`, `Storage/SQLiteContactStore+Paging.swift`, "
                   "`SessionRunner.swift`, `ContactsWorker.fetchEverything`; not names: `UID`, `contacts/search`.\n")
    result = check(doc)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "ARCHITECTURE.md names `ContactsWorker.fetchEverything`: no member fetchEverything",
        "ARCHITECTURE.md names `ListContactsToolsInteractor`: no type ListContactsToolsInteractor",
        "ARCHITECTURE.md names `SessionRunner.swift`: no such file",
        "ARCHITECTURE.md names `Storage/SQLiteContactStore+Paging.swift`: no such path",
        "scripts/check-architecture: 4 names to fix (rename them in ARCHITECTURE.md with the code)",
    ]
