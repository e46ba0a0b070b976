"""A headless Chromium driven over the DevTools protocol, just enough for the `gpu-advisor web` test.

Why not Playwright: the browser is the system's (Debian's `chromium` package, which CI installs with apt),
and the protocol calls needed are five (navigate, run a script before the page's own, evaluate, insert
text, press a key); speaking them over aiohttp's WebSocket client, which textual-serve already brings,
adds no dependency and no browser download. Every wait has a deadline, and the browser is killed on exit.

What the page shows is read from xterm.js, the terminal emulator textual-serve puts in the page: its
`Terminal` object is kept by the page in a closure, so a script that runs before the page's own catches it
as it is assigned to `.terminal` (a setter on Object.prototype, removed for that object once it fired), and
the screen is read back with xterm's public buffer API (`buffer.active.getLine(y).translateToString()`),
the same cells the page paints.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  get() { return undefined; },
  set(value) {
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
    if (value && typeof value === "object" && "buffer" in value && !window.__advisorTerminal) {
      window.__advisorTerminal = value;
    }
  },
});
"""

READ_SCREEN = """
(() => {
  const term = window.__advisorTerminal;
  if (!term) return null;
  const buffer = term.buffer.active, rows = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n");
})()
"""

KEYS = {  # key -> (code, windowsVirtualKeyCode, text)
    "Enter": ("Enter", 13, "\r"),
    "F2": ("F2", 113, ""),
}


def chromium_path() -> str:
    """The system Chromium (Debian/Ubuntu `chromium`, or `chromium-browser`, or Chrome)."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    raise AssertionError("no Chromium on PATH: install it (Debian/Ubuntu: apt-get install -y chromium; .ci/run does)")


class Browser:
    """One headless Chromium with one page; use as `async with Browser(width, height) as page:`."""

    def __init__(self, width: int = 1400, height: int = 1000) -> None:
        self.width, self.height = width, height
        self._process: subprocess.Popen[bytes] | None = None
        self._profile = tempfile.mkdtemp(prefix="advisor-chromium-")
        self._session: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._next_id = 0

    async def __aenter__(self) -> Browser:
        self._process = subprocess.Popen(
            [chromium_path(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
             f"--user-data-dir={self._profile}", "--remote-debugging-port=0",
             f"--window-size={self.width},{self.height}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        port_file = Path(self._profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 20
        while not (port_file.is_file() and port_file.read_text().count("\n") >= 1):
            if self._process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("Chromium did not start (no DevToolsActivePort)")
            await asyncio.sleep(0.05)
        port = int(port_file.read_text().split()[0])
        self._session = aiohttp.ClientSession()
        async with self._session.get(f"http://127.0.0.1:{port}/json/list") as response:
            targets = await response.json(content_type=None)
        page = next(t for t in targets if t.get("type") == "page")
        self._ws = await self._session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        await self.send("Page.enable")
        await self.send("Page.addScriptToEvaluateOnNewDocument", source=CATCH_TERMINAL)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._session is not None:
            await self._session.close()
        if self._process is not None and self._process.poll() is None:
            os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait(timeout=10)
        shutil.rmtree(self._profile, ignore_errors=True)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """One DevTools command and its result (events that arrive meanwhile are dropped)."""
        assert self._ws is not None
        self._next_id += 1
        ident = self._next_id
        await self._ws.send_str(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = await asyncio.wait_for(self._ws.receive(), timeout=15)
            if message.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"DevTools connection closed during {method}")
            data = json.loads(message.data)
            if data.get("id") == ident:
                if "error" in data:
                    raise AssertionError(f"{method}: {data['error']}")
                return data.get("result", {})

    async def evaluate(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"page script failed: {result['exceptionDetails']}")
        return result.get("result", {}).get("value")

    async def goto(self, url: str) -> None:
        await self.send("Page.navigate", url=url)

    async def screen(self) -> str:
        """The terminal's visible rows, as xterm.js holds them ('' before the terminal exists)."""
        return await self.evaluate(READ_SCREEN) or ""

    async def wait_for(self, predicate: Any, what: str, timeout: float = 40) -> str:
        """Poll the screen until `predicate(screen)` holds; fail with the last screen after `timeout` s."""
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = await self.screen()
            if predicate(text):
                return text
            await asyncio.sleep(0.2)
        raise AssertionError(f"timed out waiting for {what}; the page shows:\n{text}")

    async def type_text(self, text: str) -> None:
        """Type `text` as an input method would (Chinese is committed as one insertion)."""
        await self.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
        await self.send("Input.insertText", text=text)

    async def press(self, key: str) -> None:
        code, vk, text = KEYS[key]
        base = {"key": key, "code": code, "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}
        await self.send("Input.dispatchKeyEvent", type="keyDown", text=text, **base)
        await self.send("Input.dispatchKeyEvent", type="keyUp", **base)
