"""`gpu-advisor web`: the app served by textual-serve, used from a headless Chromium like a person would.

The server is started as the user starts it (`python -m advisor.cli web --port N`, a free loopback port),
a Chromium opens the page, a consultation is typed in Chinese, and the recommendation is read back from the
terminal the page shows (see tests/tui/browser.py). The pick the page shows must be the one the headless
consultation service gives for the same answers (the browser is only another front end of one service).
Bounded: every wait has a deadline (40 s), the whole browser session one of 120 s (about 20 s on an idle
2-core machine), and the server, its app processes and the browser are killed at the end.
The refusals (port taken, textual-serve missing, exposed host) are checked without a browser.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from advisor.cli import build_parser
from advisor.commands import web
from advisor.commands.web import loopback_only
from advisor.i18n import t

from .browser import Browser

ANSWER = ("用 LoRA 微调 Mistral 7B，5000 万 token、2 轮、序列长度 4096，BF16 混合精度，两周内完成；"
          "预算 21 万人民币；自有机房，单机柜 12 kW，风冷；打算用三年")
CONFIRM = "对"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _web(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "advisor.cli", "web", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, env=env)


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def _wait_listening(port: int, process: subprocess.Popen[str], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"gpu-advisor web ended: {process.stderr.read() if process.stderr else ''}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError("gpu-advisor web is not listening")


def _expected_pick() -> str:
    """The top pick of the same answers, from the headless consultation service, as the results table names it."""
    from advisor.consultation import Consultation
    from advisor.report import build_view

    conv = Consultation(None, None, persist=False)
    conv.start()
    conv.handle(ANSWER)
    conv.handle(CONFIRM)
    assert conv.recommendation is not None and conv.locale == "zh-Hans"
    return str(build_view(conv.recommendation, "zh-Hans")["candidates"][0]["short_title"])


def test_browser_consultation_in_chinese() -> None:
    expected = _expected_pick()
    port = _free_port()
    server = _web("--port", str(port))
    try:
        _wait_listening(port, server)
        asyncio.run(asyncio.wait_for(_consult(port, expected), timeout=120))
    finally:
        _stop(server)
    out = server.stdout.read() if server.stdout else ""
    err = server.stderr.read() if server.stderr else ""
    assert f"http://127.0.0.1:{port}" in out
    assert "Traceback" not in err and "WARNING" not in err  # loopback: no exposure warning


async def _consult(port: int, expected: str) -> None:
    async with Browser(1400, 1000) as page:
        await page.goto(f"http://127.0.0.1:{port}/")
        # The app starts in English (LANG=C.UTF-8), then follows the user into Simplified Chinese.
        await page.wait_for(lambda s: t("tui.input.placeholder", "en") in s, "the English greeting")
        await page.type_text(ANSWER)
        await page.wait_for(lambda s: "打算用三年" in s, "the typed answer in the input")
        await page.press("Enter")
        ready = t("tui.input.placeholder", "zh-Hans")
        await page.wait_for(lambda s: ready in s and "这样对吗" in s, "the summary, in Simplified Chinese")
        await page.type_text(CONFIRM)
        await page.press("Enter")
        chat = await page.wait_for(lambda s: "我的推荐" in s or expected in s, "the recommendation in the chat")
        assert "Traceback" not in chat
        await page.press("F2")
        results = await page.wait_for(lambda s: t("report.col.configuration", "zh-Hans") in s, "the results table")
        first = next(line for line in results.splitlines() if line.strip().startswith("1") and "×" in line)
        assert expected in first, results


def test_port_taken_is_one_line() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        process = _web("--port", str(port), "--lang", "zh-Hant")
        try:
            out, err = process.communicate(timeout=30)
        finally:
            _stop(process)
    assert process.returncode == 2
    assert err.strip().splitlines() == [f"gpu-advisor web: 127.0.0.1 上的連接埠 {port} 已被其他程式占用。"
                                        f"請換一個連接埠（例如 --port {port}1），或先關閉那個程式。"]
    assert out == ""


def _refusal(*args: str, env: dict[str, str] | None = None) -> str:
    """The one line `gpu-advisor web ARGS` prints on stderr when it refuses to start (exit status 2)."""
    process = _web(*args, env=env)
    try:
        _out, err = process.communicate(timeout=30)
    finally:
        _stop(process)
    assert process.returncode == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_without_textual_serve_is_one_line(tmp_path) -> None:
    # A module named textual_serve that cannot be imported stands for the package not being installed.
    (tmp_path / "textual_serve").mkdir()
    (tmp_path / "textual_serve" / "__init__.py").write_text("raise ImportError('No module named textual_serve')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    line = _refusal("--lang", "en", env=env)
    assert "textual-serve" in line and "pip install 'gpu-advisor[web]'" in line


@pytest.mark.parametrize(("host", "local"), [("127.0.0.1", True), ("localhost", True), ("::1", True),
                                           ("[::1]", True), ("127.0.0.2", True), ("0.0.0.0", False), ("::", False),
                                           ("192.168.1.10", False), ("10.0.0.1", False)])
def test_loopback_only(host, local) -> None:
    assert loopback_only(host) is local


def test_exposed_host_is_warned(monkeypatch, capsys) -> None:
    """Every interface: a warning first, then the server starts as asked (here a stand-in that binds nothing:
    the tests listen on loopback addresses only)."""
    from textual_serve import server as ts

    started = []
    monkeypatch.setattr(web, "_port_free", lambda host, port: True)
    monkeypatch.setattr(ts.Server, "serve", lambda self, debug=False: started.append((self.host, self.port)))
    args = build_parser().parse_args(["--lang", "zh-Hant", "web", "--host", "0.0.0.0", "--port", "8123"])
    assert web.run(args) == 0
    assert started == [("0.0.0.0", 8123)]
    err = capsys.readouterr().err
    assert err.startswith("gpu-advisor web: 警告：0.0.0.0 不是本機迴路位址，任何能連到本機連接埠 8123 的人都能使用本工具"), err
    assert len(err.strip().splitlines()) == 1


def test_bad_host_is_one_line() -> None:
    line = _refusal("--host", "no-such-host.invalid", "--lang", "en")
    assert line.startswith("gpu-advisor web: cannot listen on no-such-host.invalid"), line
