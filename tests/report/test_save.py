"""Saving reports: the format from the suffix, `~`, atomic writes, and a clear error for every bad place."""

from __future__ import annotations

import errno
import json

import pytest

from advisor import report
from advisor.report import ReportError

from .conftest import make_recommendation


@pytest.mark.parametrize(
    ("name", "starts"),
    [("r.md", "# GPU"), ("r.markdown", "# GPU"), ("r.html", "<!DOCTYPE html>"), ("R.HTM", "<!DOCTYPE html>"),
     ("r.json", "{")],
)
def test_format_from_suffix(tmp_path, name: str, starts: str) -> None:
    out = report.save_report(make_recommendation("en"), tmp_path / name)
    assert out == (tmp_path / name).resolve()
    assert out.read_text(encoding="utf-8").startswith(starts)


def test_explicit_format_wins_over_suffix(tmp_path) -> None:
    out = report.save_report(make_recommendation("en"), tmp_path / "r.txt", fmt="json")
    assert json.loads(out.read_text(encoding="utf-8"))["schema_version"] == 1


def test_tilde_expands_to_home_and_folders_are_created(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    out = report.save_report(make_recommendation("zh-Hans"), "~/reports/r.md")
    assert out == (tmp_path / "reports" / "r.md").resolve()
    assert "推荐配置" in out.read_text(encoding="utf-8")


def test_overwrite_replaces_whole_file_and_leaves_no_temp(tmp_path) -> None:
    target = tmp_path / "r.md"
    target.write_text("old " * 10_000, encoding="utf-8")
    report.save_report(make_recommendation("en"), target)
    assert not target.read_text(encoding="utf-8").startswith("old")
    assert [p.name for p in tmp_path.iterdir()] == ["r.md"]


@pytest.mark.parametrize(
    ("make_path", "key"),
    [
        (lambda p: p, "report.error.is_directory"),
        (lambda p: str(p) + "/", "report.error.is_directory"),
        (lambda p: p / "r.pdf", "report.error.unknown_format"),
        (lambda p: p / "noext", "report.error.unknown_format"),
        (lambda p: p / "a-file" / "r.md", "report.error.unwritable"),  # a file where a folder should be
        (lambda p: "  ", "report.error.no_path"),
    ],
)
def test_bad_places_raise_report_error_with_a_ui_key(tmp_path, make_path, key: str) -> None:
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(ReportError) as info:
        report.save_report(make_recommendation("en"), make_path(tmp_path))
    assert info.value.key == key


def test_disk_full_is_reported_as_such(tmp_path, monkeypatch) -> None:
    def full(path, text):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("advisor.fsutil.atomic_write_text", full)
    with pytest.raises(ReportError) as info:
        report.save_report(make_recommendation("en"), tmp_path / "r.md")
    assert info.value.key == "report.error.disk_full"


def test_error_messages_are_localized_and_name_the_path(tmp_path) -> None:
    err = ReportError("report.error.unwritable", "/nope/r.md")
    assert "/nope/r.md" in err.message("en") and "can't write" in err.message("en")
    assert "无法写入" in err.message("zh-Hans")
    assert "無法寫入" in err.message("zh-Hant")


def test_new_report_is_readable_by_others_and_overwrite_keeps_the_mode(tmp_path) -> None:
    new = report.save_report(make_recommendation("en"), tmp_path / "new.md")
    assert new.stat().st_mode & 0o777 == 0o644
    kept = tmp_path / "kept.md"
    kept.write_text("old", encoding="utf-8")
    kept.chmod(0o600)
    report.save_report(make_recommendation("en"), kept)
    assert kept.stat().st_mode & 0o777 == 0o600
