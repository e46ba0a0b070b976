"""The core is headless: importing every non-UI module must not load Textual (DESIGN.md house style;
after tconbeer/harlequin tests/unit_tests/test_import_hygiene.py)."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import pytest

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


# The import budget of the light commands (issue #13): what each may not load, checked in a fresh
# process once the knowledge snapshot exists (the first run after a knowledge file changes validates
# it with pydantic; that is the snapshot's job, tested in tests/knowledge/test_snapshot.py).
_HEAVY = ("pydantic", "pydantic_core", "yaml", "jinja2", "durable", "textual", "rich")
_BUDGETS = [
    (["--version"], _HEAVY + ("argparse", "advisor.knowledge", "advisor.models")),
    (["estimate", "--model", "llama-3-8b", "--gpu", "a100-80gb", "--task", "lora", "--json"], _HEAVY),
    (["estimate", "--model", "qwen2.5-7b", "--task", "inference", "--batch", "8", "--context", "8192"], _HEAVY),
    (["gpus"], _HEAVY),
    (["models", "--json"], _HEAVY),
    (["--lang", "zh-Hant", "kb", "search", "記憶體不夠"], _HEAVY),
    (["recommend", "--help"], ("textual", "jinja2", "durable")),
]


@pytest.fixture(scope="module")
def snapshot_built() -> None:
    subprocess.run([sys.executable, "-m", "advisor.cli", "gpus"], capture_output=True, check=True, timeout=120)


@pytest.mark.parametrize(("argv", "banned"), _BUDGETS, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_light_commands_import_only_what_they_use(argv, banned, snapshot_built) -> None:
    code = (
        "import contextlib, io, json, sys\n"
        "from advisor.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        rc = main({argv!r})\n"
        "    except SystemExit as exc:\n"
        "        rc = exc.code\n"
        "print(json.dumps([rc, sorted(sys.modules)]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    rc, loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert rc == 0
    heavy = [m for m in loaded if m in banned or m.startswith(tuple(f"{b}." for b in banned))]
    assert heavy == [], f"{' '.join(argv)} imported {heavy[:8]}"
