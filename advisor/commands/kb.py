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

from advisor.models import LOCALES, Locale, Localized

_L = Localized.model_validate
_TEXT: dict[str, Localized] = {
    "help.search": _L({
        "en": "Search the knowledge base (English or Chinese).",
        "zh-Hans": "搜索知识库（中文或英文）。",
        "zh-Hant": "搜尋知識庫（中文或英文）。",
    }),
    "help.query": _L({"en": "the question or keywords", "zh-Hans": "问题或关键词", "zh-Hant": "問題或關鍵字"}),
    "help.lang": _L({
        "en": "language of the answer (default: the query's language)",
        "zh-Hans": "回答语言（默认：与问题相同）",
        "zh-Hant": "回答語言（預設：與問題相同）",
    }),
    "help.json": _L({"en": "print JSON", "zh-Hans": "输出 JSON", "zh-Hant": "輸出 JSON"}),
    "help.k": _L({"en": "most results to show (default 3)", "zh-Hans": "最多显示几条（默认 3）", "zh-Hant": "最多顯示幾筆（預設 3）"}),
    "correction": _L({"en": "Correction: {text}", "zh-Hans": "更正：{text}", "zh-Hant": "更正：{text}"}),
    "source": _L({"en": "Source: {text}", "zh-Hans": "来源：{text}", "zh-Hant": "來源：{text}"}),
    "none": _L({
        "en": "No knowledge entry matches “{query}”. Try other words, for example: ECC, LoRA, memory fragmentation, NVLink.",
        "zh-Hans": "知识库中没有与“{query}”相关的条目。换个说法试试，例如：ECC、LoRA、显存碎片、NVLink。",
        "zh-Hant": "知識庫中沒有與「{query}」相關的條目。換個說法試試，例如：ECC、LoRA、記憶體碎片、NVLink。",
    }),
    "empty": _L({
        "en": "Type a question or some keywords to search for.",
        "zh-Hans": "请输入要搜索的问题或关键词。",
        "zh-Hant": "請輸入要搜尋的問題或關鍵字。",
    }),
    "bad-k": _L({
        "en": "The number of results must be between 1 and 50.",
        "zh-Hans": "结果条数必须在 1 到 50 之间。",
        "zh-Hant": "結果筆數必須介於 1 到 50 之間。",
    }),
}


def _t(key: str, locale: Locale, **values: Any) -> str:
    text = _TEXT[key].get(locale)
    return text.format(**values) if values else text


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """`kb` takes an action; the only one is `search`."""
    actions = parser.add_subparsers(dest="kb_action", metavar="ACTION", required=True)
    search = actions.add_parser("search", help=_t("help.search", "en"), description=_t("help.search", "en"))
    search.add_argument("query", nargs="+", help=_t("help.query", "en"))
    # SUPPRESS: keep a `--lang` given before the subcommand (gpu-advisor --lang zh-Hant kb search ...).
    search.add_argument("--lang", choices=list(LOCALES), default=argparse.SUPPRESS, help=_t("help.lang", "en"))
    search.add_argument("--json", action="store_true", help=_t("help.json", "en"))
    search.add_argument("-k", "--limit", type=int, default=3, help=_t("help.k", "en"))


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
