"""The model catalogue (knowledge/models.yaml): dimensions agree with published counts, names resolve.

If an entry's dimensions were mistyped, its count from dimensions would drift from its `params`
(the exact or published figure named in its `source`): 0.5% catches a wrong layer count, width or
vocabulary in every model here. The alias tests use spellings people actually type, in English and
Chinese, and check that no spelling can mean two models.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from advisor.core.params import active_param_count, load_hf_config, lora_trainable_params, param_count
from advisor.knowledge import KnowledgeBase, _load_list, normalize_name
from advisor.models import ModelSpec
from advisor.paths import data_dir

TRANSFORMER_KINDS = ("decoder", "moe", "encoder", "vit")


@functools.lru_cache(maxsize=1)
def catalogue() -> KnowledgeBase:
    """Only models.yaml, through the same loader and lookup as `knowledge()` (other knowledge files
    are other people's work in progress and must not decide these tests)."""
    models = _load_list(data_dir("knowledge") / "models.yaml", ModelSpec)
    return KnowledgeBase(gpus={}, models=models, entries={}, findings={}, ui={})


def models() -> list[ModelSpec]:
    return list(catalogue().models.values())


def test_catalogue_size_and_coverage() -> None:
    kb = catalogue()
    assert len(kb.models) >= 30
    required = {
        "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3.1-8b", "llama-3-70b", "llama-3.1-70b",
        "llama-3.1-405b", "mistral-7b", "mixtral-8x7b", "mixtral-8x22b", "qwen2.5-0.5b", "qwen2.5-1.5b",
        "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-72b", "gemma-2b", "gemma-7b", "gemma-2-9b",
        "gemma-2-27b", "phi-3-mini-4k", "gpt2", "gpt2-medium", "gpt2-large", "gpt2-xl", "bert-base-uncased",
        "bert-large-uncased", "resnet-50", "vit-b-16", "sd15-unet", "sdxl-unet",
    }
    assert required <= set(kb.models)


@pytest.mark.parametrize("spec", [m for m in models() if m.kind in TRANSFORMER_KINDS], ids=lambda m: m.id)
def test_dimensions_reproduce_published_count(spec: ModelSpec) -> None:
    assert param_count(spec) == pytest.approx(spec.params, rel=0.005)


@pytest.mark.parametrize("spec", models(), ids=lambda m: m.id)
def test_entry_is_complete(spec: ModelSpec) -> None:
    assert spec.source.strip()
    if spec.kind in TRANSFORMER_KINDS:
        assert spec.hidden_size and spec.num_layers and spec.num_heads and spec.intermediate_size
        assert spec.num_kv_heads and spec.num_heads % spec.num_kv_heads == 0
    if spec.kind in ("decoder", "moe", "encoder"):
        assert spec.vocab_size and spec.max_context
    if spec.kind in ("cnn", "vit", "diffusion"):
        assert spec.activation_bytes_per_sample and spec.input_resolution
    if spec.kind == "moe":
        assert spec.num_experts and spec.experts_per_token and spec.active_params
        assert active_param_count(spec) == pytest.approx(spec.active_params, rel=0.005)
    else:
        assert spec.num_experts is None


def test_exact_published_totals_in_catalogue() -> None:
    """A few entries carry exact totals published elsewhere (numeric-anchors.md §4): the catalogue's
    dimensions must reproduce them to the parameter."""
    kb = catalogue()
    exact = {
        "llama-3.1-8b": 8_030_261_248,      # HF safetensors total
        "llama-3.1-70b": 70_553_706_496,    # HF safetensors total
        "llama-3.1-405b": 405_853_388_800,  # HF safetensors total
        "llama-3.2-3b": 3_212_749_824,      # PEFT run log num_total_params
        "qwen2.5-7b": 7_615_616_512,        # HF safetensors total
        "olmo-2-7b": 7_298_617_344,         # HF total
        "olmo-2-13b": 13_716_198_400,       # HF total
        "smollm3-3b": 3_075_098_624,        # HF total
        "falcon-180b": 179_522_565_120,     # HF total
        "vit-b-16": 86_567_656,             # torchvision meta
        "bert-base-uncased": 109_482_240,   # BertModel count
        "bert-large-uncased": 335_141_888,  # BertModel count
    }
    for ident, expected in exact.items():
        assert param_count(kb.models[ident]) == expected, ident


def test_llama2_counts_exclude_rotary_buffers() -> None:
    """HF totals 6,738,417,664 / 13,015,866,880 / 68,976,653,312 include 64 inv_freq floats per layer."""
    kb = catalogue()
    for ident, layers, hf_total in (("llama-2-7b", 32, 6_738_417_664), ("llama-2-13b", 40, 13_015_866_880),
                                    ("llama-2-70b", 80, 68_976_653_312)):
        assert param_count(kb.models[ident]) + 64 * layers == hf_total


def test_mixtral_active_and_total() -> None:
    """arXiv:2401.04088: Mixtral 8x7B has 47B parameters, 13B active per token (46.7B / 12.9B exactly);
    Mistral AI: Mixtral 8x22B 141B total, 39B active."""
    kb = catalogue()
    m7 = kb.model("mixtral 8x7b")
    assert m7 is not None
    assert round(param_count(m7) / 1e8) == 467 and round(active_param_count(m7) / 1e8) == 129
    m22 = kb.model("Mixtral-8x22B")
    assert m22 is not None
    assert round(param_count(m22) / 1e9) == 141 and round(active_param_count(m22) / 1e9) == 39


def test_published_non_llm_counts() -> None:
    """torchvision resnet50 25,557,032; diffusers SD 1.5 UNet 859,520,964 (numeric-anchors.md §4);
    SDXL paper (arXiv:2307.01952) Table 1: UNet 2.6B."""
    kb = catalogue()
    assert param_count(kb.models["resnet-50"]) == 25_557_032
    assert param_count(kb.models["sd15-unet"]) == 859_520_964
    assert round(param_count(kb.models["sdxl-unet"]) / 1e8) == 26


def test_activation_figures_are_plausible() -> None:
    """Measured activation bytes per sample (bf16) against an independent analytic figure:
    Korthikanti et al. (arXiv:2205.05198) give 34·s·b·h bytes per layer without the attention-score
    term (flash/sdpa attention); ViT-B/16: s = 197, h = 768, 12 layers -> 61.7 MB; within 15%."""
    vit = catalogue().models["vit-b-16"]
    analytic = 34 * 197 * 768 * 12
    assert vit.activation_bytes_per_sample == pytest.approx(analytic, rel=0.15)
    # Bigger inputs keep more: SD 1.5 at 512 px > ViT-L at 224 > ViT-B at 224 > ResNet-50 at 224.
    kb = catalogue()
    order = ["sdxl-unet", "sd15-unet", "vit-l-16", "vit-b-16", "resnet-50"]
    sizes = [kb.models[i].activation_bytes_per_sample for i in order]
    assert sizes == sorted(sizes, reverse=True)


SHAPE_FIELDS = (
    "kind", "hidden_size", "num_layers", "num_heads", "num_kv_heads", "head_dim", "intermediate_size", "vocab_size",
    "tie_embeddings", "qkv_bias", "attention_bias", "mlp_bias", "mlp", "norm", "norms_per_layer", "qk_norm",
    "position", "type_vocab_size", "embedding_norm", "final_norm", "pooler", "num_experts", "experts_per_token",
    "moe_intermediate_size", "shared_expert_intermediate_size", "shared_expert_gate", "fused_qkv", "fused_gate_up",
    "patch_size", "num_labels",
)

FIXTURE_TO_ENTRY = {
    "llama-2-7b.json": "llama-2-7b", "llama-3.1-8b.json": "llama-3.1-8b", "llama-3.2-3b.json": "llama-3.2-3b",
    "mistral-7b-v0.1.json": "mistral-7b", "mixtral-8x7b-v0.1.json": "mixtral-8x7b", "qwen2.5-0.5b.json": "qwen2.5-0.5b",
    "qwen2.5-7b.json": "qwen2.5-7b", "gemma-7b.json": "gemma-7b", "gemma-2-9b.json": "gemma-2-9b",
    "phi-3-mini-4k.json": "phi-3-mini-4k", "gpt2.json": "gpt2", "bert-base-uncased.json": "bert-base-uncased",
    "qwen1.5-moe-a2.7b.json": "qwen1.5-moe-a2.7b", "vit-base-patch16-224.json": "vit-b-16", "olmo-2-7b.json": "olmo-2-7b",
}


@pytest.mark.parametrize(("fixture", "ident"), sorted(FIXTURE_TO_ENTRY.items()))
def test_catalogue_entry_matches_its_config_json(fixture: str, ident: str) -> None:
    """The catalogue entry and the model's own config.json (tests/core/configs) describe the same
    architecture, so a catalogue name and a pasted config give the same numbers."""
    from_config = load_hf_config(Path(__file__).parent / "configs" / fixture)
    entry = catalogue().models[ident]
    for field in SHAPE_FIELDS:
        assert getattr(entry, field) == getattr(from_config, field), field
    assert param_count(entry) == param_count(from_config)
    assert lora_trainable_params(entry, 8, "all") == lora_trainable_params(from_config, 8, "all")


# What people type -> the model they mean.
SPELLINGS = [
    ("llama3 8b", "llama-3-8b"),
    ("Llama-3-8B", "llama-3-8b"),
    ("llama 3 8B", "llama-3-8b"),
    ("meta-llama/Meta-Llama-3-8B", "llama-3-8b"),
    ("Meta-Llama-3-8B-Instruct", "llama-3-8b"),
    ("Llama 3.1 8B", "llama-3.1-8b"),
    ("llama-3.1-8b-instruct", "llama-3.1-8b"),
    ("meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b"),
    ("Llama 3.3 70B", "llama-3.1-70b"),
    ("llama2 7b", "llama-2-7b"),
    ("Llama-2-7b-chat-hf", "llama-2-7b"),
    ("LLAMA 2 70B", "llama-2-70b"),
    ("llama 405b", "llama-3.1-405b"),
    ("Qwen2.5-7B", "qwen2.5-7b"),
    ("qwen 2.5-72b", "qwen2.5-72b"),
    ("Qwen/Qwen2.5-14B-Instruct", "qwen2.5-14b"),
    ("qwen2.5 0.5b", "qwen2.5-0.5b"),
    ("通义千问 7B", "qwen2.5-7b"),
    ("通義千問 7B", "qwen2.5-7b"),
    ("千问", "qwen2.5-7b"),
    ("千問 72B", "qwen2.5-72b"),
    ("通义千问2.5-32B", "qwen2.5-32b"),
    ("mistral 7b", "mistral-7b"),
    ("Mistral-7B-Instruct-v0.2", "mistral-7b"),
    ("mixtral 8x7b", "mixtral-8x7b"),
    ("Mixtral-8x7B-Instruct-v0.1", "mixtral-8x7b"),
    ("mixtral 8x22b", "mixtral-8x22b"),
    ("gemma 7b", "gemma-7b"),
    ("Gemma 2 9B", "gemma-2-9b"),
    ("google/gemma-2-27b-it", "gemma-2-27b"),
    ("phi-3-mini", "phi-3-mini-4k"),
    ("Phi 3 mini", "phi-3-mini-4k"),
    ("GPT-2", "gpt2"),
    ("gpt2-xl", "gpt2-xl"),
    ("GPT-2 Medium", "gpt2-medium"),
    ("bert-base-uncased", "bert-base-uncased"),
    ("BERT large", "bert-large-uncased"),
    ("ResNet50", "resnet-50"),
    ("ResNet-50", "resnet-50"),
    ("ViT-B/16", "vit-b-16"),
    ("stable diffusion 1.5", "sd15-unet"),
    ("SD 1.5", "sd15-unet"),
    ("SDXL", "sdxl-unet"),
    ("Yi-34B", "yi-34b"),
    ("deepseek 67b", "deepseek-llm-67b"),
]


@pytest.mark.parametrize(("typed", "expected"), SPELLINGS)
def test_user_spellings_resolve(typed: str, expected: str) -> None:
    spec = catalogue().model(typed)
    assert spec is not None, typed
    assert spec.id == expected


@pytest.mark.parametrize("typed", ["llama", "gpt-5", "7B", "", "qwen 2.5 9b"])
def test_ambiguous_or_unknown_names_do_not_resolve(typed: str) -> None:
    """A bare family with many sizes, an unknown model, or a bare size must not pick a model."""
    assert catalogue().model(typed) is None


def test_no_alias_names_two_models() -> None:
    owner: dict[str, str] = {}
    clashes = []
    for spec in models():
        for name in (spec.id, spec.name, *spec.aliases):
            key = normalize_name(name)
            assert key, f"{spec.id}: alias {name!r} is empty once normalized"
            if owner.setdefault(key, spec.id) != spec.id:
                clashes.append((name, owner[key], spec.id))
    assert clashes == []


def test_hub_ids_also_resolve_without_the_organisation() -> None:
    """People paste 'Llama-2-7b-chat-hf' as often as 'meta-llama/Llama-2-7b-chat-hf'."""
    kb = catalogue()
    for spec in models():
        for alias in spec.aliases:
            org, _, repo = alias.rpartition("/")
            if org and len(repo) > 3:
                found = kb.model(repo)
                assert found is not None and found.id == spec.id, alias


def test_chinese_aliases_in_both_scripts() -> None:
    """Every Simplified alias of Qwen has its Traditional twin (千问/千問, 通义千问/通義千問)."""
    for spec in models():
        simplified = [a for a in spec.aliases if "问" in a]
        traditional = {a for a in spec.aliases if "問" in a}
        for alias in simplified:
            assert alias.replace("义", "義").replace("问", "問") in traditional, (spec.id, alias)


def test_knowledge_base_resolves_catalogue() -> None:
    """The product's own lookup, `knowledge().model`, sees the same catalogue."""
    from advisor.knowledge import KnowledgeError, knowledge

    try:
        kb = knowledge()
    except KnowledgeError as exc:  # another file under knowledge/ is broken: name it, fail clearly
        if Path(exc.file).name == "models.yaml":
            raise
        pytest.fail(f"knowledge/ does not load, not because of models.yaml: {exc}")
    spec = kb.model("通義千問 7B")
    assert spec is not None and spec.id == "qwen2.5-7b"
    assert param_count(spec) == 7_615_616_512
