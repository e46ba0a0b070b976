"""Script and vocabulary checks over EVERY trilingual text under knowledge/ and rules/ (all engineers' files).

zh-Hant must contain no Simplified-only character and no mainland-only word (數據, 軟件, 默認, 支持, 網絡,
信息, 視頻, 內存 ...: Taiwan writes 資料, 軟體, 預設, 支援, 網路, 資訊, 影片, 記憶體); zh-Hans no
Traditional-only character and no Taiwan-only word; every localized mapping has all three languages and
the same {placeholders} in each. A failure names the file, the key path and the offending text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from advisor.paths import data_dir

from scriptcheck import (
    char_script,
    forbidden_words,
    HANT_FORBIDDEN_WORDS,
    localized_texts,
    problems,
    simplified_only_chars,
    traditional_only_chars,
)

ROOT = data_dir("knowledge").parent
FILES = sorted(
    p.relative_to(ROOT)
    for folder in ("knowledge", "rules")
    if (ROOT / folder).is_dir()
    for p in [*(ROOT / folder).rglob("*.yaml"), *(ROOT / folder).rglob("*.yml")]
)
TEXTS = localized_texts(ROOT)


def test_the_checks_see_every_kind_of_file() -> None:
    names = {str(p) for p in FILES}
    assert "knowledge/gpus.yaml" in names and "knowledge/findings.yaml" in names
    assert any(n.startswith("knowledge/entries/seed-") for n in names)
    assert any(n.startswith("knowledge/ui/") for n in names)
    assert len(TEXTS) > 300  # entries alone hold ~200 localized titles, texts and corrections


@pytest.mark.parametrize("path", FILES, ids=str)
def test_every_localized_text_is_complete_and_in_the_right_script(path: Path) -> None:
    found = [p for item in TEXTS if item.file == path for p in problems(item)]
    assert found == [], "\n" + "\n".join(found)


def _check_yaml(tmp_path: Path, text: str) -> list[str]:
    (tmp_path / "knowledge").mkdir(exist_ok=True)
    (tmp_path / "knowledge" / "bad.yaml").write_text(text, encoding="utf-8")
    return [p for item in localized_texts(tmp_path) for p in problems(item)]


def test_checker_catches_simplified_characters_in_zh_hant(tmp_path: Path) -> None:
    found = _check_yaml(tmp_path, "- id: e1\n  title: {en: VRAM, zh-Hans: 显存, zh-Hant: 显存}\n")
    assert len(found) == 1
    assert "knowledge/bad.yaml" in found[0] and "[0:e1].title" in found[0] and "'显'" in found[0]


def test_checker_catches_traditional_characters_in_zh_hans(tmp_path: Path) -> None:
    found = _check_yaml(tmp_path, "key.a: {en: memory, zh-Hans: 顯存與頻寬, zh-Hant: 顯存與頻寬}\n")
    assert len(found) == 1 and "zh-Hans" in found[0] and "key.a" in found[0]
    assert all(ch in found[0] for ch in "顯與頻寬")


def test_checker_catches_mainland_words_in_zh_hant(tmp_path: Path) -> None:
    found = _check_yaml(tmp_path, "k: {en: data, zh-Hans: 数据和软件, zh-Hant: 數據和軟件}\n")
    assert len(found) == 1 and "數據 (use 資料)" in found[0] and "軟件 (use 軟體)" in found[0]


def test_checker_catches_taiwan_words_in_zh_hans(tmp_path: Path) -> None:
    found = _check_yaml(tmp_path, "k: {en: software, zh-Hans: 软体预设, zh-Hant: 軟體預設}\n")
    assert len(found) == 1 and "软体" in found[0] and "预设" in found[0]


def test_checker_catches_a_missing_language_and_placeholder_drift(tmp_path: Path) -> None:
    found = _check_yaml(
        tmp_path,
        "a: {en: 'Hi {name}', zh-Hans: '你好 {name}'}\n"
        "b: {en: '{n} GPUs', zh-Hans: '{n} 块 GPU', zh-Hant: '{count} 張 GPU'}\n",
    )
    assert any("a: missing or empty language(s) ['zh-Hant']" in p for p in found)
    assert any("b: placeholders differ" in p for p in found)


def test_checker_walks_nested_rule_files(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "r.yaml").write_text(
        "rules:\n  - id: r1\n    then:\n      text: {en: x, zh-Hans: 网络, zh-Hant: 網絡}\n", encoding="utf-8"
    )
    found = [p for item in localized_texts(tmp_path) for p in problems(item)]
    assert found and "rules/r.yaml: rules[0:r1].then.text" in found[0] and "網絡 (use 網路)" in found[0]


def test_taiwan_standard_characters_pass() -> None:
    # OpenCC's generic s2t prefers 峯/喫/爲/裏; Taiwan writes 峰/吃/為/裡. Dual-use characters (台灣, 公里,
    # 皇后, 干擾) are Traditional too. None of these may be flagged in zh-Hant.
    assert simplified_only_chars("尖峰、吃緊、為了、這裡、台灣、公里、皇后、干擾、顯著") == []
    assert set(simplified_only_chars("显存这个")) == {"显", "这", "个"}
    assert traditional_only_chars("显著的峰值，这里") == []
    assert set(traditional_only_chars("顯存這裡")) == {"顯", "這", "裡"}
    assert char_script("的") == "both"


def test_forbidden_words_are_words_not_characters() -> None:
    assert forbidden_words("資料與預設", HANT_FORBIDDEN_WORDS) == []
    assert forbidden_words("數據", HANT_FORBIDDEN_WORDS) == ["數據 (use 資料)"]


def test_yaml_files_parse() -> None:
    for path in FILES:
        yaml.safe_load((ROOT / path).read_text(encoding="utf-8"))
