"""Feed the real TUI random bytes, keys and resizes in tmux, and check it survives and keeps the answers.

    python tools/tmux_fuzz.py [--seconds 60] [--seed N] [--palette] [--lang zh-Hans]

What it does (issue #12):

1. starts `python -m advisor.cli --lang L` in a detached tmux session (its own server socket, a temporary
   state folder and working folder, `remain-on-exit` so that a crash and its traceback stay on the screen;
   Textual draws on stderr, so it cannot go to a log);
2. types a Chinese consultation (`send-keys -l`) and waits until the session file holds it;
3. for `--seconds`, at random: 1–24 random bytes (`send-keys -H`, hex), a named key (Enter, Escape, Tab,
   arrows, F1–F3, PageUp, ...), random bytes followed by Enter (a random answer; mostly after Escape and,
   on the results tab, F2, which bring the focus back to the input box), a burst of resizes
   (`resize-window`, 1×1 up to 300×90), and every few seconds checks that the pane still runs the app;
4. quits with Ctrl+Q and checks: the pane was alive throughout, the exit status is 0, no "Traceback" on the
   screen (kept with its scrollback), and the Chinese consultation is still the first answer in the session file;
   then resumes (`--resume`) and checks that the Chinese text is on the screen again.

Bytes that end or wipe the consultation on purpose are left out of the random bytes: 0x11 (Ctrl+Q, quit),
0x0e (Ctrl+N, new consultation), 0x1a (Ctrl+Z); 0x10 (Ctrl+P, the command palette, whose "New consultation"
random letters can pick) too, unless --palette: then only liveness is checked, not the answers, and when the
palette's Quit ends the app cleanly (status 0, no traceback) it is started again with --resume.
Prints a JSON summary; exit status 0 when every check passed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHINESE = "我想用 LoRA 微调 Mistral 7B，数据 5000 万 token，预算三万美元，机房单个机柜 12 千瓦，风冷"
KEYS = ["Enter", "Escape", "Tab", "BTab", "BSpace", "Up", "Down", "Left", "Right", "Home", "End", "PageUp",
        "PageDown", "F1", "F2", "F3", "DC", "IC", "Space", "C-s", "C-c", "C-t", "M-x", "F5", "F12"]
AVOID = {0x11, 0x0E, 0x1A}


def tmux(sock: str, *args: str, check: bool = True) -> str:
    out = subprocess.run(["tmux", "-L", sock, *args], capture_output=True, text=True, timeout=30)
    if check and out.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)}: {out.stderr.strip()}")
    return out.stdout


def pane(sock: str) -> str:
    return tmux(sock, "capture-pane", "-p", "-t", "fuzz", check=False)


def dead(sock: str) -> bool:
    return tmux(sock, "list-panes", "-t", "fuzz", "-F", "#{pane_dead}", check=False).strip() != "0"


def wait(predicate, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def user_answers(state: Path) -> list[str]:
    try:
        data = json.loads(state.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [e.get("text", "") for e in data.get("transcript", []) if e.get("role") == "user"]


def start(sock: str, work: Path, lang: str, status: Path, *extra: str) -> None:
    env = {"PYTHONPATH": str(ROOT), "GPU_ADVISOR_STATE": str(work / "state"), "LANG": "C.UTF-8",
           "TERM": "xterm-256color"}
    command = " ".join([
        "env", *(f"{k}={shlex.quote(v)}" for k, v in env.items()),
        shlex.quote(sys.executable), "-m", "advisor.cli", "--lang", lang, *extra,
        ";", "echo", "$?", ">", shlex.quote(str(status)),
    ])
    tmux(sock, "new-session", "-d", "-s", "fuzz", "-x", "100", "-y", "30", "-c", str(work), command)
    tmux(sock, "set-option", "-t", "fuzz", "remain-on-exit", "on")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--palette", action="store_true", help="also send Ctrl+P (liveness only)")
    parser.add_argument("--lang", default="zh-Hans", choices=["en", "zh-Hans", "zh-Hant"])
    parser.add_argument("--keep", action="store_true", help="leave the tmux session running after a failure")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    avoid = AVOID if args.palette else AVOID | {0x10}
    sock = f"gpu-advisor-fuzz-{os.getpid()}"
    work = Path(tempfile.mkdtemp(prefix="gpu-advisor-fuzz-"))
    status, state = work / "status", work / "state" / "session.json"
    counts = {"byte_sends": 0, "bytes": 0, "keys": 0, "answers": 0, "resizes": 0, "checks": 0}
    result: dict = {"seed": seed, "work": str(work), "seconds": args.seconds, "palette": args.palette}
    failures: list[str] = []
    restarts = 0
    try:
        start(sock, work, args.lang, status)
        if not wait(lambda: "LoRA" in pane(sock), 40):
            failures.append("the first question never showed")
            raise SystemExit
        tmux(sock, "send-keys", "-t", "fuzz", "-l", CHINESE)
        tmux(sock, "send-keys", "-t", "fuzz", "Enter")
        if not wait(lambda: user_answers(state)[:1] == [CHINESE], 40):
            failures.append("the Chinese consultation was not saved")
            raise SystemExit
        end = time.monotonic() + args.seconds
        next_check = time.monotonic() + 2
        while time.monotonic() < end:
            roll = rng.random()
            if roll < 0.45:
                data = bytes(b for b in rng.randbytes(rng.randint(1, 24)) if b not in avoid) or b"x"
                tmux(sock, "send-keys", "-t", "fuzz", "-H", *(f"{b:02x}" for b in data))
                counts["byte_sends"] += 1
                counts["bytes"] += len(data)
            elif roll < 0.75:
                tmux(sock, "send-keys", "-t", "fuzz", rng.choice(KEYS))
                counts["keys"] += 1
            elif roll < 0.9:
                data = bytes(b for b in rng.randbytes(rng.randint(1, 40)) if b not in avoid)
                if rng.random() < 0.7:  # mostly into the input box: Escape closes a dialog, F2 comes back to it
                    tmux(sock, "send-keys", "-t", "fuzz", "Escape")
                    time.sleep(0.1)  # (a key right after Escape reads as Alt+key)
                    if "▊▔" not in pane(sock):  # the input box's border: not there on the results tab
                        tmux(sock, "send-keys", "-t", "fuzz", "F2")
                        time.sleep(0.2)  # the focus moves after the next refresh
                tmux(sock, "send-keys", "-t", "fuzz", "-H", *(f"{b:02x}" for b in data), "0d")
                counts["answers"] += 1
                counts["bytes"] += len(data) + 1
            else:
                for _ in range(rng.randint(3, 25)):
                    w, h = rng.randint(1, 300), rng.randint(1, 90)
                    tmux(sock, "resize-window", "-t", "fuzz", "-x", str(w), "-y", str(h), check=False)
                    counts["resizes"] += 1
                tmux(sock, "resize-window", "-t", "fuzz", "-x", "100", "-y", "30", check=False)
            time.sleep(rng.choice([0, 0, 0.01, 0.05, 0.1, 0.3]))
            if time.monotonic() > next_check:
                next_check = time.monotonic() + 2
                counts["checks"] += 1
                if dead(sock):
                    history = tmux(sock, "capture-pane", "-p", "-S", "-2000", "-t", "fuzz", check=False)
                    code = status.read_text().strip() if status.exists() else "?"
                    if args.palette and code == "0" and "Traceback" not in history and restarts < 20:
                        # The palette's Quit, chosen by random letters and Enter: a clean end. Start again.
                        restarts += 1
                        tmux(sock, "kill-session", "-t", "fuzz", check=False)
                        status.unlink(missing_ok=True)
                        start(sock, work, args.lang, status, "--resume")
                        wait(lambda: "▊▔" in pane(sock), 40)
                        continue
                    failures.append(f"the app ended during the fuzzing (status {code})")
                    result["screen_after_end"] = history.splitlines()[-60:]
                    break
        # Back to a known state: close any dialog, then quit.
        tmux(sock, "resize-window", "-t", "fuzz", "-x", "100", "-y", "30", check=False)
        time.sleep(1.0)
        screen = pane(sock)
        result["screen_at_end"] = screen.splitlines()[-6:]
        result["alive_at_end"] = not dead(sock)
        if not result["alive_at_end"]:
            failures.append("the app was not running at the end")
        for _ in range(4):
            tmux(sock, "send-keys", "-t", "fuzz", "Escape")
            time.sleep(0.2)
        tmux(sock, "send-keys", "-t", "fuzz", "-H", "11")  # Ctrl+Q
        if not wait(lambda: status.exists() and status.read_text().strip() != "", 40):
            failures.append("Ctrl+Q did not end the app")
            result["screen_after_ctrl_q"] = pane(sock).splitlines()
        else:
            result["exit_status"] = int(status.read_text().strip())
            if result["exit_status"] != 0:
                failures.append(f"exit status {result['exit_status']}")
        after = tmux(sock, "capture-pane", "-p", "-S", "-2000", "-t", "fuzz", check=False)
        if "Traceback" in after or "Error" in after:
            failures.append("a traceback or error on the screen after quitting")
            result["screen_after_quit"] = after.splitlines()[-40:]
        answers = user_answers(state)
        result["answers_saved"] = len(answers)
        if not args.palette and answers[:1] != [CHINESE]:
            failures.append("the Chinese consultation is no longer the first answer")
        tmux(sock, "kill-session", "-t", "fuzz", check=False)
        if not args.palette:  # checked after: the app resumes it
            status.unlink(missing_ok=True)
            start(sock, work, args.lang, status, "--resume")
            tmux(sock, "resize-window", "-t", "fuzz", "-x", "250", "-y", "60", check=False)  # the message on one line
            wanted = "".join(CHINESE.split())[:24]

            def shown() -> bool:
                tmux(sock, "send-keys", "-t", "fuzz", "PageUp")  # the first answer is at the top of the transcript
                return any(wanted in "".join(line.split()) for line in pane(sock).splitlines())

            result["resumed_screen_has_chinese"] = wait(shown, 40)
            if not result["resumed_screen_has_chinese"]:
                failures.append("the resumed app does not show the Chinese consultation")
                result["resumed_screen"] = pane(sock).splitlines()
            tmux(sock, "send-keys", "-t", "fuzz", "-H", "11")
            wait(lambda: status.exists() and status.read_text().strip() != "", 20)
    except SystemExit:
        pass
    finally:
        if args.keep and failures:
            result["kept"] = f"tmux -L {sock} attach -t fuzz"
        else:
            tmux(sock, "kill-server", check=False)
    result.update(counts)
    result["clean_quits_restarted"] = restarts
    result["failures"] = failures
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
