"""A tiny stand-in for `advisor.conversation.flow.Conversation` (same public surface), so that the TUI's own
behaviour is tested without the parsers, the numeric core and the rules."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from advisor.conversation.questions import summary_markdown
from advisor.i18n import detect_language, t
from advisor.models import Profile, Recommendation
from advisor.report import ReportError, render, save_report
from tests.report.conftest import make_recommendation

QUESTIONS = {
    "en": "What do you want to do?",
    "zh-Hans": "你想做什么？",
    "zh-Hant": "你想做什麼？",
}


@dataclass(frozen=True)
class Reply:
    kind: str
    text: str
    choices: tuple[str, ...] = ()


class FakeConversation:
    """Asks one question; any answer naming a model gives the fixture recommendation; understands /save, /lang."""

    def __init__(self, locale=None, state_path: Path | None = None, **_options):
        self.locale = locale or "en"
        self.state_path = state_path
        self.profile = Profile(language=self.locale)
        self.recommendation: Recommendation | None = None
        self.handled: list[str] = []

    @classmethod
    def resume(cls, path: Path, **_options) -> FakeConversation:
        conv = cls("zh-Hant", path)
        conv.profile = Profile(language="zh-Hant", task="qlora", model_text="Llama 3 8B")
        conv.resumed = True  # type: ignore[attr-defined]
        conv.transcript = [{"role": "assistant", "kind": "question", "text": QUESTIONS["zh-Hant"]},
                           {"role": "user", "text": "用 QLoRA"}]
        return conv

    def start(self) -> list[Reply]:
        return [Reply("question", QUESTIONS[self.locale], ("LoRA", "QLoRA", "inference"))]

    def handle(self, text: str) -> list[Reply]:
        self.handled.append(text)
        if text.startswith("/lang "):
            self.locale = text.split()[1]
            return [Reply("text", f"language: {self.locale}")]
        if text.startswith("/save "):
            try:
                path = save_report(self.recommendation, text.split(maxsplit=1)[1], locale=self.locale)
            except ReportError as err:
                return [Reply("error", err.message(self.locale))]
            return [Reply("saved", f"saved {path}")]
        if text == "boom":
            raise RuntimeError("engine exploded")
        self.locale = detect_language(text, self.locale) or self.locale
        self.profile = self.profile.model_copy(update={"language": self.locale, "task": "lora",
                                                       "model_text": "Mistral 7B"})
        self.recommendation = make_recommendation(self.locale)
        return [Reply("recommendation", render(self.recommendation, "chat", self.locale))]


class ScriptedConversation:
    """A fixed consultation for the snapshot tests: greeting and the task question; one message that answers
    everything, which brings the summary; "yes", which brings the recommendation. The profile and the
    recommendation are the report tests' hand-built ones, and every word comes from the real UI strings and
    templates, so that the screens change when the UI does, not when a price or a rule does."""

    TASKS = ("pretrain", "finetune", "lora", "qlora", "inference")

    def __init__(self, locale=None, state_path: Path | None = None, **_options):
        self.locale = locale or "en"
        self.state_path = state_path
        self.profile = Profile(language=self.locale)
        self.recommendation: Recommendation | None = None
        self.answered: tuple[str, ...] = ()

    def start(self) -> list[Reply]:
        loc = self.locale
        return [Reply("text", t("conv.greeting", loc)),
                Reply("question", t("conv.q.task", loc, default=t("conv.task.lora", loc)),
                      tuple(t(f"conv.task.{k}", loc) for k in self.TASKS))]

    def handle(self, text: str) -> list[Reply]:
        loc = self.locale
        if self.profile.task is None:
            self.profile = make_recommendation(loc).profile
            self.answered = ("task", "model", "data", "precision", "deadline", "budget", "facility")
            return [Reply("summary", summary_markdown(self.profile, loc), (t("conv.choice.yes", loc),))]
        self.recommendation = make_recommendation(loc)
        return [Reply("recommendation", render(self.recommendation, "chat", loc))]
