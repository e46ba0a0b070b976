"""Property test for whole conversations: arbitrary messages and commands, in any order, in any of the
three languages — nothing but localized replies of the known kinds ever comes out, and the profile
stays valid. (The stand-in recommender keeps each example fast; test_conv_scripted.py runs the real one.)"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.consultation import Consultation as Conversation
from advisor.conversation.dialogue import REPLY_KINDS, Reply
from advisor.i18n import t
from advisor.models import LOCALES, Profile
from tests.conversation.conftest import fake_recommend
from tests.conversation.strategies import EXAMPLES, LOCALE, MESSAGE


_SAVE_DIR = Path(tempfile.mkdtemp(prefix="conv-props-"))
COMMAND = st.one_of(
    st.sampled_from(["/back", "/reset", "/help", "/why", "/lang zh-Hant", "/lang en", "/lang zh-Hans", "/lang ??",
                     "/语言 繁體", "/返回", "/save", "/nonsense", "yes", "对", "", "keep it", "就这样",
                     "what if the budget doubles?", "如果预算翻倍呢？", "why not the 4090?", "为什么不推荐 H100？",
                     "什么是显存碎片？", "why ECC?"]),
    st.text(alphabet="abcdefghij-_", min_size=1, max_size=12).map(lambda n: f"/save {_SAVE_DIR}/{n}.md"),
)


@settings(max_examples=EXAMPLES["conversation"], deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(locale=LOCALE, messages=st.lists(st.one_of(MESSAGE, COMMAND), min_size=1, max_size=6), walk=st.booleans())
def test_whole_conversation_only_replies(locale: str, messages: list[str], walk: bool) -> None:
    conv = Conversation(locale, persist=False, recommender=fake_recommend)
    internal = {t("conv.error.internal", loc, detail="").split("(")[0].split("（")[0] for loc in LOCALES}
    replies = conv.start()
    if walk:  # reach the advice stage first, so that later messages exercise what-if, /why, corrections
        for _ in range(9):
            replies += conv.handle("")
    for message in messages:
        replies += conv.handle(message)
    for reply in replies:
        assert isinstance(reply, Reply) and reply.kind in REPLY_KINDS
        assert isinstance(reply.text, str) and reply.text.strip()
        assert not any(reply.text.startswith(prefix) for prefix in internal), reply.text
    assert conv.locale in LOCALES
    Profile.model_validate(conv.profile.model_dump())
