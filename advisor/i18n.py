"""Languages: the message catalogue (`knowledge/ui/*.yaml`) and language detection from what users type.

`t(key, locale, **values)` formats a UI string in one of the three locales. `detect_language`
tells English from Chinese, and Simplified from Traditional by characters that exist in only one
of the two scripts; text with no such character keeps the caller's current Chinese locale.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.locales import LOCALES, Locale

# Characters that occur only in one script: (simplified, traditional) pairs common in what users type
# to a GPU advisor — the domain's words (显存/顯存, 训练/訓練, 预算/預算, 机柜/機櫃, 并发/並發 ...) and
# everyday function words. A pair whose characters are equal carries no evidence and is skipped.
_PAIRS = (
    "这這 个個 们們 为為 么麼 时時 问問 题題 现現 显顯 计計 训訓 练練 数數 据據 参參 预預 "
    "样樣 张張 条條 轮輪 亿億 万萬 两兩 发發 并並 线線 机機 柜櫃 风風 电電 价價 钱錢 币幣 "
    "湾灣 图圖 书書 读讀 说說 话話 请請 还還 没沒 会會 从從 头頭 开開 关關 应應 该該 "
    "买買 卖賣 选選 择擇 荐薦 内內 带帶 宽寬 务務 网網 络絡 边邊 试試 验驗 "
    "进進 运運 转轉 换換 帮幫 吗嗎 谢謝 级級 类類 优優 质質 实實 际際 压壓 热熱 "
    "国國 东東 长長 门門 间間 对對 双雙 单單 资資 讯訊 软軟 体體 "
    "议議 节節 约約 总總 结結 论論 报報 载載 缓緩 储儲 写寫 调調 华華 "
    "气氣 设設 备備 块塊 层層 规規 视視 频頻 处處 理理 务務 户戶 费費 贵貴 点點 钟鐘 "
    "语語 简簡 导導 档檔 项項 访訪 让讓 够夠 环環 术術 馈饋 卫衛 归歸 刚剛 确確 认認 "
    "将將 与與 这這 样樣 负負 责責 达達 过過 后後 无無 种種 么麼 几幾 备備 "
    "团團 队隊 员員 产產 业業 务務 营營 维維 护護 师師 构構 建建 连連 接接 节節 云雲 "
    "输輸 入入 记記 忆憶 缩縮 减減 错錯 误誤 觉覺 得得 虑慮 围圍 满滿 够夠 标標 "
    "习習 识識 库庫 动動 态態 传傳 递遞 错錯 题題 虽雖 然然 据據 显顯 卡卡 词詞 汇匯 "
    "们們 尔爾 仅僅 啥啥 专專 达達 赖賴 险險 紧緊 装裝 驱驅 线線 缆纜 场場 "
)


def _build_sets() -> tuple[frozenset[str], frozenset[str]]:
    simp, trad = set(), set()
    for pair in _PAIRS.split():
        s, t = pair[0], pair[1]
        if s != t:
            simp.add(s)
            trad.add(t)
    # A character present in both sets (e.g. 台 is used in both scripts) is not evidence.
    both = simp & trad
    # 週 (week) is Traditional-only, but 周 is also written in Traditional text, so only one side counts.
    trad.add("週")
    return frozenset(simp - both), frozenset(trad - both)


SIMPLIFIED_ONLY, TRADITIONAL_ONLY = _build_sets()
# Words that only Taiwan writers use, even when every character exists in both scripts.
_TAIWAN_WORDS = ("推論", "資料", "記憶體", "軟體", "硬體", "預設", "支援", "叢集", "伺服器", "晶片", "網路", "程式", "訊息", "影片")
_MAINLAND_WORDS = ("推理部署", "数据", "内存", "软件", "硬件", "默认", "支持", "集群", "服务器", "芯片", "网络", "程序", "视频")
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
# Latin words that Chinese writers use too: names, units, acronyms and one-word replies. A message
# made only of these ("ok", "Llama 3 8B", "bf16") is no reason to switch a Chinese conversation to English.
_NEUTRAL_LATIN = frozenset(
    ["ok", "okay", "k", "yes", "y", "no", "n", "lora", "qlora", "llama", "lama", "mistral", "mixtral", "qwen", "gemma", "phi", "yi", "deepseek", "olmo", "falcon", "gpt", "bert", "vit", "resnet", "sdxl", "unet", "bf", "fp", "tf", "int", "nf", "bf16", "fp16", "fp8", "fp32", "tf32", "gb", "tb", "mb", "kb", "gib", "mib", "k", "m", "b", "t", "kw", "w", "v", "a", "h", "d", "x", "usd", "rmb", "cny", "twd", "ntd", "nt", "eur", "hkd", "jpy", "gbp", "rtx", "gtx", "nvidia", "amd", "intel", "geforce", "tesla", "quadro", "instinct", "gaudi", "mi", "sxm", "pcie", "nvl", "nvlink", "hbm", "ecc", "gpu", "gpus", "cpu", "vram", "tp", "pp", "dp", "ddp", "fsdp", "zero", "sft", "rlhf", "dpo", "ppo", "api", "qps", "rps", "ctx", "token", "tokens", "epoch", "epochs", "batch", "aws", "gcp", "azure", "idc", "pue", "ai", "ml", "llm", "moe", "hf", "json", "config", "md", "html", "vs", "s", "e", "g", "ie", "eg", "etc", "chat", "instruct", "base"]
)


def _is_english(text: str) -> bool:
    """True when the text holds at least one ordinary English word (not a name, unit or acronym)."""
    for word in _LATIN_WORD.findall(text):
        low = word.lower()
        if len(low) < 2 or low in _NEUTRAL_LATIN:
            continue
        if word.isupper() and len(word) <= 5:
            continue  # an acronym: ECC, NVLink's NVL, A100's letters
        return True
    return False


def detect_language(text: str, current: Locale = "en") -> Locale | None:
    """The locale `text` is written in, or None when it carries no signal (numbers, a slash command,
    only names and units such as "Llama 3 8B" or "ok").

    Any Han character makes it Chinese ("LoRA 微調" is Chinese). Simplified vs Traditional is decided
    by script-only characters, then by words only one side uses (推論, 資料 vs 数据, 内存); without
    any, the current Chinese locale is kept (zh-Hans if none). Latin-only text switches to English
    only when it holds an ordinary English word.
    """
    if not text or not isinstance(text, str) or text.lstrip().startswith(("/", "／")):
        return None
    if _HAN.search(text):
        simp = sum(1 for ch in text if ch in SIMPLIFIED_ONLY)
        trad = sum(1 for ch in text if ch in TRADITIONAL_ONLY)
        if trad == simp:
            trad += sum(text.count(w) for w in _TAIWAN_WORDS)
            simp += sum(text.count(w) for w in _MAINLAND_WORDS)
        if trad > simp:
            return "zh-Hant"
        if simp > trad:
            return "zh-Hans"
        return current if current != "en" else "zh-Hans"
    if current == "en":
        return "en" if _LATIN_WORD.search(text) else None
    if _is_english(text):
        return "en"
    return None


def t(key: str, locale: Locale, **values: Any) -> str:
    """The UI string `key` in `locale`, with `{name}` placeholders filled from `values`."""
    from advisor.snapshot import ui_text

    text = ui_text(key, locale)
    if text is None:
        raise KeyError(f"UI string {key!r} is missing from knowledge/ui/")
    return text.format(**values) if values else text


def normalize_locale(value: str) -> Locale | None:
    """Accept en, zh-Hans, zh-Hant and common spellings (zh-CN, zh_TW, 简体, 繁體, 中文...)."""
    v = value.strip().lower().replace("_", "-")
    table = {
        "en": "en", "english": "en", "英文": "en", "英语": "en", "英語": "en",
        "zh-hans": "zh-Hans", "zh-cn": "zh-Hans", "zh": "zh-Hans", "cn": "zh-Hans", "简体": "zh-Hans",
        "简体中文": "zh-Hans", "中文": "zh-Hans", "简中": "zh-Hans",
        "zh-hant": "zh-Hant", "zh-tw": "zh-Hant", "tw": "zh-Hant", "繁體": "zh-Hant", "繁体": "zh-Hant",
        "繁體中文": "zh-Hant", "繁中": "zh-Hant",
    }
    found = table.get(v)
    for locale in LOCALES:
        if found == locale:
            return locale
    return None
