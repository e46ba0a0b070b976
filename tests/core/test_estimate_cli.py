"""`gpu-advisor estimate`: the JSON contract of DESIGN.md, readable text, and one clear line for bad input."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from advisor.commands import estimate

MEMORY_KEYS = {"weights", "gradients", "optimizer", "activations", "kv_cache", "overhead", "total"}


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="gpu-advisor estimate")
    estimate.add_arguments(parser, "estimate")
    code = estimate.run(parser.parse_args(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _json(argv: list[str], capsys) -> dict:
    code, out, err = _run([*argv, "--json"], capsys)
    assert code == 0, err
    return json.loads(out)


def test_json_keys_in_bytes(capsys) -> None:
    r = _json(["--model", "llama-3-8b", "--task", "lora", "--gpu", "rtx-4090"], capsys)
    assert r["params"] == 8_030_261_248
    # LoRA r=16 on q,k,v,o,gate,up,down of Llama 3 8B: 32 x 16 x (4096+4096 + 4096+1024 + 4096+1024 + 4096+4096
    # + 2 x (4096+14336) + 14336+4096) = 41,943,040 (r·(d_in + d_out), Hu et al.)
    assert r["trainable_params"] == 41_943_040
    mem = r["memory_per_gpu"]
    assert set(mem) == MEMORY_KEYS and all(isinstance(v, int) for v in mem.values())
    assert mem["total"] == sum(v for k, v in mem.items() if k != "total")
    assert mem["kv_cache"] == 0 and mem["activations"] > 0
    assert isinstance(r["fits"], bool) and r["fits"] == (mem["total"] <= r["capacity_bytes"])
    assert "time" not in r  # no --tokens


def test_time_when_tokens_are_given(capsys) -> None:
    r = _json(["--model", "llama-3-8b", "--task", "finetune", "--gpu", "h100-sxm", "--gpus", "8", "--strategy",
               "zero3", "--tokens", "1B"], capsys)
    t = r["time"]
    assert t["tokens"] == 1_000_000_000
    assert t["seconds_low"] < t["seconds"] < t["seconds_high"]
    # 6·N·D + attention for 1B tokens of Llama 3 8B: ~4.8e19 FLOPs (the 0.5B input embedding does no FLOPs)
    assert t["flops"] == pytest.approx(6 * (8_030_261_248 - 525_336_576) * 1e9 + 12 * 32 * 2048 * 4096 * 1e9, rel=1e-9)
    assert r["fits"] is True
    assert r["cost"]["rent_usd_low"] < r["cost"]["rent_usd_high"]


def test_json_without_gpu_has_no_fit(capsys) -> None:
    r = _json(["--params", "7B", "--task", "qlora"], capsys)
    assert r["params"] == 7_000_000_000 and r["model"]["stand_in"] is True
    assert "fits" not in r and set(r["memory_per_gpu"]) == MEMORY_KEYS


def test_inference_json(capsys) -> None:
    r = _json(["--model", "llama-3-8b", "--task", "inference", "--gpu", "h100-sxm", "--context", "8192",
               "--concurrency", "16"], capsys)
    mem = r["memory_per_gpu"]
    # KV: 2 x 32 layers x 8 KV heads x 128 x 2 bytes = 131,072 B/token (numeric-anchors.md §1.5)
    assert r["kv_bytes_per_token"] == 131_072
    assert mem["kv_cache"] == 131_072 * 8192 * 16
    assert mem["gradients"] == mem["optimizer"] == mem["activations"] == 0
    assert r["fits"] and r["max_concurrency"] >= 16 and r["decode_tokens_per_s"] > 0


def test_the_change_that_makes_it_fit(capsys) -> None:
    r = _json(["--model", "llama-3-8b", "--task", "lora", "--gpu", "rtx-4090"], capsys)
    assert r["fits"] is False
    fix = r["suggestion"]
    assert fix["change"] == "checkpointing" and fix["flags"] == "--checkpointing full"
    again = _json(["--model", "llama-3-8b", "--task", "lora", "--gpu", "rtx-4090", "--checkpointing", "full"], capsys)
    assert again["fits"] is True and again["memory_per_gpu"]["total"] == fix["total_bytes"]
    code, text, _ = _run(["--model", "llama-3-8b", "--task", "lora", "--gpu", "rtx-4090"], capsys)
    assert code == 0 and "Fits: no" in text and "--checkpointing full" in text
    assert "GB (1e9 B)" in text and "GiB (2^30 B)" in text


def test_full_finetune_70b_on_one_card_suggests_more_gpus(capsys) -> None:
    r = _json(["--model", "llama-3-70b", "--task", "finetune", "--gpu", "h100-sxm"], capsys)
    assert r["fits"] is False and r["suggestion"]["change"] == "more_gpus"
    kinds = {alt["change"] for alt in r["suggestion"]["alternatives"]}
    assert "qlora" in kinds or "lora" in kinds


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--model", "llama-3-8b", "--batch", "0"], "--batch"),
        (["--model", "llama-3-8b", "--seq", "-5"], "--seq"),
        (["--params", "0"], "--params"),
        (["--params", "seven"], "--params"),
        (["--model", "no-such-model"], "unknown model"),
        (["--model", "llama-3-8b", "--gpu", "no-such-gpu"], "unknown GPU"),
        (["--model", "llama-3-8b", "--gpus", "6", "--tp", "4"], "multiple"),
        (["--model", "llama-3-8b", "--task", "dance"], "--task"),
        (["--model", "llama-3-8b", "--task", "lora", "--lora-targets", "q,zz"], "LoRA target"),
        ([], "name a model"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, fragment, capsys) -> None:
    code, out, err = _run(argv, capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in err


def test_malformed_config_in_a_subprocess(tmp_path) -> None:
    bad = tmp_path / "config.json"
    bad.write_text('{"model_type": "llama", "hidden_size": ', encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "advisor.commands.estimate", "--config", str(bad), "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert "not valid JSON" in proc.stderr


def test_good_config_in_a_subprocess(tmp_path) -> None:
    cfg = {"model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 32,
           "num_key_value_heads": 8, "intermediate_size": 8192, "vocab_size": 128256, "tie_word_embeddings": True,
           "max_position_embeddings": 131072}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "advisor.commands.estimate", "--config", str(path), "--task", "lora",
                           "--json"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    # Llama 3.2 1B has 1,235,814,400 parameters (Hugging Face safetensors total)
    assert json.loads(proc.stdout)["params"] == 1_235_814_400


def test_lengths_use_binary_k_and_warn_past_max_context(capsys) -> None:
    r = _json(["--model", "llama-3-8b", "--seq", "16k"], capsys)
    assert r["config"]["seq"] == 16_384
    # Llama 3 8B's config.json: max_position_embeddings 8192
    assert len(r["warnings"]) == 1 and "8,192" in r["warnings"][0]
    assert _json(["--model", "llama-3-8b", "--tokens", "2k"], capsys)["config"]["seq"] == 2048  # tokens: decimal k


def test_gpus_needed_for_the_concurrency(capsys) -> None:
    r = _json(["--model", "llama-3-70b", "--task", "inference", "--gpu", "h100-sxm", "--gpus", "4", "--tp", "4",
               "--concurrency", "200", "--context", "8k"], capsys)
    assert r["fits"] is False and r["max_concurrency"] > 0
    assert r["gpus_needed"] == 4 * -(-200 // r["max_concurrency"])
    fixed = _json(["--model", "llama-3-70b", "--task", "inference", "--gpu", "h100-sxm", "--gpus",
                   str(r["gpus_needed"]), "--tp", "4", "--concurrency", "200", "--context", "8k"], capsys)
    assert fixed["fits"] is True


def test_tp_must_divide_heads(capsys) -> None:
    code, _, err = _run(["--model", "llama-3-8b", "--gpus", "3", "--tp", "3"], capsys)
    assert code == 2 and "attention heads" in err


def test_through_the_real_cli() -> None:
    proc = subprocess.run([sys.executable, "-m", "advisor.cli", "estimate", "--model", "llama-3-8b", "--task", "lora",
                           "--gpu", "rtx-4090", "--json"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)
    assert {"params", "trainable_params", "memory_per_gpu", "fits"} <= set(r)
    bad = subprocess.run([sys.executable, "-m", "advisor.cli", "estimate", "--params", "-7B"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr


def test_offload_reports_host_ram(capsys) -> None:
    on = _json(["--model", "llama-3-8b", "--gpus", "8", "--strategy", "zero3", "--offload", "--gpu", "rtx-4090",
                "--checkpointing", "full"], capsys)
    off = _json(["--model", "llama-3-8b", "--gpus", "8", "--strategy", "zero3", "--gpu", "rtx-4090",
                 "--checkpointing", "full"], capsys)
    assert on["memory_per_gpu"]["optimizer"] == 0 and on["host_ram_bytes"] > 0
    assert on["memory_per_gpu"]["total"] < off["memory_per_gpu"]["total"]
    # DeepSpeed ZeRO-3 full offload estimate: params x 18 x 1.5 per node of 8 GPUs
    assert on["host_ram_bytes"] == pytest.approx(8_030_261_248 * 18 * 1.5, rel=1e-6)
    # LoRA offloads its frozen base only where the base is sharded (FSDP or ZeRO-3; PEFT's DeepSpeed
    # and Answer.AI's FSDP examples); ZeRO-2 keeps whole weights on every GPU
    code, _, err = _run(["--model", "llama-3-8b", "--task", "lora", "--gpus", "2", "--strategy", "zero2", "--offload"],
                        capsys)
    assert code == 2 and "--offload" in err
