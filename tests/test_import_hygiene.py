"""The core is headless: importing every non-UI module must not load Textual (DESIGN.md house style;
after tconbeer/harlequin tests/unit_tests/test_import_hygiene.py)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import advisor


def _non_ui_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(advisor.__path__, prefix="advisor."):
        if info.name == "advisor.tui" or info.name.startswith("advisor.tui."):
            continue
        names.append(info.name)
    return names


def test_non_ui_modules_exist() -> None:
    names = _non_ui_modules()
    assert "advisor.cli" in names and "advisor.models" in names


def test_no_textual_outside_tui() -> None:
    names = _non_ui_modules()
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(len(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0", out.stdout + out.stderr


def test_estimate_path_imports_neither_textual_nor_rules() -> None:
    code = (
        "import sys\n"
        "from advisor.cli import build_parser\n"
        "build_parser()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'durable', 'rules')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
