"""`gpu-advisor gpus`, `gpu-advisor models` and `gpu-advisor kb search`, run through the real CLI entry point
(restricted to these subcommands so that the test does not depend on the others being present)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from advisor import cli
from advisor.knowledge import knowledge


@pytest.fixture
def run_cli(monkeypatch, capsys):
    monkeypatch.setattr(cli, "SUBCOMMANDS", {k: v for k, v in cli.SUBCOMMANDS.items() if k in ("gpus", "models", "kb")})

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            rc = cli.main(list(argv))
        except SystemExit as exc:  # argparse usage errors
            rc = int(exc.code or 0)
        out, err = capsys.readouterr()
        return rc, out, err

    return run


def test_gpus_table_in_english(run_cli) -> None:
    rc, out, _ = run_cli("gpus")
    assert rc == 0
    header = out.splitlines()[0]
    assert "Memory" in header and "BF16 dense" in header and "Cloud per GPU-hour" in header
    h100 = next(line for line in out.splitlines() if line.startswith("h100-sxm "))
    # gpu-catalogue.md §2-4: 80 GB, 3.35 TB/s, 989 dense BF16, 1,979 FP8, 700 W, NVLink 4 450 GB/s per direction.
    for cell in ("80 GB", "3.35 TB/s", "989 TFLOPS", "1,979 TFLOPS", "700 W", "NVLink 4 450 GB/s", "(2026-"):
        assert cell in h100, cell
    v100 = next(line for line in out.splitlines() if line.startswith("v100-sxm2-16gb "))
    assert "none (FP16 125)" in v100  # no BF16 on Volta
    assert f"{len(knowledge().gpus)} GPUs" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        # zh-Hant says GPU 記憶體, not the mainland 顯存; the cloud column spells out 每小時價格
        # (shared/reference/zh-review.md §2.3, row 14 and the extra corrections after §6)
        (("--lang", "zh-Hant", "gpus"), ("GPU 記憶體", "頻寬", "雲端每卡每小時價格", "稠密張量算力")),
        (("gpus", "--lang", "zh-Hans"), ("显存", "带宽", "云端每卡每小时价格", "稠密张量算力")),
        (("models", "--lang", "zh-Hant"), ("參數量", "層數", "個模型")),
    ],
)
def test_tables_in_chinese(run_cli, argv, words) -> None:
    rc, out, _ = run_cli(*argv)
    assert rc == 0
    for word in words:
        assert word in out, word


def test_gpus_json_has_units_in_keys(run_cli) -> None:
    rc, out, _ = run_cli("gpus", "--json")
    assert rc == 0
    data = json.loads(out)
    assert isinstance(data, list) and len(data) == len(knowledge().gpus)
    h100 = next(g for g in data if g["id"] == "h100-sxm")
    assert h100["memory_gb"] == 80 and h100["memory_bytes"] == 85_899_345_920
    assert h100["tdp_w"] == 700 and h100["interconnect_gbps"] == 450 and h100["bandwidth_tbps"] == 3.35
    assert {"low_usd", "high_usd", "date", "source"} <= set(h100["price"])
    assert all("source" in g and g["source"] for g in data)


def test_models_json_and_table(run_cli) -> None:
    rc, out, _ = run_cli("models", "--json")
    assert rc == 0
    data = json.loads(out)
    models = knowledge().models
    assert [m["id"] for m in data] == list(models)
    assert all(isinstance(m["params"], int) for m in data)
    rc, out, _ = run_cli("models")
    assert rc == 0 and "Parameters" in out.splitlines()[0]
    first = next(iter(models.values()))
    assert any(line.startswith(first.id + " ") for line in out.splitlines())


def test_kb_search_text(run_cli) -> None:
    rc, out, _ = run_cli("kb", "search", "why", "ECC?")
    assert rc == 0
    assert out.startswith("1. Why ECC memory matters  [ecc-memory]")
    assert "Source: seed article" in out


def test_kb_search_answers_in_the_query_language(run_cli) -> None:
    rc, out, _ = run_cli("kb", "search", "什麼是記憶體碎片？", "-k", "1")
    assert rc == 0 and out.startswith("1. 什麼是記憶體碎片  [memory-fragmentation]") and "來源：" in out
    rc, out, _ = run_cli("kb", "search", "H100 比 A100 快 30 倍吗", "-k", "1")
    assert rc == 0 and "[h100-cost]" in out and "更正：" in out and "3.2 倍" in out
    rc, out, _ = run_cli("--lang", "en", "kb", "search", "什么是显存碎片", "-k", "1")
    assert rc == 0 and out.startswith("1. What is memory fragmentation?")


def test_kb_search_json(run_cli) -> None:
    rc, out, _ = run_cli("kb", "search", "QLoRA", "--json", "--lang", "zh-Hans")
    assert rc == 0
    data = json.loads(out)
    assert data["language"] == "zh-Hans" and data["query"] == "QLoRA"
    assert data["results"][0]["id"] == "qlora"
    assert data["results"][0]["title"].startswith("QLoRA：")
    assert {"id", "score", "title", "text", "correction", "source", "tags"} == set(data["results"][0])


@pytest.mark.parametrize(
    ("argv", "rc_expected", "message"),
    [
        (("kb", "search", "best", "pizza"), 1, "No knowledge entry matches “best pizza”"),
        (("kb", "search", "红烧肉怎么做"), 1, "知识库中没有与“红烧肉怎么做”相关的条目"),
        (("kb", "search", "紅燒肉怎麼做"), 1, "知識庫中沒有與「紅燒肉怎麼做」相關的條目"),
    ],
)
def test_kb_search_with_no_answer(run_cli, argv, rc_expected, message) -> None:
    rc, out, err = run_cli(*argv)
    assert rc == rc_expected and message in out and "Traceback" not in out + err


def test_kb_search_bad_input_is_a_clear_message(run_cli) -> None:
    rc, out, err = run_cli("kb", "search", "  ")
    assert rc == 2 and "Type a question" in err
    rc, out, err = run_cli("kb", "search", "ECC", "-k", "0", "--lang", "zh-Hant")
    assert rc == 2 and "結果筆數必須介於 1 到 50 之間" in err
    rc, out, err = run_cli("kb", "search", "ECC", "--json", "-k", "99")
    assert rc == 2
    rc, out, err = run_cli("kb")
    assert rc == 2 and "usage" in err and "Traceback" not in err
    rc, out, err = run_cli("kb", "search", "ECC", "--lang", "fr")
    assert rc == 2 and "invalid choice" in err


def test_catalog_commands_import_neither_textual_nor_rules() -> None:
    code = (
        "import sys, argparse, io, contextlib\n"
        "from advisor.commands import catalog, kb\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf):\n"
        "    catalog.run(argparse.Namespace(json=False, catalog='gpus'))\n"
        "    catalog.run(argparse.Namespace(json=True, catalog='models'))\n"
        "    kb.run(argparse.Namespace(query=['ECC'], json=False, limit=3))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'durable', 'rules')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
