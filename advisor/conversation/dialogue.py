"""The dialogue: what the user typed, and the state so far, in; the next state, the replies and what to do, out.

Why it is pure: the TUI and `gpu-advisor chat` both drive one consultation service
(`advisor.consultation`), which executes what the dialogue decides (recommend, compare, save,
look up) and owns the session file. The dialogue itself does no I/O and imports neither the
recommender nor the reports, so every decision it makes is a plain function of its input:
`start(state)` and `handle(state, text)` return a `Turn` — the next `State` (one immutable value,
saved and restored as it is), the replies to show and a typed `Intent` for the service.

It greets, asks only what is missing (task, model, data or serving load, precision, deadline,
budget, facility), accepts each question's default on an empty answer (the defaults are the
planner's, and the profile records which keys were assumed), reads several answers from one
message, shows a summary to confirm, and afterwards reads "why?", "why not the 4090?", "what if the
budget doubles?", corrections in plain words and domain questions. Slash commands (/back, /reset,
/lang, /help, /why, /save) are read here too.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError

from advisor import format as fmt
from advisor.conversation import questions as Q
from advisor.conversation.numbers import NUMBER_RE, lazy_compile, normalize_text, parse_number
from advisor.conversation.parsers import (
    Extraction,
    extract_detailed,
    gpu_mentions,
    gpu_mentions_counted,
    parse_relative,
)
from advisor.i18n import detect_language, normalize_locale, t
from advisor.knowledge import knowledge
from advisor.models import LOCALES, Locale, Profile

REPLY_KINDS = ("text", "question", "summary", "recommendation", "answer", "error", "saved")
MAX_INPUT_CHARS = 4000
MAX_HISTORY = 60
STAGES = ("collect", "confirm", "advise")


@dataclass(frozen=True)
class Reply:
    """One message from the advisor: `kind` (see REPLY_KINDS), Markdown `text` in the current locale,
    and optional quick `choices` the front end may offer as buttons (each one parses as an answer)."""

    kind: str
    text: str
    choices: tuple[str, ...] = ()


# ---------------------------------------------------------------------------- intents: what the service does


@dataclass(frozen=True)
class Ask:
    """Nothing to do: the replies ask the next question (or re-ask)."""


@dataclass(frozen=True)
class Confirm:
    """Nothing to do: the replies show the summary for the user to confirm."""


@dataclass(frozen=True)
class Recommend:
    """Run the recommender on `profile` and show the result; `correction`: show it against the one before."""

    profile: Profile
    correction: bool = False


@dataclass(frozen=True)
class WhatIf:
    """Run the recommender on a hypothetical `profile` and compare; `change` words what changed."""

    profile: Profile
    change: tuple[str, ...]


@dataclass(frozen=True)
class KeepWhatIf:
    """The user adopted the what-if: it becomes the recommendation (`profile` is the new profile)."""

    profile: Profile


@dataclass(frozen=True)
class Why:
    """Explain the top recommendation."""


@dataclass(frozen=True)
class WhyNot:
    """Explain why the GPU `gpu` (a catalogue id or alias) is not the top pick; `count` when the user named one.
    `gpu` None: "why not 8?" asks about the top pick's own GPU at another count."""

    gpu: str | None
    count: int | None = None


@dataclass(frozen=True)
class Save:
    """Save the report at `path` (format from the suffix, or `fmt`)."""

    path: str
    fmt: str | None = None


@dataclass(frozen=True)
class Knowledge:
    """Answer a domain question from the knowledge base."""

    query: str


@dataclass(frozen=True)
class SwitchLanguage:
    """The user chose `locale` (/lang); what is shown is re-rendered in it."""

    locale: Locale


@dataclass(frozen=True)
class Back:
    """The last answer was undone."""


@dataclass(frozen=True)
class Reset:
    """The consultation starts afresh."""


Intent = (
    Ask | Confirm | Recommend | WhatIf | KeepWhatIf | Why | WhyNot | Save | Knowledge | SwitchLanguage | Back | Reset
)


# ---------------------------------------------------------------------------- state


@dataclass(frozen=True)
class Snapshot:
    """What `/back` restores: the profile and where the dialogue stood."""

    profile: Profile
    stage: str
    pending: str | None
    answered: frozenset[str]
    defaulted: frozenset[str]

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile.model_dump(mode="json"),
            "stage": self.stage,
            "pending": self.pending,
            "answered": sorted(self.answered),
            "defaulted": sorted(self.defaulted),
        }

    @classmethod
    def from_json(cls, data: Any) -> Snapshot:
        if not isinstance(data, dict):
            raise ValueError("a history entry is not a mapping")
        stage = data.get("stage", "collect")
        pending = data.get("pending")
        return cls(
            profile=Profile.model_validate(data["profile"]),
            stage=stage if stage in STAGES else "collect",
            pending=pending if pending in Q.BY_KEY else None,
            answered=frozenset(k for k in data.get("answered", []) if k in Q.BY_KEY),
            defaulted=frozenset(k for k in data.get("defaulted", []) if k in Q.BY_KEY),
        )


@dataclass(frozen=True)
class State:
    """The whole dialogue, as one immutable value (`to_json` / `from_json` for the session file)."""

    locale: Locale = "en"
    profile: Profile = field(default_factory=Profile)
    stage: str = "collect"
    pending: str | None = "task"
    answered: frozenset[str] = frozenset()
    defaulted: frozenset[str] = frozenset()
    auto_language: bool = True
    whatif: Profile | None = None
    history: tuple[Snapshot, ...] = ()
    started: bool = False

    @classmethod
    def new(cls, locale: Locale, *, auto_language: bool = True) -> State:
        return cls(locale=locale, profile=Profile(language=locale), auto_language=auto_language)

    def snapshot(self) -> Snapshot:
        return Snapshot(self.profile, self.stage, self.pending, self.answered, self.defaulted)

    def to_json(self) -> dict[str, Any]:
        """The session file's dialogue keys (format version 1: `locale`, `profile`, `stage`, `pending`,
        `answered`, `defaulted`, `auto_language`, `history`, and `whatif`)."""
        return {
            "locale": self.locale,
            "profile": self.profile.model_dump(mode="json"),
            "stage": self.stage,
            "pending": self.pending,
            "answered": sorted(self.answered),
            "defaulted": sorted(self.defaulted),
            "auto_language": self.auto_language,
            "history": [h.to_json() for h in self.history],
            "whatif": self.whatif.model_dump(mode="json") if self.whatif is not None else None,
        }

    @classmethod
    def from_json(cls, data: Any) -> State:
        """Restore a saved dialogue; raises ValueError (or pydantic's ValidationError) when it is not one."""
        if not isinstance(data, dict):
            raise ValueError("not a mapping")
        locale = normalize_locale(str(data.get("locale", "en")))
        if locale is None:
            raise ValueError("bad locale")
        history = data.get("history", [])
        if not isinstance(history, list):
            raise ValueError("bad history")
        now = Snapshot.from_json(data)
        whatif = data.get("whatif")
        state = cls(
            locale=locale,
            profile=now.profile.model_copy(update={"language": locale}),
            stage=now.stage,
            pending=now.pending,
            answered=now.answered,
            defaulted=now.defaulted,
            auto_language=bool(data.get("auto_language", True)),
            whatif=Profile.model_validate(whatif) if isinstance(whatif, dict) else None,
            history=tuple(Snapshot.from_json(h) for h in history)[-MAX_HISTORY:],
            started=True,
        )
        if state.stage == "collect" and state.pending is None:
            state = replace(state, pending="task")
        return state


@dataclass(frozen=True)
class Turn:
    """What one message did: the next state, the replies before the intent's own output, the intent, the
    replies after it, and — for intents that can fail (recommend, what-if) — the turn to use instead."""

    state: State
    replies: tuple[Reply, ...] = ()
    intent: Intent = field(default_factory=Ask)
    after: tuple[Reply, ...] = ()
    on_failure: Turn | None = None


# ---------------------------------------------------------------------------- words


def _clean(text: str) -> str:
    return re.sub(r"[\s。.!！~～,，;；]+$", "", normalize_text(text).strip().lower()).strip()


_ACCEPT = frozenset(
    [
        "ok",
        "okay",
        "k",
        "yes",
        "y",
        "yep",
        "yeah",
        "yup",
        "sure",
        "fine",
        "default",
        "defaults",
        "skip",
        "next",
        "go",
        "continue",
        "correct",
        "right",
        "confirm",
        "confirmed",
        "done",
        "lgtm",
        "whatever",
        "any",
    ]
) | frozenset(
    {
        "",
        "use default",
        "use the default",
        "go ahead",
        "looks good",
        "that's right",
        "thats right",
        "sounds good",
        "don't know",
        "dont know",
        "not sure",
        "no idea",
        "i don't know",
        "no preference",
        "either is fine",
        "默认",
        "默認",
        "预设",
        "預設",
        "跳过",
        "跳過",
        "好",
        "好的",
        "行",
        "可以",
        "是",
        "是的",
        "对",
        "對",
        "对的",
        "對的",
        "确定",
        "確定",
        "确认",
        "確認",
        "没问题",
        "沒問題",
        "嗯",
        "嗯嗯",
        "下一步",
        "继续",
        "繼續",
        "不知道",
        "不清楚",
        "随便",
        "隨便",
        "都行",
        "都可以",
        "用默认",
        "用默認",
        "用預設",
        "默认值",
        "預設值",
        "ok的",
        "好吧",
        "没错",
        "沒錯",
    }
)
_NONE = frozenset(
    {
        "none",
        "no",
        "nope",
        "n/a",
        "na",
        "no limit",
        "unlimited",
        "no deadline",
        "no budget",
        "nothing",
        "no fixed deadline",
        "no fixed budget",
        "无",
        "無",
        "没有",
        "沒有",
        "不限",
        "无限制",
        "無限制",
        "没有限制",
        "沒有限制",
        "不设",
        "不設",
        "不设限",
        "不設限",
        "没",
        "沒",
    }
)
_KEEP = frozenset(
    {
        "keep it",
        "keep",
        "keep that",
        "apply",
        "apply it",
        "adopt",
        "adopt it",
        "do it",
        "use it",
        "use that",
        "let's do that",
        "lets do that",
        "采用",
        "採用",
        "就这样",
        "就這樣",
        "就这么办",
        "就這麼辦",
        "用这个",
        "用這個",
        "保留",
        "就用这个",
        "就用這個",
        "好，就这样",
        "好，就這樣",
    }
)
_NO = frozenset({"no", "nope", "wrong", "not right", "不对", "不對", "不是", "错", "錯", "不", "否"})
_QUESTION = lazy_compile(
    r"[?？]\s*$|^\s*(?:what|why|how|when|which|who|is|are|does|do|can|could|should|would|explain|tell\s+me)\b|"
    r"什么|什麼|为什么|為什麼|为何|為何|如何|怎么|怎麼|怎样|怎樣|是否|吗\s*$|嗎\s*$|呢\s*$|解释|解釋|介绍|介紹|区别|區別|差别|差別|啥",
    re.IGNORECASE,
)
_WHY_ONLY = lazy_compile(
    r"^\s*(?:why|why\s+(?:this|that|it|so|these)(?:\s+one)?|explain(?:\s+(?:it|this|that))?|reasons?|"
    r"为什么|為什麼|为啥|為啥|为何|為何|理由|原因|为什么这样|為什麼這樣|为什么推荐这个|為什麼推薦這個)\s*[?？!！.。]*\s*$",
    re.IGNORECASE,
)
_BARE_COUNT = lazy_compile(
    rf"{NUMBER_RE}\s*(?:张|張|块|塊|颗|顆|片|台|卡|×|x\b|gpus?\b|cards?\b|[?？]|$)", re.IGNORECASE
)
_WHY_NOT = lazy_compile(
    r"why\s+(?:not|no|isn't|wasn't|didn't|don't|aren't|not\s+use)|what\s+about\s+the|how\s+about\s+the|"
    r"为什么不|為什麼不|为何不|為何不|怎么不|怎麼不|为啥不|為啥不|不推荐|不推薦|没推荐|沒推薦|不选|不選",
    re.IGNORECASE,
)
_WHAT_IF = lazy_compile(
    r"what\s+if|what\s+about|suppose|supposing|if\s+(?:we|i|the|our)|how\s+about|would\s+it|"
    r"如果|假如|假设|假設|要是|若是|(?:换成|換成|改成).*(?:呢|吗|嗎|[?？])|会怎样|會怎樣|呢\s*[?？]?\s*$",
    re.IGNORECASE,
)

# Answering the data question, "120 万张" means images; answering the serving question, "100 users" means
# 100 concurrent users.
_IMAGES_BARE = lazy_compile(rf"{NUMBER_RE}\s*(?:张|張|幅)(?!\s*(?:卡|显卡|顯示卡|gpu))", re.IGNORECASE)
_USERS = lazy_compile(
    rf"{NUMBER_RE}\s*(?:个|個|位|名)?\s*(?:users?|people|clients?|用户|用戶|使用者|人)", re.IGNORECASE
)

_COMMANDS = {
    "back": ("back", "返回", "上一步", "后退", "後退", "撤销", "撤銷"),
    "reset": ("reset", "restart", "重来", "重來", "重新开始", "重新開始", "重置"),
    "lang": ("lang", "language", "语言", "語言", "切换语言", "切換語言"),
    "help": ("help", "?", "帮助", "幫助", "说明", "說明", "help?"),
    "why": ("why", "为什么", "為什麼", "原因"),
    "save": ("save", "保存", "儲存", "存档", "存檔", "导出", "匯出"),
}
_COMMAND_OF = {alias: name for name, aliases in _COMMANDS.items() for alias in aliases}


def command_name(text: str) -> str | None:
    """The slash command `text` starts with (back, reset, lang, help, why, save), in any of its spellings;
    None when it is not one (front ends open their own dialog for a bare /help or /save)."""
    stripped = normalize_text(text).strip()
    if not stripped.startswith("/"):
        return None
    parts = stripped[1:].split(None, 1)
    return _COMMAND_OF.get(parts[0].lower()) if parts else None


def env_locale() -> Locale:
    """The language of the environment (`GPU_ADVISOR_LANG`, `LC_ALL`, `LC_MESSAGES`, `LANG`), English if none."""
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


# ---------------------------------------------------------------------------- the two entry points


def start(state: State) -> Turn:
    """The opening replies: the greeting (not after a resume) and the first open question."""
    w = _Work(state)
    replies = [] if state.started else [Reply("text", t("conv.greeting", state.locale))]
    w.started = True
    replies += w.prompt()
    return w.turn(replies)


def prompt(state: State) -> tuple[Reply, ...]:
    """The question (or summary) the dialogue is waiting on, as it would ask it now; the state is unchanged."""
    return tuple(_Work(state).prompt())


def handle(state: State, text: str) -> Turn:
    """Answer one message: the next state, the replies and what the service should do."""
    w = _Work(state)
    return w.handle("" if text is None else str(text))


# ---------------------------------------------------------------------------- the work of one turn


class _Work:
    """A mutable copy of the state for the length of one turn; `turn()` freezes it into the next State."""

    def __init__(self, s: State):
        self.locale: Locale = s.locale
        self.profile = s.profile
        self.stage = s.stage
        self.pending = s.pending
        self.answered = set(s.answered)
        self.defaulted = set(s.defaulted)
        self.auto_language = s.auto_language
        self.whatif = s.whatif
        self.history = list(s.history)
        self.started = s.started

    def freeze(self) -> State:
        profile = self.profile.model_copy(update={"language": self.locale, "assumed": self._assumed()})
        return State(
            locale=self.locale,
            profile=profile,
            stage=self.stage,
            pending=self.pending,
            answered=frozenset(self.answered),
            defaulted=frozenset(self.defaulted),
            auto_language=self.auto_language,
            whatif=self.whatif,
            history=tuple(self.history[-MAX_HISTORY:]),
            started=self.started,
        )

    def turn(
        self,
        replies: list[Reply],
        intent: Intent | None = None,
        after: list[Reply] | None = None,
        on_failure: Turn | None = None,
    ) -> Turn:
        if intent is None:
            intent = Confirm() if self.stage == "confirm" else Ask()
        return Turn(self.freeze(), tuple(replies), intent, tuple(after or ()), on_failure)

    def _assumed(self) -> tuple[str, ...]:
        """Profile keys whose values came from a default the user accepted rather than from their words."""
        fields: list[str] = []
        for key in sorted(self.defaulted):
            fields += QUESTION_FIELDS.get(key, ())
        return tuple(dict.fromkeys(fields))

    # ------------------------------------------------------------------ dispatch

    def handle(self, text: str) -> Turn:
        truncated = len(text) > MAX_INPUT_CHARS
        text = text[:MAX_INPUT_CHARS]
        stripped = normalize_text(text).strip()
        if stripped.startswith("/"):
            # The command word is read normalized; its argument (a path) exactly as typed.
            parts = text.strip().split(None, 1)
            return self.command(stripped, parts[1].strip() if len(parts) > 1 else "")
        self.follow_language(stripped)
        prefix = [Reply("text", t("conv.problem.too_long", self.locale, limit=MAX_INPUT_CHARS))] if truncated else []
        if self.stage != "advise" and _WHY_NOT.search(stripped):
            named = gpu_mentions(stripped)
            if named:  # "why not the 4090?" before there is anything to compare it with
                gpu = knowledge().gpus.get(named[0])
                later = t("conv.whynot.later", self.locale, gpu=gpu.name if gpu else named[0])
                return self.turn(prefix + [Reply("text", later)] + self.prompt())
        if self.stage == "collect":
            turn = self.collect(stripped)
        elif self.stage == "confirm":
            turn = self.confirm(stripped)
        else:
            turn = self.advise(stripped)
        return replace(turn, replies=tuple(prefix) + turn.replies) if prefix else turn

    def follow_language(self, text: str) -> None:
        if not self.auto_language:
            return
        found = detect_language(text, self.locale)
        if found and found != self.locale:
            self.locale = found

    # ------------------------------------------------------------------ collecting answers

    def collect(self, text: str) -> Turn:
        key = self.pending or "task"
        question = Q.BY_KEY[key]
        cleaned = _clean(text)
        if cleaned in _ACCEPT or (key in ("deadline", "budget") and cleaned in _NONE):
            self.push_history()
            self.take_default(question)
            return self.turn(self.prompt())
        ex, problems = self.read(text, key)
        if not ex.says_anything():
            if _QUESTION.search(text) and not problems:
                return self.turn([], Knowledge(text), [Reply("text", t("conv.kb.back", self.locale))] + self.prompt())
            return self.turn(
                [Reply("error", self.problem_text(problems) or t("conv.reask", self.locale))] + self.prompt()
            )
        captured = self.apply_stepwise(ex)
        # Answering the question asked with its other half counts: "rent" to the budget question.
        if key == "budget" and "acquisition" in ex.fields:
            self.answered.add("budget")
        replies: list[Reply] = []
        if captured:
            items = Q.field_items(captured, self.profile, self.locale, currency_assumed=ex.currency_assumed)
            if items:
                replies.append(Reply("text", t("conv.noted", self.locale, items=self.join(items))))
        if problems:
            replies.append(Reply("error", self.problem_text(problems)))
        return self.turn(replies + self.prompt())

    def read(self, text: str, key: str | None) -> tuple[Extraction, list[tuple[str, dict[str, Any]]]]:
        """What `text` says and what was wrong with it, reading a bare number as the answer to question `key`."""
        if key:
            bare, problem = Q.read_bare(key, text, self.profile)
            if bare.says_anything() or problem:
                return bare, ([(problem, {})] if problem else [])
        ex = extract_detailed(text, self.locale, task=self.profile.task, question=key)
        problems = list(ex.problems)
        said = bool(ex.fields)
        if key == "data" and "samples" not in ex.fields and "tokens" not in ex.fields:
            images = _IMAGES_BARE.search(normalize_text(text))
            if images:  # answering the data question, "100 万张" means images
                n = parse_number(images.group("num"))
                if n is not None and 1 <= n <= 1e13:
                    ex = replace(ex, fields={**ex.fields, "samples": int(round(n))}, images=True)
        if key == "serving" and "concurrency" not in ex.fields:
            users = _USERS.search(normalize_text(text))
            if users:  # answering the serving question, "100 users" means 100 concurrent users
                n = parse_number(users.group("num"))
                if n is not None and 1 <= n < 1e9:
                    ex = replace(ex, fields={**ex.fields, "concurrency": int(round(n))})
        asked = bool(_QUESTION.search(text))
        if (key == "model" and "params" not in ex.fields and not problems and not asked
                and re.search(r"[A-Za-z\u3400-\u9fff]{2,}", text) and not said):
            problems.append(("conv.problem.model_unknown", {"text": Q.md_escape(text.strip()[:60])}))
        if key in ("task", "precision") and not said and not problems and not asked:
            problems.append((f"conv.problem.{key}_unknown", {}))
        return ex, problems

    def problem_text(self, problems: list[tuple[str, dict[str, Any]]]) -> str:
        texts = []
        for key, values in problems:
            values = dict(values)
            if key == "conv.problem.config":
                # The numeric core's ConfigError names its own localized message (knowledge/ui/model_config.yaml).
                try:
                    values["detail"] = t(values.get("key", ""), self.locale, **values.get("values", {}))
                except (KeyError, IndexError, ValueError):
                    pass
            try:
                texts.append(t(key, self.locale, **{k: v for k, v in values.items() if k not in ("key", "values")}))
            except (KeyError, IndexError, ValueError):
                texts.append(t("conv.reask", self.locale))
        return " ".join(texts)

    def take_default(self, question: Q.Question) -> None:
        self.update(question.default(self.profile))
        self.answered.add(question.key)
        self.defaulted.add(question.key)

    def apply(self, ex: Extraction) -> dict[str, Any]:
        """Apply what a message says to the profile; mark the questions it answers. Returns what changed."""
        public = dict(ex.fields)
        if "owned_gpus" in public:
            merged = {g.gpu: g.count for g in self.profile.owned_gpus}
            for item in public["owned_gpus"]:
                merged[item["gpu"]] = item["count"]
            public["owned_gpus"] = [{"gpu": g, "count": n} for g, n in merged.items()]
        if "params" in public and "model" not in public:
            sibling = _sibling_model(self.profile.model, public["params"])
            if sibling is not None:  # "not 8B, 70B" after Llama 3 8B means Llama 3 70B
                public.update(
                    model=sibling.id,
                    model_text=sibling.name,
                    params=sibling.params,
                    active_params=sibling.active_params,
                )
            else:
                public["model"] = None  # a bare size replaces a catalogue model
                public.setdefault("active_params", None)
        if "model" in public and "active_params" not in public:
            public["active_params"] = None
        if ex.no_deadline:
            public["deadline_days"] = None
        if ex.no_budget:
            public.update(budget_usd=None, budget_amount=None, budget_currency=None)
        if public.get("task") == "qlora":  # "改用 QLoRA" after "不想用 QLoRA": the refusal is taken back
            public.setdefault("qlora_refused", False)
        if "context_tokens" in public:  # "context 32k now": an average said with the old length no longer holds
            public.setdefault("avg_context_tokens", None)
        # Renting and a room of one's own exclude each other: "换成租的吧" after "自有机房" rents in the cloud, and
        # "其實我們有機房" after "租的" buys for that room (else nothing could pass both).
        if public.get("acquisition") == "rent" and "deployment" not in public and self.profile.deployment == "on-prem":
            public["deployment"] = "cloud"
        if public.get("deployment") == "on-prem" and "acquisition" not in public and self.profile.acquisition == "rent":
            public["acquisition"] = "buy"
        applied = self.update(public)
        for question in Q.QUESTIONS:
            if question.answered_by(ex):
                self.answered.add(question.key)
                self.defaulted.discard(question.key)
                partial = Q.complete_partial(question.key, self.profile, ex)
                if partial:
                    self.update(partial)
        # Defaults that depend on other answers follow them (pretraining tokens follow the model size).
        if ("params" in applied or "task" in applied) and "data" in self.defaulted:
            self.update(Q.BY_KEY["data"].default(self.profile))
        if ("model" in applied or "task" in applied) and "serving" in self.defaulted:
            self.update(Q.BY_KEY["serving"].default(self.profile))
        return applied

    def update(self, fields: dict[str, Any]) -> dict[str, Any]:
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

    def next_question(self) -> Q.Question | None:
        for question in Q.QUESTIONS:
            if question.applies(self.profile) and question.key not in self.answered:
                return question
        return None

    def prompt(self) -> list[Reply]:
        """Ask the next open question, or show the summary when everything is answered."""
        if self.stage == "advise" and self.next_question() is None:
            return [Reply("text", t("conv.rec.next", self.locale))]
        question = self.next_question()
        if question is not None:
            self.stage, self.pending = "collect", question.key
            text = question.text(self.profile, self.locale)
            return [Reply("question", text, question.options(self.profile, self.locale))]
        self.stage, self.pending = "confirm", None
        return [Reply("summary", Q.summary_markdown(self.profile, self.locale), (t("conv.choice.yes", self.locale),))]

    # ------------------------------------------------------------------ confirm

    def confirm(self, text: str) -> Turn:
        cleaned = _clean(text)
        if cleaned in _ACCEPT:
            return self.recommend_now()
        ex, problems = self.read(text, None)
        if ex.says_anything():
            captured = self.apply_stepwise(ex)
            replies = []
            items = Q.field_items(captured, self.profile, self.locale, currency_assumed=ex.currency_assumed)
            if items:
                replies.append(Reply("text", t("conv.updated", self.locale, items=self.join(items))))
            if problems:
                replies.append(Reply("error", self.problem_text(problems)))
            return self.turn(replies + self.prompt())
        if problems:
            return self.turn([Reply("error", self.problem_text(problems))] + self.prompt())
        if _QUESTION.search(text) and cleaned not in _NO:
            return self.turn([], Knowledge(text), [Reply("text", t("conv.kb.back", self.locale))] + self.prompt())
        if cleaned in _NO:
            return self.turn([Reply("text", t("conv.confirm.what", self.locale))])
        return self.turn([Reply("error", t("conv.reask", self.locale))] + self.prompt())

    # ------------------------------------------------------------------ recommendation

    def recommend_now(self) -> Turn:
        failed = self.turn([], Confirm(), self.prompt())  # the summary again, if the recommender fails
        self.push_history()
        self.whatif = None
        self.stage, self.pending = "advise", None
        return self.turn([], Recommend(self.freeze().profile), on_failure=failed)

    # ------------------------------------------------------------------ after the recommendation

    def advise(self, text: str) -> Turn:
        cleaned = _clean(text)
        if self.whatif is not None and cleaned in _KEEP:
            self.push_history()
            self.profile, self.whatif = self.whatif.model_copy(update={"language": self.locale}), None
            return self.turn([Reply("text", t("conv.whatif.kept", self.locale))], KeepWhatIf(self.freeze().profile))
        if _WHY_ONLY.match(text):
            return self.turn([], Why())
        ex = extract_detailed(text, self.locale, task=self.profile.task)
        named = gpu_mentions_counted(text) if _WHY_NOT.search(text) else []
        if named:
            return self.turn([], WhyNot(*named[0]))
        bare = _BARE_COUNT.search(normalize_text(text)) if _WHY_NOT.search(text) else None
        if bare:  # "為什麼不用 8 張？", "why not 16 GPUs?": the same GPU, another count
            n = parse_number(bare.group("num"))
            if n is not None and float(n).is_integer() and 1 <= n <= 100_000:
                return self.turn([], WhyNot(None, int(n)))
        relative = parse_relative(text)
        if _WHAT_IF.search(text) and (ex.says_anything() or relative):
            return self.what_if(ex, relative)
        if _WHAT_IF.search(text) and not _QUESTION.search(text.replace("what if", "")):
            return self.turn([Reply("answer", t("conv.whatif.nothing", self.locale))])
        if ex.says_anything() and not (_QUESTION.search(text) and not ex.fields):
            return self.correct(ex, ex.problems)
        if ex.problems:
            return self.turn([Reply("error", self.problem_text(ex.problems))])
        if _WHY_NOT.search(text):
            return self.turn([Reply("answer", t("conv.whynot.unknown", self.locale))])
        if _QUESTION.search(text):
            return self.turn([], Knowledge(text))
        if cleaned in _ACCEPT or cleaned in _NO:
            return self.turn([Reply("text", t("conv.rec.next", self.locale))])
        return self.turn([Reply("text", t("conv.advise.hint", self.locale))])

    def correct(self, ex: Extraction, problems: list[tuple[str, dict[str, Any]]]) -> Turn:
        captured = self.apply_stepwise(ex)
        replies: list[Reply] = []
        items = Q.field_items(captured, self.profile, self.locale, currency_assumed=ex.currency_assumed)
        if items:
            replies.append(Reply("text", t("conv.updated", self.locale, items=self.join(items))))
        if problems:
            replies.append(Reply("error", self.problem_text(problems)))
        self.whatif = None
        if self.next_question() is not None:
            self.stage = "collect"
            return self.turn(replies + self.prompt())
        kept = self.turn(list(replies))  # the recommender failed: the answers are kept all the same
        return self.turn(replies, Recommend(self.freeze().profile, correction=True), on_failure=kept)

    def what_if(self, ex: Extraction, relative: dict[str, float]) -> Turn:
        change = dict(ex.fields)
        if ex.no_deadline:
            change["deadline_days"] = None
        if ex.no_budget:
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
            return self.turn([Reply("answer", t("conv.whatif.nothing", self.locale))])
        saved = (self.profile, set(self.answered), set(self.defaulted))
        try:
            applied = self.apply(replace(ex, fields=change))
            hypothetical = self.profile
            needs = self.next_question()
        finally:
            self.profile, self.answered, self.defaulted = saved
        if not applied:
            return self.turn([Reply("answer", t("conv.whatif.nothing", self.locale))])
        if needs is not None:
            hypothetical = hypothetical.model_copy(update=needs.default(hypothetical))
        hypothetical = hypothetical.model_copy(update={"language": self.locale})
        items = Q.field_items(applied, hypothetical, self.locale)
        failed = self.turn([])
        self.whatif = hypothetical
        return self.turn([], WhatIf(hypothetical, tuple(items)), on_failure=failed)

    # ------------------------------------------------------------------ commands

    def command(self, text: str, raw_arg: str) -> Turn:
        parts = text[1:].strip().split(None, 1)
        word = parts[0].lower() if parts else ""
        arg = raw_arg if len(parts) > 1 else ""
        name = _COMMAND_OF.get(word)
        if name is None:
            self.follow_language(text[1:])
            return self.turn(
                [Reply("error", t("conv.command.unknown", self.locale, command="/" + word[:30].replace("`", "'")))]
            )
        if name not in ("lang", "save") and not word.isascii():
            self.follow_language(word)  # "/为什么" is a Chinese question; "/back" says nothing of the language
        if name == "help":
            return self.turn([Reply("text", t("conv.help", self.locale))])
        if name == "lang":
            found = normalize_locale(arg) if arg else None
            if found is None:
                return self.turn([Reply("error", t("conv.lang.usage", self.locale))])
            self.locale = found
            self.auto_language = False  # a language chosen by name sticks until the user names another
            return self.turn([Reply("text", t("conv.lang.set", self.locale))], SwitchLanguage(found), self.reprompt())
        if name == "why":
            return self.turn([], Why())
        if name == "save":
            path = arg.strip().strip("\"'“”「」")
            if not path:
                return self.turn([Reply("error", t("conv.save.usage", self.locale))])
            return self.turn([], Save(path))
        if name == "reset":
            fresh = State.new(self.locale, auto_language=self.auto_language)
            w = _Work(replace(fresh, started=True))
            return w.turn([Reply("text", t("conv.reset.done", self.locale))] + w.prompt(), Reset())
        # back
        if not self.history:
            return self.turn([Reply("error", t("conv.back.none", self.locale))] + self.reprompt())
        snap = self.history.pop()
        undone = [key for key, fields in QUESTION_FIELDS.items()
                  if any(getattr(self.profile, f, None) != getattr(snap.profile, f, None) for f in fields)]
        if self.profile.owned_gpus != snap.profile.owned_gpus:
            undone.append("owned")
        self.profile = snap.profile.model_copy(update={"language": self.locale})
        self.stage, self.pending = snap.stage, snap.pending
        self.answered, self.defaulted = set(snap.answered), set(snap.defaulted)
        self.whatif = None
        if self.stage == "collect" and self.pending is None:
            self.pending = "task"
        said = (t("conv.back.undid", self.locale, items=fmt.enumerate_names(
            [t(f"conv.label.{key}", self.locale) for key in undone], self.locale)) if undone
            else t("conv.back.done", self.locale))
        return self.turn([Reply("text", said)], Back(), self.reprompt())

    def reprompt(self) -> list[Reply]:
        if self.stage == "advise":
            return [Reply("text", t("conv.rec.next", self.locale))]
        return self.prompt()

    # ------------------------------------------------------------------ helpers

    def apply_stepwise(self, ex: Extraction) -> dict[str, Any]:
        """`apply`, leaving one `/back` step per question the message answered: "QLoRA 8B, budget 5 萬, 月底前"
        is undone deadline first, then budget, then the rest, each step saying what it undid."""
        before = Snapshot(self.profile, self.stage, self.pending, frozenset(self.answered), frozenset(self.defaulted))
        captured = self.apply(ex)
        old, new = before.profile.model_dump(), self.profile.model_dump()
        groups = [key for key, fields in STEP_FIELDS.items() if any(old.get(f) != new.get(f) for f in fields)]
        steps = [before]
        ungrouped = {f: v for f, v in new.items() if f not in _GROUPED_FIELDS}
        for i in range(1, len(groups)):
            fields = {**old, **ungrouped}
            for key in groups[:i]:
                fields.update({f: new[f] for f in STEP_FIELDS[key]})
            try:
                profile = Profile.model_validate(fields)
            except ValueError:
                steps = [before]  # a combination the profile refuses: the message is undone whole
                break
            done = before.answered | {key for key in groups[:i] if key in self.answered}
            steps.append(Snapshot(profile, before.stage, before.pending, frozenset(done), before.defaulted - done))
        self.history.extend(steps)
        del self.history[:-MAX_HISTORY]
        return captured

    def push_history(self) -> None:
        self.history.append(
            Snapshot(self.profile, self.stage, self.pending, frozenset(self.answered), frozenset(self.defaulted))
        )
        del self.history[:-MAX_HISTORY]

    def join(self, items: list[str]) -> str:
        return fmt.join(items, self.locale, strong=True)


QUESTION_FIELDS: dict[str, tuple[str, ...]] = {
    "task": ("task",),
    "model": ("model", "params"),
    "data": ("tokens", "samples", "seq_len", "epochs"),
    "serving": ("concurrency", "context_tokens"),
    "precision": ("precision",),
    "deadline": ("deadline_days",),
    "budget": ("budget_usd", "acquisition"),
    "facility": ("deployment", "rack_kw", "cooling"),
    "horizon": ("horizon_days", "utilization", "runs"),
}
"""The profile keys each question fills: what `Profile.assumed` lists when its default was taken."""

STEP_FIELDS: dict[str, tuple[str, ...]] = {
    **QUESTION_FIELDS,
    "model": ("model", "params", "model_text", "active_params"),
    "serving": ("concurrency", "context_tokens", "requests_per_second", "weights_dtype", "kv_dtype",
                "min_tokens_per_s_per_user", "max_ttft_s"),
    "budget": ("budget_usd", "acquisition", "budget_amount", "budget_currency"),
    "facility": ("deployment", "rack_kw", "cooling", "pue", "electricity_usd_per_kwh"),
    "owned": ("owned_gpus",),
}
"""What one `/back` step undoes: a question's keys with those said alongside them."""
_GROUPED_FIELDS = frozenset(f for fields in STEP_FIELDS.values() for f in fields)


def _sibling_model(current: str | None, params: int) -> Any:
    """The catalogue model of the same family as `current` whose size is `params` (within 10 %), if any."""
    if not current:
        return None
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


__all__ = ["LOCALES", "REPLY_KINDS", "Intent", "Reply", "State", "Turn", "env_locale", "handle", "start"]
