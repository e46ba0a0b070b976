"""`gpu-advisor kb search QUERY [--lang L] [--json] [-k N]`: look a question up in the knowledge base.

Why it exists: the same search the chat uses for "什么是显存碎片？" or "why ECC?", from the shell, so that
users and tests can see which entry answers a question, what it says in their language, the sourced
correction where the seed article's figure was marketing or outdated, and where it comes from.
The language is `--lang`, else the one the query is written in, else English. Only the knowledge base
and its search are imported: no Textual, no rules engine.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from advisor.locales import LOCALES, Locale


def _t(key: str, locale: Locale, **values: Any) -> str:
    """The command's words (knowledge/ui/commands.yaml, keys `kb.*`)."""
    from advisor.i18n import t

    return t(f"kb.{key}", locale, **values)


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """`kb` takes an action; the only one is `search`."""
    actions = parser.add_subparsers(dest="kb_action", metavar="ACTION", required=True)
    search = actions.add_parser(
        "search",
        help="Search the knowledge base (English or Chinese).",
        description="Search the knowledge base (English or Chinese).",
    )
    search.add_argument("query", nargs="+", help="the question or keywords")
    # SUPPRESS: keep a `--lang` given before the subcommand (gpu-advisor --lang zh-Hant kb search ...).
    search.add_argument(
        "--lang",
        choices=list(LOCALES),
        default=argparse.SUPPRESS,
        help="language of the answer (default: the query's language)",
    )
    search.add_argument("--json", action="store_true", help="print JSON")
    search.add_argument("-k", "--limit", type=int, default=3, help="most results to show (default 3)")


def _locale_for(args: argparse.Namespace, query: str) -> Locale:
    from advisor.i18n import detect_language

    forced = getattr(args, "lang", None)
    if forced in LOCALES:
        return forced
    return detect_language(query, "en") or "en"


def run(args: argparse.Namespace) -> int:
    """Print the entries that answer the query, best first; exit 1 when none does, 2 on bad input."""
    query = " ".join(getattr(args, "query", []) or []).strip()
    locale = _locale_for(args, query)
    if not query:
        print(_t("empty", locale), file=sys.stderr)
        return 2
    limit = getattr(args, "limit", 3)
    if not 1 <= limit <= 50:
        print(_t("bad-k", locale), file=sys.stderr)
        return 2

    from advisor.kb_search import search

    hits = search(query, locale, k=limit)
    if args.json:
        payload = {
            "query": query,
            "language": locale,
            "results": [
                {
                    "id": entry.id,
                    "score": score,
                    "title": entry.title.get(locale),
                    "text": entry.text.get(locale),
                    "correction": entry.correction.get(locale) if entry.correction else None,
                    "source": entry.source,
                    "tags": list(entry.tags),
                }
                for entry, score in hits
            ],
        }
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
        return 0 if hits else 1
    if not hits:
        print(_t("none", locale, query=query))
        return 1
    blocks = []
    for rank, (entry, _score) in enumerate(hits, start=1):
        lines = [f"{rank}. {entry.title.get(locale)}  [{entry.id}]", f"   {entry.text.get(locale)}"]
        if entry.correction is not None:
            lines.append("   " + _t("correction", locale, text=entry.correction.get(locale)))
        lines.append("   " + _t("source", locale, text=entry.source))
        blocks.append("\n".join(lines))
    sys.stdout.write("\n\n".join(blocks) + "\n")
    return 0
