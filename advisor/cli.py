"""Entry point `gpu-advisor`: the TUI by default, and the headless subcommands of DESIGN.md.

Each subcommand lives in `advisor/commands/<name>.py` with `add_arguments(parser)` and
`run(args) -> int`. Only the module of the subcommand given is imported (`--help` lists the others
by name), and those modules import their heavy dependencies inside `run`, so that `gpu-advisor
estimate` never pays for Textual, Jinja or durable-rules, and `--version` for nothing at all. No
traceback reaches the user: a broken knowledge file, a bad path or an unexpected error ends with
one clear line.
"""

from __future__ import annotations

import sys

from advisor import __version__

TYPE_CHECKING = False  # not `typing`'s: importing typing is half the cost of `--version`
if TYPE_CHECKING:
    import argparse

SUBCOMMANDS = {
    "chat": ("advisor.commands.chat", "Run the conversation without a terminal UI."),
    "recommend": ("advisor.commands.recommend", "Recommend from a saved profile (JSON or YAML)."),
    "estimate": ("advisor.commands.estimate", "Memory, time, power and cost of one configuration."),
    "gpus": ("advisor.commands.catalog", "List the GPU catalogue."),
    "models": ("advisor.commands.catalog", "List the model catalogue."),
    "kb": ("advisor.commands.kb", "Search the knowledge base."),
    "web": ("advisor.commands.web", "Serve the same app to a browser (needs the 'web' extra: textual-serve)."),
}


def _command_in(argv: list[str]) -> str | None:
    """The subcommand `argv` names: its first word that is not an option (nor `--lang`'s value)."""
    words = iter(argv)
    for word in words:
        if word == "--lang":
            next(words, None)
        elif not word.startswith("-"):
            return word if word in SUBCOMMANDS else None
    return None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; only the subcommand `argv` names gets its options (and its module imported).
    Without `argv`, every subcommand gets them (documentation, tests)."""
    import argparse
    import importlib

    wanted = _command_in(argv) if argv is not None else None
    parser = argparse.ArgumentParser(
        prog="gpu-advisor",
        description="Which GPUs to buy or rent to train, fine-tune or serve a model — and why.",
    )
    parser.add_argument("--version", action="version", version=f"gpu-advisor {__version__}")
    parser.add_argument("--lang", choices=["en", "zh-Hans", "zh-Hant"], help="force the language")
    parser.add_argument("--resume", action="store_true", help="restore the unfinished consultation")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        if argv is None or name == wanted:
            module = importlib.import_module(module_name)
            module.add_arguments(sp, name)
            sp.set_defaults(_module=module)
    return parser


def _check_data() -> None:
    """Validate the knowledge base and the rules before a conversation starts, so that a broken file
    stops start-up with one line naming the file, the entry and the problem (not mid-conversation)."""
    from advisor.knowledge import knowledge
    from advisor.rules_engine import load_rules

    knowledge()
    load_rules()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--version"]:  # the commonest probe of all, answered before argparse is imported
        print(f"gpu-advisor {__version__}")
        return 0
    args = build_parser(argv).parse_args(argv)
    from advisor.paths import KnowledgeError

    try:
        if args.command in (None, "chat", "recommend", "web"):
            _check_data()
        if args.command is None:
            from advisor.tui.app import run_app

            return run_app(lang=args.lang, resume=args.resume)
        return int(args._module.run(args) or 0)
    except KnowledgeError as exc:
        print(f"gpu-advisor: a data file is broken — {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # last line of defence: one clear line, never a traceback
        from advisor.sanitize import one_line

        print(f"gpu-advisor: unexpected error: {type(exc).__name__}: {one_line(str(exc))}", file=sys.stderr)
        print("Set GPU_ADVISOR_DEBUG=1 to see the details.", file=sys.stderr)
        import os

        if os.environ.get("GPU_ADVISOR_DEBUG"):
            raise
        return 1


if __name__ == "__main__":
    sys.exit(main())
