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


def _imports(path) -> set[str]:
    """Every module a source file imports, at module level or inside functions (absolute names)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_the_layers_import_downwards_only() -> None:
    """DESIGN.md's arrows: the pure dialogue imports no service, recommender, rules engine, report or UI;
    the report does not import the recommender; the calculator calls the planner, not the core's parts;
    the numeric core imports nothing of the layers above it."""
    from pathlib import Path

    root = Path(advisor.__file__).parent
    forbidden = {
        "conversation": ("advisor.recommend", "advisor.report", "advisor.rules_engine", "advisor.tui",
                         "advisor.consultation", "textual"),
        "core": ("advisor.recommend", "advisor.report", "advisor.rules_engine", "advisor.tui",
                 "advisor.consultation", "advisor.conversation", "advisor.knowledge", "textual"),
    }
    problems = []
    for folder, banned in forbidden.items():
        for path in sorted((root / folder).glob("*.py")):
            for name in _imports(path):
                if name.startswith(banned):
                    problems.append(f"{path.relative_to(root)} imports {name}")
    for name in _imports(root / "report.py"):
        if name.startswith("advisor.recommend"):
            problems.append(f"report.py imports {name}")
    for name in _imports(root / "commands" / "estimate.py"):
        if name.startswith(("advisor.core.memory", "advisor.core.compute", "advisor.core.power", "advisor.core.cost")):
            problems.append(f"commands/estimate.py imports {name}")
    assert not problems, "\n".join(problems)
