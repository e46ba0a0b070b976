"""The dialogue: a pure state machine from what the user types to replies, with no terminal in it.

Why a module of its own: the TUI and `gpu-advisor chat` are both thin shells over `Conversation`
(docs/contracts.md), so that one tested flow serves both. It greets, asks only what is missing (in
the order task, model, data or serving load, precision, deadline, budget, facility), accepts each
question's default on an empty answer, reads several answers from one message, shows a summary to
confirm, recommends, and then answers "why?", "why not the 4090?", "what if the budget doubles?",
corrections in plain words and domain questions. Slash commands (/back, /reset, /lang, /help, /why,
/save) are handled here too. Every turn is saved to the session file before and after it is
handled, and no exception escapes `handle`: it becomes a localized error reply.
"""

from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor.conversation import questions as Q
from advisor.conversation import session as S
from advisor.conversation.numbers import NUMBER_RE, normalize_text, parse_number
from advisor.conversation.parsers import extract_detailed, gpu_mentions, parse_relative
from advisor.i18n import detect_language, normalize_locale, t
from advisor.models import LOCALES, Locale, Profile, Recommendation

REPLY_KINDS = ("text", "question", "summary", "recommendation", "answer", "error", "saved")
MAX_INPUT_CHARS = 4000
MAX_HISTORY = 60
MAX_TRANSCRIPT = 600

_FALLBACK_ERROR = "Something went wrong while handling that message. Your answers are kept; please try again."


@dataclass(frozen=True)
class Reply:
    """One message from the advisor: `kind` (see REPLY_KINDS), Markdown `text` in the current locale,
    and optional quick `choices` the front end may offer as buttons (each one parses as an answer)."""

    kind: str
    text: str
    choices: tuple[str, ...] = ()


# ---------------------------------------------------------------------------- words


def _clean(text: str) -> str:
    return re.sub(r"[\s。.!！~～,，;；]+$", "", normalize_text(text).strip().lower()).strip()


_ACCEPT = frozenset(
    """ ok okay k yes y yep yeah yup sure fine default defaults skip next go continue correct right confirm
    confirmed done lgtm whatever any
    """.split()
) | frozenset({
    "", "use default", "use the default", "go ahead", "looks good", "that's right", "thats right", "sounds good",
    "don't know", "dont know", "not sure", "no idea", "i don't know", "no preference", "either is fine",
    "默认", "默認", "预设", "預設", "跳过", "跳過", "好", "好的", "行", "可以", "是", "是的", "对", "對", "对的", "對的",
    "确定", "確定", "确认", "確認", "没问题", "沒問題", "嗯", "嗯嗯", "下一步", "继续", "繼續", "不知道", "不清楚",
    "随便", "隨便", "都行", "都可以", "用默认", "用默認", "用預設", "默认值", "預設值", "ok的", "好吧", "没错", "沒錯",
})
_NONE = frozenset({
    "none", "no", "nope", "n/a", "na", "no limit", "unlimited", "no deadline", "no budget", "nothing",
    "no fixed deadline", "no fixed budget", "无", "無", "没有", "沒有", "不限", "无限制", "無限制", "没有限制", "沒有限制",
    "不设", "不設", "不设限", "不設限", "没", "沒",
})
_KEEP = frozenset({
    "keep it", "keep", "keep that", "apply", "apply it", "adopt", "adopt it", "do it", "use it", "use that",
    "let's do that", "lets do that", "采用", "採用", "就这样", "就這樣", "就这么办", "就這麼辦", "用这个", "用這個",
    "保留", "就用这个", "就用這個", "好，就这样", "好，就這樣",
})
_NO = frozenset({"no", "nope", "wrong", "not right", "不对", "不對", "不是", "错", "錯", "不", "否"})
_QUESTION = re.compile(
    r"[?？]\s*$|^\s*(?:what|why|how|when|which|who|is|are|does|do|can|could|should|would|explain|tell\s+me)\b|"
    r"什么|什麼|为什么|為什麼|为何|為何|如何|怎么|怎麼|怎样|怎樣|是否|吗\s*$|嗎\s*$|呢\s*$|解释|解釋|介绍|介紹|区别|區別|差别|差別|啥",
    re.IGNORECASE,
)
_WHY_ONLY = re.compile(
    r"^\s*(?:why|why\s+(?:this|that|it|so|these)(?:\s+one)?|explain(?:\s+(?:it|this|that))?|reasons?|"
    r"为什么|為什麼|为啥|為啥|为何|為何|理由|原因|为什么这样|為什麼這樣|为什么推荐这个|為什麼推薦這個)\s*[?？!！.。]*\s*$",
    re.IGNORECASE,
)
_WHY_NOT = re.compile(
    r"why\s+(?:not|no|isn't|wasn't|didn't|don't|aren't|not\s+use)|what\s+about\s+the|how\s+about\s+the|"
    r"为什么不|為什麼不|为何不|為何不|怎么不|怎麼不|为啥不|為啥不|不推荐|不推薦|没推荐|沒推薦|不选|不選",
    re.IGNORECASE,
)
_WHAT_IF = re.compile(
    r"what\s+if|what\s+about|suppose|supposing|if\s+(?:we|i|the|our)|how\s+about|would\s+it|"
    r"如果|假如|假设|假設|要是|若是|换成|換成|改成.*呢|会怎样|會怎樣|呢\s*[?？]?\s*$",
    re.IGNORECASE,
)

# Answering the serving question, "100 users" means 100 concurrent users.
_IMAGES_BARE = re.compile(rf"{NUMBER_RE}\s*(?:张|張|幅)(?!\s*(?:卡|显卡|顯示卡|gpu))", re.IGNORECASE)
_USERS = re.compile(rf"{NUMBER_RE}\s*(?:个|個|位|名)?\s*(?:users?|people|clients?|用户|用戶|使用者|人)", re.IGNORECASE)

_COMMANDS = {
    "back": ("back", "返回", "上一步", "后退", "後退", "撤销", "撤銷"),
    "reset": ("reset", "restart", "重来", "重來", "重新开始", "重新開始", "重置"),
    "lang": ("lang", "language", "语言", "語言", "切换语言", "切換語言"),
    "help": ("help", "?", "帮助", "幫助", "说明", "說明", "help?"),
    "why": ("why", "为什么", "為什麼", "原因"),
    "save": ("save", "保存", "儲存", "存档", "存檔", "导出", "匯出"),
}
_COMMAND_OF = {alias: name for name, aliases in _COMMANDS.items() for alias in aliases}


def _said(fields: dict[str, Any]) -> bool:
    """Whether extracted fields say anything: a value, or an explicit "no deadline" / "no budget"."""
    return bool(_public(fields)) or bool(fields.get("_no_deadline") or fields.get("_no_budget"))


def _public(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if not k.startswith("_") and k != "model_config"}


def _env_locale() -> Locale:
    for var in ("GPU_ADVISOR_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if not value:
            continue
        v = value.split(".")[0].lower().replace("_", "-")
        if v.startswith(("zh-tw", "zh-hk", "zh-hant", "zh-mo")):
            return "zh-Hant"
        if v.startswith("zh"):
            return "zh-Hans"
        found = normalize_locale(value)
        if found:
            return found
        return "en"
    return "en"


# ---------------------------------------------------------------------------- the conversation


class Conversation:
    """One consultation. `start()` greets; `handle(text)` answers each message; `.profile`,
    `.recommendation` and `.locale` are what the front ends read.

    `state_path` is the session file (default `state_dir()/session.json`); `persist=False` keeps
    everything in memory. `auto_language=False` keeps `locale` whatever the user writes in."""

    def __init__(self, locale: Locale | str | None = None, state_path: str | os.PathLike[str] | None = None,
                 *, persist: bool = True, auto_language: bool = True):
        chosen = normalize_locale(locale) if isinstance(locale, str) else None
        self.locale: Locale = chosen or _env_locale()
        self.auto_language = auto_language
        self.persist = persist
        self._state_path: Path | None = Path(state_path) if state_path is not None else None
        self.profile = Profile(language=self.locale)
        self.recommendation: Recommendation | None = None
        self.stage = "collect"
        self.pending: str | None = "task"
        self.answered: set[str] = set()
        self.defaulted: set[str] = set()
        self.budget_assumed = False
        self.whatif: tuple[Profile, Recommendation] | None = None
        self.history: list[dict[str, Any]] = []
        self.transcript: list[dict[str, str]] = []
        self._notice: tuple[str, dict[str, Any]] | None = None
        self._replay: str | None = None
        self._started = False
        self._save_failed = False
        self._save_error = ""

    # ------------------------------------------------------------------ public API

    @property
    def state_path(self) -> Path | None:
        """The session file, or None when the conversation is not saved."""
        if not self.persist:
            return None
        if self._state_path is None:
            try:
                self._state_path = S.default_path()
            except OSError:
                return None
        return self._state_path

    @classmethod
    def resume(cls, path: str | os.PathLike[str] | None = None, *, locale: Locale | str | None = None,
               persist: bool = True, auto_language: bool = True) -> "Conversation":
        """Restore the conversation saved at `path` (default: the state folder's session file).

        A missing file gives a fresh conversation that says so; a corrupt one is moved aside
        (renamed, never deleted) and the fresh conversation's first reply names where it went."""
        conv = cls(locale, path, persist=persist, auto_language=auto_language)
        target = conv.state_path if path is None else Path(path)
        if target is None:
            conv._notice = ("conv.resume_none", {})
            return conv
        try:
            data = S.load(target)
            conv._restore(data)
            if locale is not None and normalize_locale(str(locale)):
                conv.locale = normalize_locale(str(locale))  # type: ignore[assignment]
            conv._notice = ("conv.resumed", {"count": sum(1 for e in conv.transcript if e.get("role") == "user")})
            conv._started = True
        except FileNotFoundError:
            conv._notice = ("conv.resume_none", {})
        except Exception:  # unreadable, not JSON, wrong shape, invalid values: keep it, start afresh
            fresh = cls(locale, path, persist=persist, auto_language=auto_language)
            try:
                moved = S.move_aside(target)
                fresh._notice = ("conv.resume_corrupt", {"moved": str(moved)})
            except OSError:
                fresh._notice = ("conv.resume_none", {})
            return fresh
        return conv

    def start(self) -> list[Reply]:
        """The opening replies: the greeting (or the resume notice) and the first open question."""
        try:
            replies: list[Reply] = []
            if self._notice:
                key, values = self._notice
                kind = "error" if key == "conv.resume_corrupt" else "text"
                replies.append(Reply(kind, t(key, self.locale, **values)))
                self._notice = None
            resumed = self._started
            if not resumed:
                replies.append(Reply("text", t("conv.greeting", self.locale)))
            self._started = True
            if self._replay is not None:
                text, self._replay = self._replay, None
                replies += self.handle(text)
                return replies
            replies += self._prompt()
            self._log_assistant(replies)
            self._save()
            return replies
        except Exception as exc:  # never a traceback for the user
            return [self._error_reply(exc)]

    def handle(self, text: str) -> list[Reply]:
        """Answer one message. Never raises; the state is saved before and after."""
        try:
            text = "" if text is None else str(text)
        except Exception:
            text = ""
        try:
            self._save(inbox=text)
        except Exception:
            pass
        try:
            replies = self._handle(text)
        except Exception as exc:
            replies = [self._error_reply(exc)]
        try:
            self.transcript.append({"role": "user", "text": text[:MAX_INPUT_CHARS]})
            self._log_assistant(replies)
            self._save()
        except Exception:
            pass
        if self._save_failed is True:
            self._save_failed = None  # type: ignore[assignment]  # tell once
            try:
                replies.append(Reply("error", t("conv.error.save_session", self.locale, path=str(self._state_path),
                                                detail=self._save_error)))
            except Exception:
                pass
        return replies

    @property
    def finished(self) -> bool:
        """True once a recommendation exists."""
        return self.recommendation is not None and self.stage == "advise"

    # ------------------------------------------------------------------ dispatch

    def _handle(self, text: str) -> list[Reply]:
        truncated = len(text) > MAX_INPUT_CHARS
        text = text[:MAX_INPUT_CHARS]
        stripped = normalize_text(text).strip()
        if stripped.startswith("/"):
            # The command word is read normalized; its argument (a path) exactly as typed.
            raw = text.strip()
            parts = raw.split(None, 1)
            return self._command(stripped, parts[1].strip() if len(parts) > 1 else "")
        self._follow_language(stripped)
        prefix = [Reply("text", t("conv.problem.too_long", self.locale, limit=MAX_INPUT_CHARS))] if truncated else []
        if self.stage == "collect":
            return prefix + self._collect(stripped)
        if self.stage == "confirm":
            return prefix + self._confirm(stripped)
        return prefix + self._advise(stripped)

    def _follow_language(self, text: str) -> None:
        if not self.auto_language:
            return
        found = detect_language(text, self.locale)
        if found and found != self.locale:
            self._set_locale(found)

    def _set_locale(self, locale: Locale) -> None:
        self.locale = locale
        self.profile = self.profile.model_copy(update={"language": locale})

    # ------------------------------------------------------------------ collecting answers

    def _collect(self, text: str) -> list[Reply]:
        key = self.pending or "task"
        question = Q.BY_KEY[key]
        cleaned = _clean(text)
        if cleaned in _ACCEPT or (key in ("deadline", "budget") and cleaned in _NONE):
            self._push_history()
            self._take_default(question)
            return self._prompt()
        fields, problems = self._read(text, key)
        public = _public(fields)
        if not _said(fields):
            if _QUESTION.search(text) and not problems:
                return self._kb_answer(text) + [Reply("text", t("conv.kb.back", self.locale))] + self._prompt()
            replies = [Reply("error", self._problem_text(problems) or t("conv.reask", self.locale))]
            return replies + self._prompt()
        self._push_history()
        captured = self._apply(fields)
        # Answering the question asked with its other half counts: "rent" to the budget question,
        # "either" to the facility question.
        if key == "budget" and "acquisition" in public:
            self.answered.add("budget")
        replies: list[Reply] = []
        if captured:
            items = Q.field_items(captured, self.profile, self.locale)
            if items:
                replies.append(Reply("text", t("conv.noted", self.locale, items=self._join(items))))
        if problems:
            replies.append(Reply("error", self._problem_text(problems)))
        return replies + self._prompt()

    def _read(self, text: str, key: str | None) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
        """Fields and problems in `text`, reading a bare number as the answer to question `key`."""
        if key:
            bare, problem = Q.read_bare(key, text, self.profile)
            if bare or problem:
                return bare, ([(problem, {})] if problem else [])
        ex = extract_detailed(text, self.locale, task=self.profile.task)
        fields, problems = dict(ex.fields), list(ex.problems)
        if key == "data" and "samples" not in fields and "tokens" not in fields:
            images = _IMAGES_BARE.search(normalize_text(text))
            if images:  # answering the data question, "100 万张" means images
                n = parse_number(images.group("num"))
                if n is not None and 1 <= n <= 1e13:
                    fields["samples"], fields["_images"] = int(round(n)), True
        if key == "serving" and "concurrency" not in fields:
            users = _USERS.search(normalize_text(text))
            if users:
                n = parse_number(users.group("num"))
                if n is not None and 1 <= n < 1e9:
                    fields["concurrency"] = int(round(n))
        if key == "model" and "params" not in fields and not problems and not _QUESTION.search(text):
            if re.search(r"[A-Za-z\u3400-\u9fff]{2,}", text) and not _public(fields):
                problems.append(("conv.problem.model_unknown", {"text": Q.md_escape(text.strip()[:60])}))
        if key == "task" and not _public(fields) and not problems and not _QUESTION.search(text):
            problems.append(("conv.problem.task_unknown", {}))
        if key == "precision" and not _public(fields) and not problems and not _QUESTION.search(text):
            problems.append(("conv.problem.precision_unknown", {}))
        return fields, problems

    def _problem_text(self, problems: list[tuple[str, dict[str, Any]]]) -> str:
        texts = []
        for key, values in problems:
            values = dict(values)
            if key == "conv.problem.config":
                # The numeric core's ConfigError names its own localized message (knowledge/ui/model_config.yaml).
                try:
                    values["detail"] = t(values.get("key", ""), self.locale, **values.get("values", {}))
                except Exception:
                    pass
            try:
                texts.append(t(key, self.locale, **{k: v for k, v in values.items() if k not in ("key", "values")}))
            except (KeyError, IndexError, ValueError):
                texts.append(t("conv.reask", self.locale))
        return " ".join(texts)

    def _take_default(self, question: Q.Question) -> None:
        fields = question.default(self.profile)
        self._update(fields)
        self.answered.add(question.key)
        self.defaulted.add(question.key)
        if question.key == "budget":
            self.budget_assumed = False

    def _apply(self, fields: dict[str, Any]) -> dict[str, Any]:
        """Apply extracted fields to the profile; mark the questions they answer. Returns what changed."""
        public = _public(fields)
        if "owned_gpus" in public:
            merged = {g.gpu: g.count for g in self.profile.owned_gpus}
            for item in public["owned_gpus"]:
                merged[item["gpu"]] = item["count"]
            public["owned_gpus"] = [{"gpu": g, "count": n} for g, n in merged.items()]
        if "params" in public and "model" not in public:
            sibling = _sibling_model(self.profile.model, public["params"])
            if sibling is not None:  # "not 8B, 70B" after Llama 3 8B means Llama 3 70B
                public.update(model=sibling.id, model_text=sibling.name, params=sibling.params,
                              active_params=sibling.active_params)
            else:
                public["model"] = None  # a bare size replaces a catalogue model
                public.setdefault("active_params", None)
        if "model" in public and "active_params" not in public:
            public["active_params"] = None
        if "budget_usd" in public:
            self.budget_assumed = bool(fields.get("_budget_currency_assumed"))
        if fields.get("_no_deadline"):
            public["deadline_days"] = None
        if fields.get("_no_budget"):
            public.update(budget_usd=None, budget_amount=None, budget_currency=None)
        applied = self._update(public)
        for question in Q.QUESTIONS:
            if question.answered_by(fields):
                self.answered.add(question.key)
                self.defaulted.discard(question.key)
                partial = Q.complete_partial(question.key, self.profile, fields)
                if partial:
                    self._update(partial)
        # Defaults that depend on other answers follow them (pretraining tokens follow the model size).
        if ("params" in applied or "task" in applied) and "data" in self.defaulted:
            self._update(Q.BY_KEY["data"].default(self.profile))
        if ("model" in applied or "task" in applied) and "serving" in self.defaulted:
            self._update(Q.BY_KEY["serving"].default(self.profile))
        return {**applied, **{k: v for k, v in fields.items() if k.startswith("_")}}

    def _update(self, fields: dict[str, Any]) -> dict[str, Any]:
        """Validate and apply `fields`; drop any that the Profile rejects. Returns the applied ones."""
        if not fields:
            return {}
        base = self.profile.model_dump()
        try:
            self.profile = Profile.model_validate({**base, **fields})
            return dict(fields)
        except ValidationError:
            pass
        applied = {}
        for name, value in fields.items():
            try:
                self.profile = Profile.model_validate({**self.profile.model_dump(), name: value})
                applied[name] = value
            except ValidationError:
                continue
        return applied

    def _next_question(self) -> Q.Question | None:
        for question in Q.QUESTIONS:
            if question.applies(self.profile) and question.key not in self.answered:
                return question
        return None

    def _prompt(self) -> list[Reply]:
        """Ask the next open question, or show the summary when everything is answered."""
        if self.stage == "advise" and self.recommendation is not None and self._next_question() is None:
            return [Reply("text", t("conv.rec.next", self.locale))]
        question = self._next_question()
        if question is not None:
            self.stage, self.pending = "collect", question.key
            return [Reply("question", question.text(self.profile, self.locale), question.choices(self.locale))]
        self.stage, self.pending = "confirm", None
        return [Reply("summary", Q.summary_markdown(self.profile, self.locale), (t("conv.choice.yes", self.locale),))]

    # ------------------------------------------------------------------ confirm

    def _confirm(self, text: str) -> list[Reply]:
        cleaned = _clean(text)
        if cleaned in _ACCEPT:
            return self._recommend_now()
        fields, problems = self._read(text, None)
        if _said(fields):
            self._push_history()
            captured = self._apply(fields)
            replies = []
            items = Q.field_items(captured, self.profile, self.locale)
            if items:
                replies.append(Reply("text", t("conv.updated", self.locale, items=self._join(items))))
            if problems:
                replies.append(Reply("error", self._problem_text(problems)))
            return replies + self._prompt()
        if problems:
            return [Reply("error", self._problem_text(problems))] + self._prompt()
        if _QUESTION.search(text) and cleaned not in _NO:
            return self._kb_answer(text) + [Reply("text", t("conv.kb.back", self.locale))] + self._prompt()
        if cleaned in _NO:
            return [Reply("text", t("conv.confirm.what", self.locale))]
        return [Reply("error", t("conv.reask", self.locale))] + self._prompt()

    # ------------------------------------------------------------------ recommendation

    def _run_recommend(self, profile: Profile) -> Recommendation:
        from advisor.recommend import recommend

        return recommend(profile, self.locale)

    def _recommend_now(self) -> list[Reply]:
        try:
            rec = self._run_recommend(self.profile)
        except Exception as exc:
            return [Reply("error", t("conv.error.engine", self.locale, detail=_short(exc)))] + self._prompt()
        self._push_history()
        self.recommendation = rec
        self.whatif = None
        self.stage, self.pending = "advise", None
        return self._show_recommendation()

    def _show_recommendation(self) -> list[Reply]:
        rec = self.recommendation
        assert rec is not None
        try:
            from advisor.report import render

            body = render(rec, "chat", self.locale)
        except Exception:
            body = self._fallback_render(rec)
        replies = [Reply("recommendation", body)]
        if not rec.recommendations:
            replies.append(Reply("text", t("conv.rec.empty", self.locale)))
        if body == self._fallback_render(rec):
            replies.append(Reply("text", t("conv.rec.next", self.locale)))  # the report's bubble has its own hint
        return replies

    def _fallback_render(self, rec: Recommendation) -> str:
        lines = [t("conv.rec.intro", self.locale), ""]
        for i, cand in enumerate(rec.recommendations[:3], 1):
            lines.append(f"{i}. {self._option_text(rec, i - 1)}")
        return "\n".join(lines)

    def _option_text(self, rec: Recommendation | None, index: int = 0) -> str:
        if rec is None or len(rec.recommendations) <= index:
            return t("conv.whatif.none_fits", self.locale)
        c = rec.recommendations[index]
        try:
            from advisor.report import fmt_hours, strategy_label

            time_text = fmt_hours(c.time_hours, self.locale) if c.time_hours is not None else "—"
            strategy = strategy_label(c.strategy, self.locale)
        except Exception:
            time_text = f"{c.time_hours:.3g} h" if c.time_hours is not None else "—"
            strategy = c.strategy
        key = "conv.option" if c.time_hours is not None else "conv.option.serving"
        return t(key, self.locale, count=c.count, gpu=c.gpu_name, strategy=strategy,
                 acquisition=t(f"conv.acq.{c.acquisition}", self.locale),
                 cost=t("conv.fmt.usd", self.locale, n=Q.fmt_money(c.cost_usd)), time=time_text)

    # ------------------------------------------------------------------ after the recommendation

    def _advise(self, text: str) -> list[Reply]:
        cleaned = _clean(text)
        if self.whatif is not None and cleaned in _KEEP:
            profile, rec = self.whatif
            self._push_history()
            self.profile, self.recommendation, self.whatif = profile.model_copy(update={"language": self.locale}), rec, None
            return [Reply("text", t("conv.whatif.kept", self.locale))] + self._show_recommendation()
        if self.recommendation is None:
            return self._recommend_now()
        if _WHY_ONLY.match(text):
            return self._why()
        ex = extract_detailed(text, self.locale, task=self.profile.task)
        named = gpu_mentions(text) if _WHY_NOT.search(text) else []
        if named:
            return self._why_not(named[0])
        public = _public(ex.fields)
        relative = parse_relative(text)
        if _WHAT_IF.search(text) and (_said(ex.fields) or relative):
            return self._what_if(ex.fields, relative)
        if _WHAT_IF.search(text) and not _QUESTION.search(text.replace("what if", "")):
            return [Reply("answer", t("conv.whatif.nothing", self.locale))]
        if _said(ex.fields) and not (_QUESTION.search(text) and not public):
            return self._correct(ex.fields, ex.problems)
        if ex.problems:
            return [Reply("error", self._problem_text(ex.problems))]
        if _WHY_NOT.search(text):
            return [Reply("answer", t("conv.whynot.unknown", self.locale))]
        if _QUESTION.search(text):
            return self._kb_answer(text)
        if cleaned in _ACCEPT or cleaned in _NO:
            return [Reply("text", t("conv.rec.next", self.locale))]
        return [Reply("text", t("conv.advise.hint", self.locale))]

    def _correct(self, fields: dict[str, Any], problems: list[tuple[str, dict[str, Any]]]) -> list[Reply]:
        before = self.recommendation
        self._push_history()
        captured = self._apply(fields)
        replies: list[Reply] = []
        items = Q.field_items(captured, self.profile, self.locale)
        if items:
            replies.append(Reply("text", t("conv.updated", self.locale, items=self._join(items))))
        if problems:
            replies.append(Reply("error", self._problem_text(problems)))
        if self._next_question() is not None:
            self.recommendation = None
            self.stage = "collect"
            return replies + self._prompt()
        try:
            rec = self._run_recommend(self.profile)
        except Exception as exc:
            return replies + [Reply("error", t("conv.error.engine", self.locale, detail=_short(exc)))]
        self.recommendation, self.whatif = rec, None
        replies.append(Reply("answer", self._diff_text(before, rec)))
        return replies + self._show_recommendation()

    def _what_if(self, fields: dict[str, Any], relative: dict[str, float]) -> list[Reply]:
        change = dict(_public(fields))
        if fields.get("_no_deadline"):
            change["deadline_days"] = None
        if fields.get("_no_budget"):
            change.update(budget_usd=None, budget_amount=None, budget_currency=None)
        for name, factor in relative.items():
            base = getattr(self.profile, name, None)
            if base is None:
                continue
            value = base * factor
            change[name] = int(round(value)) if isinstance(base, int) else value
            if name == "budget_usd" and self.profile.budget_amount:
                change["budget_amount"] = self.profile.budget_amount * factor
        if not change:
            return [Reply("answer", t("conv.whatif.nothing", self.locale))]
        saved = (self.profile, set(self.answered), set(self.defaulted), self.budget_assumed)
        try:
            applied = self._apply({**fields, **change})
            hypothetical = self.profile
            needs = self._next_question()
        finally:
            self.profile, self.answered, self.defaulted, self.budget_assumed = saved[0], saved[1], saved[2], saved[3]
        if not _public(applied):
            return [Reply("answer", t("conv.whatif.nothing", self.locale))]
        if needs is not None:
            hypothetical = hypothetical.model_copy(update=needs.default(hypothetical))
        try:
            rec = self._run_recommend(hypothetical)
        except Exception as exc:
            return [Reply("error", t("conv.error.engine", self.locale, detail=_short(exc)))]
        self.whatif = (hypothetical, rec)
        items = Q.field_items(applied, hypothetical, self.locale)
        lines = [t("conv.whatif.title", self.locale, change=self._join(items)), "",
                 self._diff_text(self.recommendation, rec), "", t("conv.whatif.keep", self.locale)]
        return [Reply("answer", "\n".join(lines))]

    def _diff_text(self, before: Recommendation | None, after: Recommendation) -> str:
        same = False
        if before is not None and before.recommendations and after.recommendations:
            a, b = before.recommendations[0], after.recommendations[0]
            same = (a.gpu, a.count, a.strategy, a.acquisition) == (b.gpu, b.count, b.strategy, b.acquisition)
        elif before is not None and not before.recommendations and not after.recommendations:
            same = True
        lines = [
            "- " + t("conv.whatif.before", self.locale, text=self._option_text(before)),
            "- " + t("conv.whatif.after", self.locale, text=self._option_text(after)),
            "",
            t("conv.whatif.same" if same else "conv.whatif.changed", self.locale),
        ]
        return "\n".join(lines)

    def _why(self) -> list[Reply]:
        rec = self.recommendation
        if rec is None:
            return [Reply("answer", t("conv.why.none", self.locale))]
        lines: list[str] = []
        try:
            from advisor.report import fmt_bytes, fmt_power, finding_text, citation_titles
        except Exception:  # report module missing: plain numbers
            fmt_bytes = lambda n: f"{(n or 0) / 1e9:.1f} GB"  # noqa: E731
            fmt_power = lambda w: f"{(w or 0) / 1000:.1f} kW"  # noqa: E731
            finding_text = lambda f, loc, written: f.text  # noqa: E731
            citation_titles = lambda ids, loc: [{"id": i, "title": i} for i in ids]  # noqa: E731
        findings = []
        if rec.recommendations:
            c = rec.recommendations[0]
            lines.append(t("conv.why.title", self.locale, choice=self._option_text(rec)))
            lines.append("")
            m = c.memory_per_gpu
            lines.append("- " + t("conv.why.memory", self.locale, total=fmt_bytes(m.total), capacity=fmt_bytes(c.capacity_bytes),
                                  weights=fmt_bytes(m.weights), gradients=fmt_bytes(m.gradients),
                                  optimizer=fmt_bytes(m.optimizer), activations=fmt_bytes(m.activations),
                                  kv_cache=fmt_bytes(m.kv_cache), overhead=fmt_bytes(m.overhead)))
            if c.time_hours is not None:
                try:
                    from advisor.report import fmt_hours_range

                    time_text = fmt_hours_range(c.time_hours_low, c.time_hours, c.time_hours_high, self.locale)
                except Exception:
                    time_text = f"{c.time_hours:.3g} h"
                lines.append("- " + t("conv.why.time", self.locale, time=time_text))
            lines.append("- " + t("conv.why.cost", self.locale, acquisition=t(f"conv.acq.{c.acquisition}", self.locale),
                                  cost=t("conv.fmt.usd", self.locale, n=Q.fmt_money(c.cost_usd)),
                                  power=fmt_power(c.power_w), facility=fmt_power(c.facility_w)))
            findings = list(c.findings)
        else:
            for r in rec.rejected[:3]:
                findings.extend(r.reasons[:1])
        findings += list(rec.findings)
        lines.append("")
        if findings:
            lines.append(t("conv.why.findings", self.locale))
            seen = set()
            for f in findings:
                if f.rule_id in seen:
                    continue
                seen.add(f.rule_id)
                try:
                    text = finding_text(f, self.locale, rec.profile.language)
                except Exception:
                    text = f.text
                cite = ""
                if f.cites:
                    try:
                        titles = ", ".join(c_["title"] for c_ in citation_titles(f.cites, self.locale))
                    except Exception:
                        titles = ", ".join(f.cites)
                    label = t("conv.why.cites", self.locale)
                    cite = f" ({label}: {titles})" if self.locale == "en" else f"（{label}：{titles}）"
                lines.append(f"- `{f.rule_id}` {text}{cite}")
        else:
            lines.append(t("conv.why.no_findings", self.locale))
        return [Reply("answer", "\n".join(lines).strip())]

    def _why_not(self, gpu_id: str) -> list[Reply]:
        if self.recommendation is None:
            return [Reply("answer", t("conv.why.none", self.locale))]
        try:
            from advisor.recommend import explain_gpu

            return [Reply("answer", explain_gpu(self.recommendation, gpu_id, self.locale))]
        except Exception as exc:
            return [Reply("error", t("conv.error.engine", self.locale, detail=_short(exc)))]

    def _kb_answer(self, text: str) -> list[Reply]:
        try:
            from advisor.kb_search import search

            results = search(text, self.locale, k=3)
        except Exception:
            results = []
        if not results:
            return [Reply("answer", t("conv.kb.none", self.locale))]
        entry = results[0][0]
        body = [f"**{entry.title.get(self.locale)}**", "", entry.text.get(self.locale)]
        if getattr(entry, "correction", None) is not None:
            body += ["", entry.correction.get(self.locale)]
        others = [e.title.get(self.locale) for e, _ in results[1:]]
        if others:
            body += ["", t("conv.kb.related", self.locale, titles=self._join(others))]
        return [Reply("answer", "\n".join(body))]

    # ------------------------------------------------------------------ commands

    def _command(self, text: str, raw_arg: str | None = None) -> list[Reply]:
        parts = text[1:].strip().split(None, 1)
        word = parts[0].lower() if parts else ""
        arg = parts[1].strip() if len(parts) > 1 else ""
        if raw_arg is not None and arg:
            arg = raw_arg
        name = _COMMAND_OF.get(word)
        if name is None:
            self._follow_language(text[1:])
            return [Reply("error", t("conv.command.unknown", self.locale, command="/" + word[:30].replace("`", "'")))]
        if name == "help":
            return [Reply("text", t("conv.help", self.locale))]
        if name == "lang":
            found = normalize_locale(arg) if arg else None
            if found is None:
                return [Reply("error", t("conv.lang.usage", self.locale))]
            self._set_locale(found)
            return [Reply("text", t("conv.lang.set", self.locale))] + self._reprompt()
        if name == "why":
            return self._why()
        if name == "save":
            return self._save_report(arg)
        if name == "reset":
            keep_locale, keep_auto = self.locale, self.auto_language
            self.__init__(keep_locale, self._state_path, persist=self.persist, auto_language=keep_auto)  # type: ignore[misc]
            self._started = True
            return [Reply("text", t("conv.reset.done", self.locale))] + self._prompt()
        if name == "back":
            if not self.history:
                return [Reply("error", t("conv.back.none", self.locale))] + self._reprompt()
            self._restore_snapshot(self.history.pop())
            return [Reply("text", t("conv.back.done", self.locale))] + self._reprompt()
        return [Reply("error", t("conv.command.unknown", self.locale, command="/" + word[:30]))]

    def _reprompt(self) -> list[Reply]:
        if self.stage == "advise" and self.recommendation is not None:
            return [Reply("text", t("conv.rec.next", self.locale))]
        if self.stage == "advise":
            self.stage = "confirm"
        return self._prompt()

    def _save_report(self, arg: str) -> list[Reply]:
        path = arg.strip().strip("\"'“”「」")
        if not path:
            return [Reply("error", t("conv.save.usage", self.locale))]
        if self.recommendation is None:
            return [Reply("error", t("conv.save.none", self.locale))]
        try:
            from advisor.report import ReportError, save_report
        except Exception as exc:
            return [Reply("error", t("conv.save.failed", self.locale, path=path, detail=_short(exc)))]
        try:
            written = save_report(self.recommendation, path, locale=self.locale)
        except ReportError as exc:
            try:
                detail = exc.message(self.locale)
            except Exception:
                detail = str(exc)
            return [Reply("error", t("conv.save.failed", self.locale, path=path, detail=detail))]
        except Exception as exc:
            return [Reply("error", t("conv.save.failed", self.locale, path=path, detail=_short(exc)))]
        return [Reply("saved", t("conv.saved", self.locale, path=str(written)))]

    # ------------------------------------------------------------------ history and persistence

    def _snapshot(self, with_rec: bool = True) -> dict[str, Any]:
        snap = {
            "locale": self.locale,
            "profile": self.profile.model_dump(mode="json"),
            "stage": self.stage,
            "pending": self.pending,
            "answered": sorted(self.answered),
            "defaulted": sorted(self.defaulted),
            "budget_assumed": self.budget_assumed,
        }
        if with_rec:
            snap["_rec"] = self.recommendation
        return snap

    def _push_history(self) -> None:
        self.history.append(self._snapshot())
        del self.history[:-MAX_HISTORY]

    def _restore_snapshot(self, snap: dict[str, Any]) -> None:
        self.profile = Profile.model_validate(snap["profile"]).model_copy(update={"language": self.locale})
        stage = snap.get("stage", "collect")
        self.stage = stage if stage in ("collect", "confirm", "advise") else "collect"
        pending = snap.get("pending")
        self.pending = pending if pending in Q.BY_KEY else None
        self.answered = {k for k in snap.get("answered", []) if k in Q.BY_KEY}
        self.defaulted = {k for k in snap.get("defaulted", []) if k in Q.BY_KEY}
        self.budget_assumed = bool(snap.get("budget_assumed", False))
        rec = snap.get("_rec")
        self.recommendation = rec if isinstance(rec, Recommendation) else None
        self.whatif = None
        if self.stage == "advise" and self.recommendation is None:
            self.stage = "confirm"
        if self.stage == "collect" and self.pending is None:
            self.pending = "task"

    def to_state(self) -> dict[str, Any]:
        """Everything needed to resume, as plain JSON-able data."""
        state = self._snapshot(with_rec=False)
        state["auto_language"] = self.auto_language
        state["history"] = [{k: v for k, v in h.items() if k != "_rec"} for h in self.history]
        state["transcript"] = self.transcript[-MAX_TRANSCRIPT:]
        state["recommendation"] = self.recommendation.model_dump(mode="json") if self.recommendation else None
        return state

    def _restore(self, data: dict[str, Any]) -> None:
        locale = normalize_locale(str(data.get("locale", "en")))
        if locale is None:
            raise S.SessionError("bad locale")
        self.locale = locale
        self._restore_snapshot(data)
        history = data.get("history", [])
        if not isinstance(history, list):
            raise S.SessionError("bad history")
        for snap in history:
            Profile.model_validate(snap["profile"])  # every snapshot must be valid
        self.history = [copy.deepcopy(h) for h in history][-MAX_HISTORY:]
        transcript = data.get("transcript", [])
        if not isinstance(transcript, list) or not all(isinstance(e, dict) for e in transcript):
            raise S.SessionError("bad transcript")
        self.transcript = [{"role": str(e.get("role", "")), "text": str(e.get("text", "")),
                            **({"kind": str(e["kind"])} if "kind" in e else {})} for e in transcript]
        rec = data.get("recommendation")
        if rec:
            try:
                self.recommendation = Recommendation.model_validate(rec)
            except ValidationError:
                self.recommendation = None
        if data.get("stage") == "advise" and self.recommendation is not None:
            self.stage = "advise"
        inbox = data.get("inbox")
        if isinstance(inbox, str):
            self._replay = inbox

    def _save(self, inbox: str | None = None) -> None:
        path = self.state_path
        if path is None:
            return
        state = self.to_state()
        if inbox is not None:
            state["inbox"] = inbox[:MAX_INPUT_CHARS]
        try:
            S.save(path, state)
        except (OSError, ValueError) as exc:
            if self._save_failed is False:
                self._save_failed = True
                self._save_error = _short(exc)

    def _log_assistant(self, replies: list[Reply]) -> None:
        for r in replies:
            self.transcript.append({"role": "assistant", "kind": r.kind, "text": r.text})
        del self.transcript[:-MAX_TRANSCRIPT]

    # ------------------------------------------------------------------ helpers

    def _join(self, items: list[str]) -> str:
        return ("; " if self.locale == "en" else "；").join(items)

    def _error_reply(self, exc: BaseException) -> Reply:
        try:
            return Reply("error", t("conv.error.internal", self.locale, detail=_short(exc)))
        except Exception:
            return Reply("error", _FALLBACK_ERROR)


def _sibling_model(current: str | None, params: int) -> Any:
    """The catalogue model of the same family as `current` whose size is `params` (within 10 %), if any."""
    if not current:
        return None
    from advisor.knowledge import knowledge

    kb = knowledge()
    spec = kb.models.get(current)
    if spec is None or not params:
        return None
    best, best_score = None, -1
    for other in kb.models.values():
        if other.id == current or other.family != spec.family or abs(other.params - params) / params > 0.1:
            continue
        prefix = len(os.path.commonprefix([spec.id, other.id]))
        if prefix > best_score:
            best, best_score = other, prefix
    return best


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    name = type(exc).__name__
    return f"{name}: {text[:160]}" if text else name


__all__ = ["Conversation", "Reply", "REPLY_KINDS", "LOCALES"]
