"""The real `gpu-advisor` in a pseudo-terminal: what a person's terminal gives it, keys and bytes included."""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class PtyApp:
    """`python -m advisor.cli ARGS` on a pseudo-terminal (100 × 30, UTF-8), with `state` as its state folder.
    Use it as a context manager: on leaving, the process is killed if it still runs."""

    def __init__(self, args: list[str], state: Path) -> None:
        import pty

        env = dict(os.environ, TERM="xterm-256color", PYTHONPATH=str(ROOT), GPU_ADVISOR_STATE=str(state),
                   LANG="C.UTF-8", COLUMNS="100", LINES="30")
        env.pop("GPU_ADVISOR_DEBUG", None)
        self.seen = bytearray()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the real entry point
            try:
                os.execve(sys.executable, [sys.executable, "-m", "advisor.cli", *args], env)
            finally:
                os._exit(127)

    def read(self, seconds: float, until: bytes | None = None) -> bool:
        """Read the screen for up to `seconds`. With `until`: whether it showed; without: whether the app is still
        there at the end. False as soon as the app is gone."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    return False
                if not chunk:
                    return False
                self.seen.extend(chunk)
                if until is not None and until in self.seen:
                    return True
        return until is None

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)

    def alive(self) -> bool:
        return os.waitpid(self.pid, os.WNOHANG) == (0, 0)

    def quit(self, seconds: float) -> int | None:
        """Ctrl+Q, then the exit status once the app has ended (None if it did not within `seconds`)."""
        self.write(b"\x11")
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.read(0.2)
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                return status
        return None

    def tail(self, n: int = 3000) -> str:
        return bytes(self.seen[-n:]).decode("utf-8", "replace")

    def __enter__(self) -> PtyApp:
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)
