"""`gpu-advisor recommend --profile PATH`: JSON and YAML profiles, the report on stdout or in a file, and one
clear localized line (exit status 2, no traceback) for every kind of bad input."""

from __future__ import annotations

import json

import pytest

from advisor.cli import main

PROFILE_YAML = """\
language: zh-Hant
task: lora
model: mistral-7b
params: 7241732096
tokens: 25600000
epochs: 3
budget_usd: 30000
deployment: on-prem
rack_kw: 12
cooling: air
"""


def test_yaml_profile_to_stdout_then_json_file_then_json_report_as_input(tmp_path, capsys) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text(PROFILE_YAML, encoding="utf-8")
    assert main(["recommend", "--profile", str(profile)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# GPU 選購建議") and "## 建議配置" in out and "GiB" in out

    target = tmp_path / "r.json"
    assert main(["recommend", "--profile", str(profile), "--lang", "en", "-o", str(target)]) == 0
    assert "Report written to" in capsys.readouterr().err
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["schema_version"] == 1 and data["language"] == "en"
    assert data["profile"]["params"] == 7_241_732_096 and data["profile"]["rack_kw"] == 12
    best = data["recommendations"][0]
    assert set(best["memory_per_gpu"]) == {"weights", "gradients", "optimizer", "activations", "kv_cache",
                                           "overhead", "total"}
    assert best["memory_per_gpu"]["total"] == sum(v for k, v in best["memory_per_gpu"].items() if k != "total")

    # The JSON report itself is a valid profile source: the same answer again, as HTML.
    html = tmp_path / "again.html"
    assert main(["recommend", "--profile", str(target), "-o", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and best["gpu_name"] in page


@pytest.mark.parametrize(
    ("content", "args", "expected"),
    [
        (None, [], "There is no profile file"),
        ("task: [\n", [], "neither JSON nor YAML"),
        ("- just\n- a list\n", [], "does not hold a profile"),
        ("task: sing\n", ["--lang", "zh-Hans"], "无法使用的取值"),
        ('{"task": "lora", "colour": "blue"}', [], "colour"),
        ("epochs: 1\n", [], "I need a model"),
        (PROFILE_YAML, ["-o", "/proc/forbidden/r.md"], "無法寫入"),
    ],
)
def test_bad_input_gets_one_clear_line(tmp_path, capsys, content, args, expected) -> None:
    profile = tmp_path / "p.yaml"
    if content is not None:
        profile.write_text(content, encoding="utf-8")
    assert main(["recommend", "--profile", str(profile), *args]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
