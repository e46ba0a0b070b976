"""The validated knowledge snapshot (advisor/snapshot.py, issue #13): what light commands read instead
of parsing and validating `knowledge/` every time. It must hold exactly what validation gives, follow
every edit of a knowledge file, and survive a corrupt, foreign or unwritable cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from advisor import snapshot
from advisor.knowledge import from_snapshot, knowledge, load_knowledge, validated_data
from advisor.paths import data_dir

ROOT = Path(__file__).resolve().parents[2]


def test_the_knowledge_read_back_is_the_knowledge_validated() -> None:
    root = data_dir("knowledge")
    assert from_snapshot(validated_data(root)) == load_knowledge(root)
    assert knowledge() == load_knowledge(root)


def test_records_read_as_the_validated_specs() -> None:
    kb = load_knowledge(data_dir("knowledge"))
    assert set(snapshot.gpus()) == set(kb.gpus) and set(snapshot.models()) == set(kb.models)
    for table, specs in ((snapshot.gpus(), kb.gpus), (snapshot.models(), kb.models)):
        for ident, spec in specs.items():
            record = table[ident]
            for name in type(spec).model_fields:
                value, got = getattr(spec, name), getattr(record, name)
                if hasattr(value, "model_dump"):  # a price range
                    assert got.json == value.model_dump(mode="json"), (ident, name)
                else:
                    assert got == value, (ident, name)
    h100 = snapshot.gpus()["h100-sxm"]
    assert h100.memory_bytes == kb.gpus["h100-sxm"].memory_bytes == 80 * 2**30
    assert h100.bandwidth_bytes_per_s == kb.gpus["h100-sxm"].bandwidth_bytes_per_s
    assert h100.price.mid_usd == kb.gpus["h100-sxm"].price.mid_usd


def test_names_resolve_as_the_knowledge_base_resolves_them() -> None:
    kb = knowledge()
    for name in ("H100 SXM", "rtx4090", "A100-80GB", "4090"):
        assert snapshot.find(snapshot.gpus(), name).id == kb.gpu(name).id, name
    for name in ("Llama 3 8B", "llama-3-8b", "Qwen2.5 7B"):
        assert snapshot.find(snapshot.models(), name).id == kb.model(name).id, name
    assert snapshot.find(snapshot.gpus(), "no such card") is None


def _run(args: list[str], data: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GPU_ADVISOR_DATA": str(data), "GPU_ADVISOR_CACHE": str(cache)}
    return subprocess.run([sys.executable, "-m", "advisor.cli", *args], capture_output=True, text=True, env=env,
                          timeout=120)


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    for name in ("knowledge", "rules", "templates"):
        shutil.copytree(ROOT / name, tmp_path / "data" / name)
    return tmp_path / "data"


def _h100_memory(out: subprocess.CompletedProcess[str]) -> float:
    assert out.returncode == 0, out.stderr
    return next(g["memory_gb"] for g in json.loads(out.stdout) if g["id"] == "h100-sxm")


def test_an_edited_knowledge_file_is_read_again(data_copy: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert _h100_memory(_run(["gpus", "--json"], data_copy, cache)) == 80
    assert len(list(cache.glob("knowledge-*.json"))) == 1
    gpus = data_copy / "knowledge" / "gpus.yaml"
    text = gpus.read_text(encoding="utf-8")
    start = text.index("id: h100-sxm")
    at = text.index("memory_gb: 80", start)
    gpus.write_text(text[:at] + "memory_gb: 96" + text[at + len("memory_gb: 80"):], encoding="utf-8")
    assert _h100_memory(_run(["gpus", "--json"], data_copy, cache)) == 96
    assert len(list(cache.glob("knowledge-*.json"))) == 1  # the stale snapshot is gone


@pytest.mark.parametrize("garbage", [b"", b"{not json", b'{"key": "another"}', b"\xff\xfe\x00", b"[]", "same key"])
def test_a_corrupt_or_foreign_snapshot_is_rebuilt(data_copy: Path, tmp_path: Path, garbage: bytes | str) -> None:
    cache = tmp_path / "cache"
    _run(["gpus"], data_copy, cache)
    (path,) = cache.glob("knowledge-*.json")
    if garbage == "same key":  # the right key over broken contents
        garbage = json.dumps({"key": path.stem.removeprefix("knowledge-"), "gpus": [{"x": 1}], "ui": {}}).encode()
    path.write_bytes(garbage)
    assert _h100_memory(_run(["gpus", "--json"], data_copy, cache)) == 80
    assert json.loads(path.read_text(encoding="utf-8"))["key"] == path.stem.removeprefix("knowledge-")


def test_an_unwritable_cache_only_costs_speed(data_copy: Path, tmp_path: Path) -> None:
    not_a_folder = tmp_path / "cache-is-a-file"
    not_a_folder.write_text("x", encoding="utf-8")
    out = _run(["gpus", "--json"], data_copy, not_a_folder)
    assert _h100_memory(out) == 80 and out.stderr == ""


def test_a_broken_file_stops_even_a_light_command(data_copy: Path, tmp_path: Path) -> None:
    gpus = data_copy / "knowledge" / "gpus.yaml"
    gpus.write_text(gpus.read_text(encoding="utf-8").replace("memory_gb: 80", "memory_gb: -80", 1), encoding="utf-8")
    out = _run(["estimate", "--model", "llama-3-8b", "--gpu", "rtx-4090", "--json"], data_copy, tmp_path / "c")
    assert out.returncode == 2 and "gpus.yaml" in out.stderr and "greater than 0" in out.stderr
    assert "Traceback" not in out.stderr and not list((tmp_path / "c").glob("knowledge-*.json"))
