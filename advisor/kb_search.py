"""Knowledge search: rank the knowledge entries for a question typed in English or Chinese.

Why it exists: the chat answers "什么是显存碎片？", "為什麼需要 ECC" or "what is QLoRA?" from the
knowledge base, and `gpu-advisor kb search` exposes the same lookup. Every entry is indexed once, in all
three languages at the same time (title, text, tags, correction), so a question finds its entry whatever
language the user writes in.

How: BM25 over a bag of terms. English is split into lower-case words with a light suffix stemmer and
a stop list. Chinese is folded to one script first (Traditional → Simplified characters, then a few
Taiwan words → mainland words such as 記憶體 → 内存, 推論 → 推理), question words are dropped
(什么, 为什么, 如何 ...), and each run of Han characters becomes its characters and its character
bigrams. Bigrams rather than a word segmenter (jieba): the domain vocabulary here (显存碎片, 张量并行,
混合精度) is mostly two-character words that bigrams catch exactly, jieba would add a dependency with
a large dictionary to load, and bigrams need no dictionary that could disagree with Taiwan usage.

"Nothing relevant" is decided by coverage: an entry must match at least half of the query's
IDF-weighted English words and Chinese characters (bigrams score but do not count here: one that spans
two words is an artefact), and at least one real word (an English word or a Chinese bigram) that is not
in most entries (single characters suffice when the query has nothing else, as in 买还是租). The
index is built lazily on the first query (about 30 ms for ~100 entries) and cached; a query then takes
well under a millisecond.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from advisor.locales import LOCALES, Locale

TYPE_CHECKING = False  # not `typing`'s: `kb search` imports no pydantic
if TYPE_CHECKING:
    from advisor.knowledge import KnowledgeEntry

# Traditional → Simplified characters (pairs generated once with OpenCC tw2s/t2s over every Han
# character in knowledge/, rules/, the seed articles and the reference files; checked against OpenCC
# by tests/knowledge). 么 and 著 are left alone: both are also Simplified characters.
_FOLD_PAIRS = (
    "並并 佈布 佔占 併并 來来 個个 們们 偉伟 側侧 偵侦 備备 傳传 僅仅 價价 億亿 優优 儲储 內内 兩两 凍冻 別别 則则 剛刚 創创 劃划 勁劲 動动 務务 勝胜 勢势 "
    "勵励 匯汇 區区 卻却 參参 叢丛 員员 問问 啟启 單单 嗎吗 嚴严 國国 圍围 圖图 團团 執执 報报 場场 塊块 壓压 壞坏 壽寿 夠够 夾夹 學学 實实 審审 寫写 寬宽 "
    "將将 專专 對对 導导 層层 嶺岭 帳帐 帶带 幣币 幫帮 幾几 庫库 廠厂 張张 強强 彈弹 後后 徑径 從从 態态 慮虑 憑凭 憶忆 應应 懸悬 戰战 戲戏 捨舍 採采 換换 "
    "損损 搶抢 撐撑 擁拥 擇择 擔担 據据 擬拟 擴扩 攤摊 數数 斂敛 斷断 於于 時时 暫暂 書书 會会 東东 條条 業业 極极 構构 標标 樣样 樹树 機机 檔档 檢检 檻槛 "
    "櫃柜 欄栏 權权 歐欧 殘残 殼壳 氣气 決决 沒没 況况 淺浅 減减 渦涡 測测 準准 滿满 漲涨 漸渐 灣湾 為为 無无 熱热 營营 爲为 牆墙 犧牺 狀状 獨独 獲获 現现 "
    "環环 產产 畫画 異异 當当 疊叠 發发 盡尽 監监 眾众 確确 碼码 礎础 礙碍 種种 稱称 積积 穩稳 競竞 節节 範范 簡简 簽签 紀纪 約约 納纳 純纯 紙纸 級级 細细 "
    "終终 組组 結结 絕绝 絡络 給给 統统 經经 綜综 維维 網网 緊紧 線线 緩缓 練练 縮缩 總总 織织 繪绘 繼继 續续 義义 習习 聞闻 聲声 肅肃 脫脱 腳脚 臨临 與与 "
    "舊旧 華华 萬万 薦荐 處处 號号 術术 衝冲 裏里 裝装 裡里 製制 複复 見见 規规 視视 覽览 觀观 觸触 訂订 計计 訊讯 訓训 託托 記记 設设 許许 診诊 註注 評评 "
    "詞词 詢询 試试 話话 該该 認认 語语 誤误 說说 誰谁 調调 請请 論论 諮咨 謂谓 謝谢 證证 識识 議议 讀读 變变 讓让 負负 責责 買买 費费 貼贴 資资 賣卖 質质 "
    "賴赖 購购 趕赶 躍跃 車车 軟软 較较 載载 輝辉 輪轮 輯辑 輸输 轉转 迴回 這这 連连 週周 進进 遊游 運运 過过 達达 遞递 遠远 適适 遲迟 選选 還还 邊边 邏逻 "
    "醫医 釋释 針针 銷销 錄录 錢钱 錯错 鍵键 鏈链 鐘钟 長长 門门 閉闭 開开 閒闲 間间 閱阅 關关 陣阵 隊队 階阶 際际 隨随 隱隐 雙双 雜杂 離离 難难 雲云 電电 "
    "靈灵 響响 頁页 頂顶 項项 順顺 須须 預预 領领 頭头 頸颈 頻频 題题 額额 類类 顧顾 顯显 風风 餘余 駕驾 駛驶 驗验 驟骤 體体 麼么 點点 龐庞 ")
_CHAR_FOLD = {ord(pair[0]): pair[1] for pair in _FOLD_PAIRS.split()}

# Taiwan (and a few generic) words → the mainland word used in zh-Hans texts, applied after the
# character fold, longest first. Both the entries and the queries go through it, so either wording finds
# the entry.
_WORD_FOLD = (
    ("显示记忆体", "显存"), ("视讯记忆体", "显存"), ("gpu 记忆体", "显存"), ("记忆体", "内存"),
    ("显示卡", "显卡"), ("频宽", "带宽"), ("资料", "数据"), ("推论", "推理"), ("丛集", "集群"),
    ("软体", "软件"), ("硬体", "硬件"), ("预设", "默认"), ("支援", "支持"), ("最佳化", "优化"),
    ("效能", "性能"), ("伺服器", "服务器"), ("网路", "网络"), ("快取", "缓存"), ("位元组", "字节"),
    ("位元", "位"), ("启动值", "激活值"), ("晶片", "芯片"), ("平行", "并行"), ("分散式", "分布式"),
    ("使用率", "利用率"), ("资讯", "信息"), ("讯息", "信息"), ("品质", "质量"), ("专案", "项目"),
    ("转接器", "适配器"), ("管线", "流水线"), ("通讯", "通信"), ("气冷", "风冷"), ("批次", "批量"),
    ("回报", "回本"), ("纠错码", "ecc"), ("错误更正码", "ecc"), ("不够", "不足"),
)

# Chinese function and question words, removed before bigrams (after folding).
_ZH_STOP = (
    "为什么", "为何", "什么样", "什么", "甚么", "怎么办", "怎么样", "怎么", "怎样", "如何", "是否", "哪些",
    "哪个", "哪种", "多少", "能否", "可以", "应该", "需要", "请问", "一下", "我们", "你们", "他们",
    "我的", "你的", "有没有", "是不是", "吗", "呢", "吧", "啊", "的", "是", "了", "和", "与", "及",
    "或", "在", "我", "你", "要", "会", "用", "有", "这", "那", "个", "把", "被", "让", "给", "对",
    "从", "到", "就", "都", "也", "还", "很", "更", "最", "之", "其",
)
_ZH_STOP_RE = re.compile("|".join(re.escape(w) for w in sorted(_ZH_STOP, key=len, reverse=True)))

_EN_STOP = frozenset(
    ["a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "tell", "explain", "mean", "means", "meaning", "need", "needs", "use", "used", "using", "get", "much", "many", "vs", "versus", "one", "really", "actually", "true", "truly", "please"]
)

_TOKEN_RE = re.compile(r"[a-z0-9]+|[\u3400-\u9fff]+")
_HAN_RE = re.compile(r"[\u3400-\u9fff]")

# Field weights (a BM25F-style repetition): titles and tags say what an entry is about.
_TITLE_W, _TAG_W, _TEXT_W, _CORRECTION_W = 3.0, 3.0, 1.0, 1.0
_K1, _B = 1.2, 0.75
MIN_COVERAGE = 0.5
"""An entry must match at least this share of the query's IDF-weighted words and Han characters."""
MIN_MATCHED_IDF = 1.0
"""...and words (English words, Chinese bigrams) worth at least this much IDF: a query whose only
known word is in most entries ("什么是 GPU") matches nothing in particular."""
_RELATIVE_CUTOFF = 0.3
"""Results after the first must score at least this share of the first."""


def fold(text: str) -> str:
    """Lower-case, Traditional → Simplified characters, Taiwan → mainland words."""
    text = text.lower().translate(_CHAR_FOLD)
    for taiwan, mainland in _WORD_FOLD:
        if taiwan in text:
            text = text.replace(taiwan, mainland)
    return text


def _stem(word: str) -> str:
    """A light English suffix stripper: enough to join gpus/gpu, batches/batch, costs/cost."""
    if word.isdigit() or len(word) <= 3:
        return word
    for suffix, repl, min_len in (("ies", "y", 5), ("sses", "ss", 5), ("ches", "ch", 5), ("shes", "sh", 5),
                                  ("xes", "x", 4), ("ing", "", 6), ("ed", "", 5)):
        if word.endswith(suffix) and len(word) >= min_len:
            return word[: -len(suffix)] + repl
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Search terms of `text`: stemmed English words and Chinese character bigrams (after folding)."""
    out: list[str] = []
    for run in _TOKEN_RE.findall(fold(text)):
        if _HAN_RE.match(run):
            for piece in _ZH_STOP_RE.split(run):
                out.extend(piece)  # single characters: 买, 租, 卡 are words too
                out.extend(piece[i : i + 2] for i in range(len(piece) - 1))
        elif run not in _EN_STOP and (len(run) > 1 or run.isdigit()):
            out.append(_stem(run))
    return out


@dataclass(frozen=True)
class _Doc:
    entry: KnowledgeEntry
    tf: dict[str, float]
    length: float


def _weighted_terms(entry: KnowledgeEntry) -> dict[str, float]:
    tf: dict[str, float] = {}

    def add(texts: Iterable[str], weight: float) -> None:
        for text in texts:
            for term in tokenize(text):
                tf[term] = tf.get(term, 0.0) + weight

    add((entry.title.get(loc) for loc in LOCALES), _TITLE_W)
    add((tag.replace("-", " ") for tag in entry.tags), _TAG_W)
    add((entry.text.get(loc) for loc in LOCALES), _TEXT_W)
    if entry.correction is not None:
        add((entry.correction.get(loc) for loc in LOCALES), _CORRECTION_W)
    return dict(tf)


class KnowledgeIndex:
    """A BM25 index over knowledge entries, every language at once."""

    def __init__(self, entries: Iterable[KnowledgeEntry]):
        self._docs = [_Doc(e, tf := _weighted_terms(e), sum(tf.values())) for e in entries]
        self._n = len(self._docs)
        df: Counter[str] = Counter()
        for doc in self._docs:
            df.update(doc.tf.keys())
        self._idf = {t: math.log(1 + (self._n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        self._unknown_idf = math.log(1 + (self._n + 0.5) / 0.5)
        self._avg_len = (sum(d.length for d in self._docs) / self._n) if self._n else 1.0

    def __len__(self) -> int:
        return self._n

    def _coverage_weight(self, term: str) -> float:
        """What a query term counts towards coverage: its IDF (the maximum when unknown); Chinese bigrams
        count nothing, because a bigram spanning two words ("租比" in 租比较划算) is an artefact."""
        if len(term) == 2 and _HAN_RE.match(term):
            return 0.0
        return self._idf.get(term, self._unknown_idf)

    @staticmethod
    def _is_strong(term: str) -> bool:
        """A word (Latin token or Han bigram) as opposed to a single Han character."""
        return not (len(term) == 1 and _HAN_RE.match(term))

    def search(self, query: str, k: int = 3) -> list[tuple[KnowledgeEntry, float]]:
        """Up to `k` entries, best first, with their BM25 scores; [] when nothing is relevant."""
        terms = Counter(tokenize(query))
        if not terms or not self._n or k <= 0:
            return []
        total = sum(self._coverage_weight(t) * n for t, n in terms.items())
        # A query of single characters only ("买还是租" → 买, 租) has no word to insist on.
        has_words = any(self._is_strong(t) for t in terms)
        if total <= 0:
            return []
        scored: list[tuple[float, float, int]] = []
        for position, doc in enumerate(self._docs):
            score = matched = strong = 0.0
            norm = _K1 * (1 - _B + _B * doc.length / self._avg_len)
            for term, count in terms.items():
                tf = doc.tf.get(term)
                if tf:
                    idf = self._idf[term]
                    score += count * idf * tf * (_K1 + 1) / (tf + norm)
                    matched += count * self._coverage_weight(term)
                    if self._is_strong(term):
                        strong += idf
            if score > 0 and (strong >= MIN_MATCHED_IDF or (not has_words and matched >= MIN_MATCHED_IDF)):
                scored.append((score, matched / total, position))
        if not scored:
            return []
        scored.sort(key=lambda s: (-s[0], s[2]))
        best = scored[0][0]
        out: list[tuple[KnowledgeEntry, float]] = []
        for score, coverage, position in scored:
            if len(out) == k or score < _RELATIVE_CUTOFF * best:
                break
            if coverage >= MIN_COVERAGE:
                out.append((self._docs[position].entry, round(score, 4)))
        return out


@functools.lru_cache(maxsize=1)
def _default_index() -> KnowledgeIndex:
    from advisor.snapshot import entries

    return KnowledgeIndex(entries().values())


def search(query: str, locale: Locale, k: int = 3) -> list[tuple[KnowledgeEntry, float]]:
    """The knowledge entries that answer `query`, best first, with their scores; [] when none is relevant.

    `locale` is the user's language. Every entry is indexed in all three languages (Traditional folded
    to Simplified), so the ranking does not depend on it: a Taiwan user who types English, or a query
    mixing "ECC" with Chinese, finds the same entries. The caller shows `entry.title.get(locale)`.
    """
    if locale not in LOCALES:
        raise ValueError(f"unknown locale {locale!r}; expected one of {', '.join(LOCALES)}")
    return _default_index().search(query, k)
