"""Ground truth for tests/core/test_params.py: transformers' own parameter count of each fixture config.

Why this exists: `advisor.core.params.param_count` computes a model's parameters term by term from a
config.json, and the tests pin it to figures from outside our code. For the architectures without a
published exact total (StarCoder, Phi, StableLM, GPT-NeoX, Falcon, BLOOM, MPT, T5/mT5) the outside
figure is what Hugging Face transformers itself builds from the same config.json: the model is
instantiated on PyTorch's meta device (no memory, no download, no weights) and its parameters are
summed; `model.parameters()` yields a shared (tied) tensor once, so a tied head counts once.

One correction, printed when it applies: transformers 5 forces `tie_word_embeddings=True` in T5Config
and MT5Config (their `__post_init__`), so `from_config` always ties the LM head to the embedding. The
real T5 v1.1 / mT5 / T0 / mT0 checkpoints (config `tie_word_embeddings: false`) carry their own
`lm_head.weight`, and `from_pretrained` unties it on load (`PreTrainedModel.tie_weights`: "both are
present in the checkpoints with different values, so we will NOT tie them"). For such a config this
script gives the head its own meta tensor, as loading the checkpoint does. transformers 4.x, whose
MT5Config defaults to untied and whose T5Config honours the key, builds the untied head directly.

Run with an environment that has transformers and torch (the test suite needs neither):

    python3 -m venv /tmp/tfenv && /tmp/tfenv/bin/pip install transformers torch
    /tmp/tfenv/bin/python tools/hf_param_counts.py [CONFIG.json ...]   # default: tests/core/configs/*.json

Prints one row per config: transformers' count, ours (when advisor and pydantic import), and whether
they agree. Nothing is downloaded: the configs are the hand-written copies in tests/core/configs/.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "tests" / "core" / "configs"

# Model types transformers builds with a task head other than a causal LM.
_SEQ2SEQ = {"t5", "mt5"}
_IMAGE = {"vit"}
_BARE = {"bert"}  # BertModel (with pooler): the model our count describes


def transformers_count(config_json: dict[str, Any]) -> tuple[int, str]:
    """(parameters, note) of the model transformers builds from `config_json` on the meta device."""
    import torch
    from transformers import (
        AutoConfig,
        AutoModel,
        AutoModelForCausalLM,
        AutoModelForImageClassification,
        AutoModelForSeq2SeqLM,
    )

    settings = {k: v for k, v in config_json.items() if not k.startswith("_")}
    model_type = settings.pop("model_type")
    config = AutoConfig.for_model(model_type, **settings)
    if model_type in _SEQ2SEQ:
        factory: Any = AutoModelForSeq2SeqLM
    elif model_type in _IMAGE:
        factory = AutoModelForImageClassification
    elif model_type in _BARE:
        factory = AutoModel
    else:
        factory = AutoModelForCausalLM
    with torch.device("meta"):
        model = factory.from_config(config)
    note = ""
    head = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    embed = model.get_input_embeddings() if hasattr(model, "get_input_embeddings") else None
    if (
        config_json.get("tie_word_embeddings") is False
        and head is not None
        and embed is not None
        and head.weight is embed.weight
    ):
        # The checkpoint holds its own lm_head.weight; from_pretrained unties it (see the module docstring).
        head.weight = torch.nn.Parameter(torch.empty_like(head.weight, device="meta"))
        note = "lm_head untied as the checkpoint loads"
    return sum(p.numel() for p in model.parameters()), note


def our_count(config_json: dict[str, Any], name: str) -> int | None:
    """advisor's count, or None when advisor (or its pydantic) does not import in this environment."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        from advisor.core.params import ConfigError, param_count, spec_from_hf_config
    except ImportError:
        return None
    try:
        return param_count(spec_from_hf_config(config_json, name))
    except ConfigError:
        return None


def main(argv: list[str]) -> int:
    import transformers

    paths = [Path(a) for a in argv] or sorted(CONFIGS.glob("*.json"))
    print(f"transformers {transformers.__version__}, meta device, unique parameters")
    width = max(len(p.stem) for p in paths)
    disagreements = 0
    for path in paths:
        config_json = json.loads(path.read_text(encoding="utf-8"))
        theirs, note = transformers_count(config_json)
        ours = our_count(config_json, path.stem)
        verdict = "" if ours is None else ("same" if ours == theirs else f"DIFFERS by {ours - theirs:+,}")
        disagreements += bool(ours is not None and ours != theirs)
        ours_text = "-" if ours is None else f"{ours:,}"
        print(f"{path.stem:<{width}}  {config_json['model_type']:<12} {theirs:>17,}  ours {ours_text:>17}  "
              f"{verdict}{'  (' + note + ')' if note else ''}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
