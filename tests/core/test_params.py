"""Parameter counts from dimensions, checked against independently published totals.

Each expected figure below comes from outside this code: a Hugging Face safetensors total, a
paper, a library's printed output, or a hand computation written out in the test. The dimensions
come from hand-written copies of real config.json files (tests/core/configs/) or from the papers'
tables, never from knowledge/models.yaml, so the catalogue cannot agree with itself by accident.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.core.params import (
    SUPPORTED_MODEL_TYPES,
    ConfigError,
    active_param_count,
    load_hf_config,
    lora_trainable_params,
    param_count,
    spec_from_hf_config,
    spec_from_param_count,
)
from advisor.models import ModelSpec

CONFIGS = Path(__file__).parent / "configs"


def cfg(name: str) -> dict:
    return json.loads((CONFIGS / name).read_text(encoding="utf-8"))


def llama(h, layers, heads, kv, ffn, vocab, tied=False, head_dim=None, **extra) -> dict:
    """A Llama-family config.json as Hugging Face writes it."""
    out = {
        "model_type": "llama",
        "hidden_size": h,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": kv,
        "intermediate_size": ffn,
        "vocab_size": vocab,
        "tie_word_embeddings": tied,
    }
    if head_dim:
        out["head_dim"] = head_dim
    out.update(extra)
    return out


# --------------------------------------------------------------------------------------------
# numeric-anchors.md §4, "Parameter counts of popular models": every row.

# Exact totals. Source of each figure in the third column.
EXACT = [
    # Hugging Face API `safetensors.total` (numeric-anchors.md §1.1/§4).
    ("llama-3.1-8b", cfg("llama-3.1-8b.json"), 8_030_261_248),
    ("llama-3.1-70b", llama(8192, 80, 64, 8, 28672, 128256, max_position_embeddings=131072), 70_553_706_496),
    ("llama-3.1-405b", llama(16384, 126, 128, 8, 53248, 128256), 405_853_388_800),
    # `num_total_params` logged by a public PEFT fine-tuning run (numeric-anchors.md §4).
    ("llama-3.2-3b", cfg("llama-3.2-3b.json"), 3_212_749_824),
    # HF API total; model card: "7.61B, 6.53B non-embedding".
    ("qwen2.5-7b", cfg("qwen2.5-7b.json"), 7_615_616_512),
    # Hugging Face API totals transcribed in a public dataset script (numeric-anchors.md §4, "Others").
    ("olmo-2-7b", cfg("olmo-2-7b.json"), 7_298_617_344),
    ("olmo-2-13b", {**cfg("olmo-2-7b.json"), "hidden_size": 5120, "num_hidden_layers": 40,
                    "num_attention_heads": 40, "num_key_value_heads": 40, "intermediate_size": 13824}, 13_716_198_400),
    ("smollm3-3b", llama(2048, 36, 16, 4, 11008, 128256, tied=True), 3_075_098_624),
    # PEFT README (LoRA on Llama-2-7B, r=8, q_proj/v_proj) prints
    # "trainable params: 4,194,304 || all params: 6,742,609,920": base = 6,742,609,920 - 4,194,304.
    ("llama-2-7b", cfg("llama-2-7b.json"), 6_742_609_920 - 4_194_304),
    # torchvision vit_b_16 weights meta: 86,567,656 parameters.
    ("vit-b-16", cfg("vit-base-patch16-224.json"), 86_567_656),
    # transformers' GPT2Model: 124,439,808 parameters (the figure `model.num_parameters()` prints).
    ("gpt2", cfg("gpt2.json"), 124_439_808),
]


@pytest.mark.parametrize(("label", "config", "expected"), EXACT, ids=[row[0] for row in EXACT])
def test_param_count_matches_exact_published_totals(label: str, config: dict, expected: int) -> None:
    assert param_count(spec_from_hf_config(config, label)) == expected


@pytest.mark.parametrize(
    ("label", "config", "layers", "hf_total"),
    [
        ("llama-2-7b", cfg("llama-2-7b.json"), 32, 6_738_417_664),
        ("llama-2-13b", llama(5120, 40, 40, 40, 13824, 32000), 40, 13_015_866_880),
        ("llama-2-70b", llama(8192, 80, 64, 8, 28672, 32000), 80, 68_976_653_312),
    ],
)
def test_llama2_hf_totals_are_parameters_plus_rotary_buffers(label, config, layers, hf_total) -> None:
    """HF safetensors totals of Llama 2 (numeric-anchors.md §4) include one 64-float rotary
    `inv_freq` buffer per layer (head_dim 128 / 2), which is not a parameter."""
    assert param_count(spec_from_hf_config(config, label)) + 64 * layers == hf_total


def test_falcon_180b_exact() -> None:
    """Falcon-180B (tiiuae/falcon-180B config: h 14848, 80 layers, 232 heads, 8 KV heads, GELU MLP 4h,
    two LayerNorms per block, no biases, untied head); HF total 179,522,565,120 (numeric-anchors.md §4)."""
    spec = ModelSpec(
        id="falcon", name="Falcon 180B", family="falcon", kind="decoder", params=1, hidden_size=14848,
        num_layers=80, num_heads=232, num_kv_heads=8, head_dim=64, intermediate_size=4 * 14848,
        vocab_size=65024, mlp="gelu", norm="layernorm", source="test",
    )
    assert param_count(spec) == 179_522_565_120


def test_bloom_176b_matches_paper() -> None:
    """BLOOM paper (arXiv:2211.05100) Table: 176,247M parameters; dims h 14336, 70 layers, 112 heads,
    vocab 250880, ALiBi, embedding LayerNorm, biases everywhere, tied head."""
    spec = ModelSpec(
        id="bloom", name="BLOOM", family="bloom", kind="decoder", params=1, hidden_size=14336, num_layers=70,
        num_heads=112, intermediate_size=4 * 14336, vocab_size=250880, tie_embeddings=True, mlp="gelu",
        norm="layernorm", attention_bias=True, mlp_bias=True, position="alibi", embedding_norm=True, source="test",
    )
    assert round(param_count(spec) / 1e6) == 176_247


def test_palm_540b_matches_paper() -> None:
    """PaLM paper (arXiv:2204.02311) Table 1: 540.35B; 118 layers, d_model 18432, 48 heads of 256,
    multi-query (1 KV head), SwiGLU FFN 4·d = 73728, vocab 256k, shared embeddings, no biases,
    one norm per parallel block. Tolerance 0.01% (the paper rounds to 10M)."""
    spec = ModelSpec(
        id="palm", name="PaLM", family="palm", kind="decoder", params=1, hidden_size=18432, num_layers=118,
        num_heads=48, num_kv_heads=1, head_dim=256, intermediate_size=73728, vocab_size=256000,
        tie_embeddings=True, norms_per_layer=1, source="test",
    )
    assert param_count(spec) == pytest.approx(540.35e9, rel=1e-4)


def test_gpt3_175b_within_half_percent_of_paper() -> None:
    """GPT-3 paper (arXiv:2005.14165) Table 2.1: 96 layers, d_model 12288, 96 heads, context 2048, 175.0B."""
    config = {"model_type": "gpt2", "n_embd": 12288, "n_layer": 96, "n_head": 96, "vocab_size": 50257, "n_positions": 2048}
    assert param_count(spec_from_hf_config(config)) == pytest.approx(175.0e9, rel=0.005)


def test_mistral_7b() -> None:
    """Mistral 7B: HF safetensors total 7,241,732,096 ("7.24B params" on the model page);
    the announcement's "7.3B" is within 1%."""
    count = param_count(spec_from_hf_config(cfg("mistral-7b-v0.1.json")))
    assert count == 7_241_732_096
    assert count == pytest.approx(7.3e9, rel=0.01)


def test_mixtral_8x7b_total_and_active() -> None:
    """Mixtral paper (arXiv:2401.04088): "47B parameters ... only uses 13B active parameters";
    HF model page: 46.7B."""
    spec = spec_from_hf_config(cfg("mixtral-8x7b-v0.1.json"))
    assert round(param_count(spec) / 1e8) == 467
    assert round(param_count(spec) / 1e9) == 47
    assert round(active_param_count(spec) / 1e9) == 13
    assert round(active_param_count(spec) / 1e8) == 129
    assert spec.active_params == active_param_count(spec)


def test_qwen25_72b_card() -> None:
    """Qwen2.5-72B model card: "Number of Parameters: 72.7B"; dims h 8192, 80 layers, 64/8 heads,
    FFN 29568, vocab 152064, QKV bias."""
    config = {**cfg("qwen2.5-7b.json"), "hidden_size": 8192, "num_hidden_layers": 80, "num_attention_heads": 64,
              "num_key_value_heads": 8, "intermediate_size": 29568}
    assert round(param_count(spec_from_hf_config(config)) / 1e8) == 727


def test_qwen_small_models_tied_and_card_figures() -> None:
    """Qwen2.5-0.5B card: 0.49B parameters, 0.36B non-embedding (embeddings tied: counted once)."""
    spec = spec_from_hf_config(cfg("qwen2.5-0.5b.json"))
    assert spec.tie_embeddings and spec.qkv_bias
    total = param_count(spec)
    assert round(total / 1e7) == 49
    assert round((total - 151936 * 896) / 1e7) == 36


def test_qwen25_7b_non_embedding_matches_card() -> None:
    """Qwen2.5-7B card: 6.53B non-embedding (embedding and untied head excluded)."""
    total = param_count(spec_from_hf_config(cfg("qwen2.5-7b.json")))
    assert round((total - 2 * 152064 * 3584) / 1e7) == 653


def test_bert_base_uncased_and_large() -> None:
    """BertModel (with pooler) parameter counts as printed by transformers and quoted widely:
    bert-base-uncased 109,482,240, bert-large-uncased 335,141,888 (numeric-anchors.md §4; BERT paper:
    110M and 340M)."""
    base = spec_from_hf_config(cfg("bert-base-uncased.json"))
    assert param_count(base) == 109_482_240
    large_cfg = {**cfg("bert-base-uncased.json"), "hidden_size": 1024, "num_hidden_layers": 24,
                 "num_attention_heads": 16, "intermediate_size": 4096}
    assert param_count(spec_from_hf_config(large_cfg)) == 335_141_888


def test_bert_base_cased_matches_accelerate_size() -> None:
    """accelerate docs (numeric-anchors.md GT-20): bert-base-cased fp32 load "413.18 MB" (binary MB).
    Vocabulary 28996; the loaded size also holds int64 position/token-type id buffers (<= 8 KiB)."""
    spec = spec_from_hf_config({**cfg("bert-base-uncased.json"), "vocab_size": 28996})
    assert param_count(spec) * 4 / 2**20 == pytest.approx(413.18, abs=0.01)


def test_vision_and_diffusion_use_published_counts() -> None:
    """CNN and diffusion entries carry their published count: torchvision resnet50 meta 25,557,032;
    diffusers SD 1.5 UNet `num_parameters()` 859,520,964 (numeric-anchors.md §4)."""
    resnet = ModelSpec(id="r", name="ResNet-50", family="resnet", kind="cnn", params=25_557_032, source="torchvision")
    unet = ModelSpec(id="u", name="SD 1.5 UNet", family="unet", kind="diffusion", params=859_520_964, source="diffusers")
    assert param_count(resnet) == 25_557_032
    assert param_count(unet) == 859_520_964
    assert active_param_count(resnet) == 25_557_032


# --------------------------------------------------------------------------------------------
# Architectural details that break naive formulas


def test_gemma_head_dim_differs_from_hidden_over_heads() -> None:
    """Gemma 7B: 16 heads x head_dim 256 = 4096 != hidden 3072; tied embeddings by default (no key in
    its config.json); GeGLU. HF model page: 8.54B; exact 8,537,680,896 from the Gemma report's dims."""
    spec = spec_from_hf_config(cfg("gemma-7b.json"))
    assert spec.head_dim == 256 and spec.tie_embeddings
    assert param_count(spec) == 8_537_680_896
    # Using hidden/heads = 192 instead of 256 would undercount by 28 x 2 x 3072 x 16 x 64 x 2.
    wrong = spec.model_copy(update={"head_dim": None})
    assert param_count(spec) - param_count(wrong) == 28 * (4 * 3072 * 16 * 64)


def test_gemma2_four_norms_per_block() -> None:
    """Gemma 2 9B: HF page 9.24B; 4 RMSNorms per block (pre/post attention and feed-forward)."""
    spec = spec_from_hf_config(cfg("gemma-2-9b.json"))
    assert spec.norms_per_layer == 4
    assert round(param_count(spec) / 1e7) == 924


def test_phi3_mini() -> None:
    """Phi-3-mini (arXiv:2404.14219): 3.8B; HF page 3.82B."""
    assert round(param_count(spec_from_hf_config(cfg("phi-3-mini-4k.json"))) / 1e7) == 382


def test_tied_vs_untied_differs_by_one_embedding() -> None:
    """Llama-3.2-3B ties its head: untying it adds exactly vocab x hidden = 128256 x 3072."""
    tied = spec_from_hf_config(cfg("llama-3.2-3b.json"))
    untied = spec_from_hf_config({**cfg("llama-3.2-3b.json"), "tie_word_embeddings": False})
    assert param_count(untied) - param_count(tied) == 128256 * 3072


def test_qwen_moe_shared_expert() -> None:
    """Qwen1.5-MoE-A2.7B model card: 14.3B total, 2.7B activated (60 experts of width 1408, top-4,
    plus a gated shared expert of width 5632)."""
    spec = spec_from_hf_config(cfg("qwen1.5-moe-a2.7b.json"))
    assert round(param_count(spec) / 1e8) == 143
    assert round(active_param_count(spec) / 1e8) == 27


def test_dense_active_equals_total() -> None:
    spec = spec_from_hf_config(cfg("llama-3.1-8b.json"))
    assert active_param_count(spec) == param_count(spec) == 8_030_261_248


# --------------------------------------------------------------------------------------------
# StarCoder, Phi, StableLM, GPT-NeoX, Falcon, BLOOM, MPT, T5/mT5: transformers' own count

# Figures from tools/hf_param_counts.py, run with transformers 5.24.0 and torch 2.14.1: each fixture
# config built by `AutoModelForCausalLM.from_config` (`AutoModelForSeq2SeqLM` for t5/mt5) inside
# `with torch.device("meta")`, then `sum(p.numel() for p in model.parameters())` (a tied tensor is
# yielded once). T0 and mT0 set tie_word_embeddings false: transformers 5 ties T5 heads at
# from_config but unties them in from_pretrained, their checkpoints holding their own lm_head; the
# script gives the head its own tensor as loading does. transformers 4.57.6, which builds those
# heads untied itself, gives the same figure for every row.
HF_META = [
    ("starcoder.json", 15_517_456_384),  # bigcode/starcoder; bigcode/octocoder has the same config
    ("phi-1_5.json", 1_418_270_720),  # microsoft/phi-1_5; microsoft/phi-1 has the same dimensions
    ("phi-2.json", 2_779_683_840),
    ("stablelm-3b-4e1t.json", 2_795_443_200),
    ("stablelm-2-1_6b.json", 1_644_515_328),
    ("stablelm-base-alpha-3b.json", 3_637_321_728),  # gpt_neox
    ("pythia-6.9b.json", 6_857_302_016),  # gpt_neox
    ("falcon-7b.json", 6_921_720_704),
    ("falcon-40b.json", 41_303_293_952),
    ("bloomz-7b1.json", 7_069_016_064),
    ("mpt-7b.json", 6_649_286_656),
    ("t5-3b.json", 2_851_598_336),  # T5 v1.0: ReLU MLP, tied head
    ("t0-3b.json", 2_849_757_184),  # bigscience/T0_3B: T5 v1.1 XL shape, gated-GELU, untied head
    ("mt0-xxl.json", 12_921_057_280),  # mt5-xxl shape
]


@pytest.mark.parametrize(("fixture", "expected"), HF_META, ids=[row[0].removesuffix(".json") for row in HF_META])
def test_param_count_matches_transformers_meta_count(fixture: str, expected: int) -> None:
    spec = load_hf_config(CONFIGS / fixture)
    assert spec.params == param_count(spec) == expected


def test_new_architectures_match_published_figures() -> None:
    """Outside the code and transformers: StarCoder paper (arXiv:2305.06161) "15.5B parameter models";
    Phi-2 Hugging Face page 2.78B; Falcon-7B 6.92B (Hugging Face); BLOOM-7b1 model card "7,069,016,064
    parameters" (BLOOMZ-7b1 is its fine-tune, same shape); mT5 paper (arXiv:2010.11934) mT5-XXL 13B;
    T5 paper (arXiv:1910.10683) "3B"."""
    assert round(param_count(load_hf_config(CONFIGS / "starcoder.json")) / 1e8) == 155
    assert round(param_count(load_hf_config(CONFIGS / "phi-2.json")) / 1e7) == 278
    assert round(param_count(load_hf_config(CONFIGS / "falcon-7b.json")) / 1e7) == 692
    assert param_count(load_hf_config(CONFIGS / "bloomz-7b1.json")) == 7_069_016_064
    assert round(param_count(load_hf_config(CONFIGS / "mt0-xxl.json")) / 1e9) == 13
    assert round(param_count(load_hf_config(CONFIGS / "t5-3b.json")) / 1e9) == 3


@pytest.mark.parametrize(
    ("label", "dims", "total", "non_embedding"),
    [
        ("pythia-160m", {"hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
                         "intermediate_size": 3072, "vocab_size": 50304}, 162_322_944, None),
        ("pythia-1b", {"hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 8,
                       "intermediate_size": 8192, "vocab_size": 50304}, 1_011_781_632, None),
        ("pythia-6.9b", {}, 6_857_302_016, 6_444_163_072),
    ],
)
def test_pythia_matches_paper_table(label: str, dims: dict, total: int, non_embedding: int | None) -> None:
    """Pythia paper (Biderman et al., arXiv:2304.01373) Table 1, total parameters (and non-embedding:
    the total less the untied input and output embeddings)."""
    spec = spec_from_hf_config({**cfg("pythia-6.9b.json"), **dims}, label)
    assert param_count(spec) == total
    if non_embedding is not None:
        assert total - 2 * spec.vocab_size * spec.hidden_size == non_embedding


def test_mt0_large_matches_peft_readme() -> None:
    """PEFT README quick start: bigscience/mt0-large (mt5-large: d_model 1024, d_ff 2816, 16 heads of
    64, 24 + 24 layers, vocabulary 250112, untied head), LoRA r=8 on the default T5 targets q and v:
    "trainable params: 2359296 || all params: 1231940608". By hand for the adapters: q and v in 24
    encoder self-attentions, 24 decoder self-attentions and 24 cross-attentions = 144 matrices
    x 8 x (1024 + 1024) = 2,359,296."""
    config = {**cfg("mt0-xxl.json"), "d_model": 1024, "d_ff": 2816, "num_heads": 16}
    spec = spec_from_hf_config(config, "mt0-large")
    trainable = lora_trainable_params(spec, 8, ["q", "v"])
    assert trainable == 2_359_296
    assert param_count(spec) + trainable == 1_231_940_608


def test_falcon_old_and_new_decoder_architecture() -> None:
    """Falcon-7B: multi-query (query_key_value 4544 -> 4544 + 2 x 64), one LayerNorm per parallel block.
    Falcon-40B (new_decoder_architecture): 8 KV heads (8192 -> (128 + 16) x 64), ln_attn and ln_mlp."""
    small = load_hf_config(CONFIGS / "falcon-7b.json")
    assert (small.num_kv_heads, small.norms_per_layer, small.tie_embeddings) == (1, 1, True)
    big = load_hf_config(CONFIGS / "falcon-40b.json")
    assert (big.num_kv_heads, big.norms_per_layer) == (8, 2)
    # Without the new architecture num_kv_heads is ignored (FalconAttention): multi-query again.
    old = spec_from_hf_config({**cfg("falcon-40b.json"), "new_decoder_architecture": False})
    assert old.num_kv_heads == 1 and old.norms_per_layer == 1


def test_phi_head_bias_survives_tying() -> None:
    """Phi-2's lm_head is nn.Linear(2560, 51200, bias=True): tying would share the weight, not the bias."""
    untied = load_hf_config(CONFIGS / "phi-2.json")
    assert untied.lm_head_bias and untied.norms_per_layer == 1
    tied = spec_from_hf_config({**cfg("phi-2.json"), "tie_word_embeddings": True})
    assert param_count(untied) - param_count(tied) == 51200 * 2560


def test_mpt_layernorms_have_no_bias() -> None:
    """MPT-7B checkpoints have no biases, the LayerNorms' included (transformers sets norm.bias = None):
    with biases the count would grow by one per norm: (2 x 32 + 1) x 4096."""
    spec = load_hf_config(CONFIGS / "mpt-7b.json")
    assert not spec.norm_bias
    assert param_count(spec.model_copy(update={"norm_bias": True})) - param_count(spec) == 65 * 4096


@pytest.mark.parametrize(
    ("patch", "key"),
    [
        ({"no_bias": False}, "no_bias"),
        ({"attn_config": {"alibi": False}}, "attn_config.alibi"),
        ({"attn_config": {"qk_ln": True}}, "attn_config.qk_ln"),
        ({"attn_config": {"attn_type": "multiquery_attention"}}, "attn_config.attn_type"),
    ],
)
def test_mpt_variants_we_do_not_count_are_refused(patch: dict, key: str) -> None:
    with pytest.raises(ConfigError, match=key) as err:
        spec_from_hf_config({**cfg("mpt-7b.json"), **patch})
    assert err.value.key == "config_error.unsupported_variant"


def test_stablelm_qk_layernorm_refused() -> None:
    """StableLM 2 12B's per-head q/k LayerNorms (no bias) are not modelled: refused, not miscounted."""
    with pytest.raises(ConfigError, match="qk_layernorm") as err:
        spec_from_hf_config({**cfg("stablelm-2-1_6b.json"), "qk_layernorm": True})
    assert err.value.key == "config_error.unsupported_variant"


def test_t5_encoder_decoder_shape() -> None:
    """T0_3B: 24 encoder + 24 decoder blocks in num_layers; untied head (its config), so tying it
    removes exactly vocab x d_model; the relative-position tables are 32 buckets x 32 heads in the
    first block of each stack; a gated-GELU MLP has three matrices."""
    spec = load_hf_config(CONFIGS / "t0-3b.json")
    assert (spec.kind, spec.num_layers, spec.decoder_layers, spec.mlp) == ("seq2seq", 48, 24, "geglu")
    assert (spec.head_dim, spec.position, spec.relative_attention_buckets) == (64, "relative", 32)
    tied = spec.model_copy(update={"tie_embeddings": True})
    assert param_count(spec) - param_count(tied) == 32128 * 2048
    no_tables = spec.model_copy(update={"position": "none"})
    assert param_count(spec) - param_count(no_tables) == 2 * 32 * 32
    v1 = load_hf_config(CONFIGS / "t5-3b.json")  # T5 v1.0: ReLU MLP (two matrices), 32 heads x 128 on 1024
    assert (v1.mlp, v1.tie_embeddings, v1.num_heads * v1.head_dim, v1.hidden_size) == ("gelu", True, 4096, 1024)


def test_mt5_head_untied_by_default() -> None:
    """MT5Config defaulted to an untied head before transformers 5 (and every mT5 checkpoint has its own
    lm_head); a T5 config without the key ties (T5 v1.0)."""
    config = {k: v for k, v in cfg("mt0-xxl.json").items() if k != "tie_word_embeddings"}
    assert not spec_from_hf_config(config).tie_embeddings
    assert spec_from_hf_config({**config, "model_type": "t5"}).tie_embeddings


def test_t5_bad_feed_forward_proj() -> None:
    with pytest.raises(ConfigError, match="feed_forward_proj") as err:
        spec_from_hf_config({**cfg("t0-3b.json"), "feed_forward_proj": "gelu-gated"})
    assert err.value.key == "config_error.bad_value"


def test_seq2seq_spec_feeds_memory_as_one_stack() -> None:
    """memory.py reads a seq2seq model as one encoder-style stack of all its blocks (its approximation):
    a transformer shape of 48 layers, Korthikanti's activation model, positive activations, and the
    untied head left out of the quantisable linear layers like a decoder's. No KV cache is modelled."""
    from advisor.core import memory

    spec = load_hf_config(CONFIGS / "mt0-xxl.json")
    shape = memory.shape_from_spec(spec)
    assert shape.is_transformer and shape.layers == 48 and not shape.generates
    assert memory.activation_model(shape) == "megatron"
    assert memory.activation_bytes(shape, 1, 512).saved > 0
    assert shape.linear_params == spec.params - 2 * 250112 * 4096 - 48 * 2 * 4096  # embedding, head, norms out


# --------------------------------------------------------------------------------------------
# LoRA


def test_lora_llama2_7b_r8_qv_matches_peft() -> None:
    """PEFT README: Llama-2-7B, r=8, target q_proj and v_proj -> "trainable params: 4,194,304".
    By hand: 32 layers x 2 matrices x 8 x (4096 + 4096) = 4,194,304."""
    spec = spec_from_hf_config(cfg("llama-2-7b.json"))
    assert lora_trainable_params(spec, 8, ["q", "v"]) == 4_194_304
    assert lora_trainable_params(spec, 8, ["q_proj", "v_proj"]) == 4_194_304


@pytest.mark.parametrize(("rank", "expected"), [(32, 9_175_040), (64, 18_350_080)])
def test_lora_gqa_llama32_3b_matches_peft_log(rank: int, expected: int) -> None:
    """numeric-anchors.md §1.4: a public PEFT run on Llama-3.2-3B logged num_trainable_params
    9,175,040 (r=32) and 18,350,080 (r=64) for q_proj (3072->3072) and v_proj (3072->1024, GQA)."""
    spec = spec_from_hf_config(cfg("llama-3.2-3b.json"))
    assert lora_trainable_params(spec, rank, ("q", "v")) == expected


def test_lora_all_linear_llama3_8b() -> None:
    """Llama-3-8B, r=16 on all seven projections; TRL/Unsloth tutorials print "trainable params:
    41,943,040 || all params: 8,072,204,288". By hand, per layer: q 16·(4096+4096) = 131,072;
    k and v 16·(4096+1024) = 81,920 each; o 131,072; gate, up, down 16·(4096+14336) = 294,912 each;
    sum 1,310,720 x 32 layers = 41,943,040; 8,030,261,248 + 41,943,040 = 8,072,204,288."""
    spec = spec_from_hf_config(cfg("llama-3.1-8b.json"))
    trainable = lora_trainable_params(spec, 16, ["q", "k", "v", "o", "gate", "up", "down"])
    assert trainable == 41_943_040
    assert param_count(spec) + trainable == 8_072_204_288
    assert lora_trainable_params(spec, 16, "all-linear") == trainable
    assert lora_trainable_params(spec, 16, "q,k,v,o,gate,up,down") == trainable


def test_lora_moe_adapts_every_expert() -> None:
    """Mixtral: an adapter on w1/w3/w2 of each of the 8 experts. By hand for down only, r=4:
    32 layers x 8 experts x 4 x (14336 + 4096) = 18,874,368."""
    spec = spec_from_hf_config(cfg("mixtral-8x7b-v0.1.json"))
    assert lora_trainable_params(spec, 4, ["down"]) == 18_874_368


def test_lora_gelu_mlp_has_no_gate() -> None:
    """GPT-2 has no gate projection: asking for it adds nothing; up = 768 -> 3072, r=2, 12 layers:
    12 x 2 x (768 + 3072) = 92,160."""
    spec = spec_from_hf_config(cfg("gpt2.json"))
    assert lora_trainable_params(spec, 2, ["gate", "up"]) == 92_160


@pytest.mark.parametrize("rank", [0, -8, 2.5, True])
def test_lora_bad_rank(rank) -> None:
    spec = spec_from_hf_config(cfg("llama-2-7b.json"))
    with pytest.raises(ValueError, match="rank"):
        lora_trainable_params(spec, rank, ["q"])


def test_lora_bad_targets_named() -> None:
    spec = spec_from_hf_config(cfg("llama-2-7b.json"))
    with pytest.raises(ValueError, match="qkv.*q, k, v, o, gate, up, down"):
        lora_trainable_params(spec, 8, ["q", "qkv"])
    with pytest.raises(ValueError, match="no LoRA target"):
        lora_trainable_params(spec, 8, [])


def test_lora_needs_transformer_dims() -> None:
    resnet = ModelSpec(id="r", name="ResNet-50", family="resnet", kind="cnn", params=25_557_032, source="t")
    with pytest.raises(ValueError, match="ResNet-50"):
        lora_trainable_params(resnet, 8, ["q"])


# --------------------------------------------------------------------------------------------
# config.json reading


@pytest.mark.parametrize("name", sorted(p.name for p in CONFIGS.glob("*.json")))
def test_every_fixture_config_loads(name: str) -> None:
    spec = load_hf_config(CONFIGS / name)
    assert spec.params == param_count(spec) > 0
    assert spec.hidden_size and spec.num_layers


def test_load_reads_dimensions_and_context() -> None:
    spec = load_hf_config(CONFIGS / "llama-3.1-8b.json")
    assert (spec.hidden_size, spec.num_layers, spec.num_heads, spec.num_kv_heads, spec.head_dim) == (4096, 32, 32, 8, 128)
    assert spec.max_context == 131072 and spec.kind == "decoder" and not spec.tie_embeddings
    named = load_hf_config(CONFIGS / "llama-2-7b.json")
    assert named.name == "meta-llama/Llama-2-7b-hf"


def test_load_from_folder(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps(cfg("gpt2.json")), encoding="utf-8")
    spec = load_hf_config(tmp_path)
    assert spec.params == 124_439_808
    assert spec.name == tmp_path.name


def test_missing_keys_are_all_named() -> None:
    with pytest.raises(ConfigError) as err:
        spec_from_hf_config({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32})
    message = str(err.value)
    for key in ("num_hidden_layers", "intermediate_size", "vocab_size"):
        assert key in message
    assert "hidden_size," not in message and "num_attention_heads" not in message
    assert err.value.key == "config_error.missing_keys"
    assert "vocab_size" in err.value.values["keys"]


def test_unknown_model_type_lists_supported() -> None:
    with pytest.raises(ConfigError) as err:
        spec_from_hf_config({"model_type": "mamba", "d_model": 512})
    assert "'mamba'" in str(err.value)
    for supported in ("llama", "mistral", "mixtral", "qwen2", "gemma", "gemma2", "phi3", "gpt2", "bert",
                      "gpt_bigcode", "phi", "stablelm", "gpt_neox", "falcon", "bloom", "mpt", "t5", "mt5"):
        assert supported in str(err.value)
        assert supported in SUPPORTED_MODEL_TYPES
    assert err.value.key == "config_error.unknown_model_type"


def test_no_model_type() -> None:
    with pytest.raises(ConfigError, match="model_type"):
        spec_from_hf_config({"hidden_size": 4096})


@pytest.mark.parametrize(
    ("patch", "key"),
    [
        ({"hidden_size": "4096"}, "hidden_size"),
        ({"num_hidden_layers": 0}, "num_hidden_layers"),
        ({"vocab_size": -5}, "vocab_size"),
        ({"intermediate_size": 11008.5}, "intermediate_size"),
        ({"num_key_value_heads": 5}, "num_key_value_heads"),
        ({"tie_word_embeddings": "yes"}, "tie_word_embeddings"),
        ({"hidden_size": True}, "hidden_size"),
    ],
)
def test_bad_values_are_named(patch: dict, key: str) -> None:
    with pytest.raises(ConfigError, match=key) as err:
        spec_from_hf_config({**cfg("llama-2-7b.json"), **patch})
    assert err.value.key == "config_error.bad_value"


def test_not_a_mapping() -> None:
    with pytest.raises(ConfigError, match="JSON object"):
        spec_from_hf_config(["model_type", "llama"])  # type: ignore[arg-type]


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found") as err:
        load_hf_config(tmp_path / "nope" / "config.json")
    assert err.value.key == "config_error.missing_file"


def test_bad_json_says_where(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "llama",\n "hidden_size": 4096,,}', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"not valid JSON \(line 2") as err:
        load_hf_config(path)
    assert err.value.key == "config_error.bad_json"


def test_json_that_is_not_an_object(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text("[1, 2, 3]", encoding="utf-8")
    with pytest.raises(ConfigError, match="JSON object"):
        load_hf_config(path)


def test_nested_text_config() -> None:
    """Multimodal configs nest the language model under text_config."""
    spec = spec_from_hf_config({"architectures": ["X"], "text_config": cfg("mistral-7b-v0.1.json")})
    assert param_count(spec) == 7_241_732_096


def test_config_error_messages_exist_in_three_languages(tmp_path: Path) -> None:
    """Every ConfigError key has en, zh-Hans and zh-Hant text, and the placeholders fill.
    (Reads knowledge/ui/ directly, as i18n.t does, so that other knowledge files do not matter here.)"""
    from advisor.knowledge import _load_ui
    from advisor.paths import data_dir

    ui = _load_ui(data_dir("knowledge") / "ui")

    errors = []
    for bad in ({"model_type": "mamba"}, {"model_type": "llama"}, {**cfg("gpt2.json"), "n_layer": "x"}, [1],
                {**cfg("llama-2-7b.json"), "num_key_value_heads": 5}, {**cfg("mpt-7b.json"), "no_bias": False}):
        try:
            spec_from_hf_config(bad)  # type: ignore[arg-type]
        except ConfigError as exc:
            errors.append(exc)
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    for path in (tmp_path / "missing.json", tmp_path / "bad.json"):
        try:
            load_hf_config(path)
        except ConfigError as exc:
            errors.append(exc)
    assert len(errors) == 8
    assert len({exc.key for exc in errors}) == 7
    for exc in errors:
        for locale in ("en", "zh-Hans", "zh-Hant"):
            text = ui[exc.key].get(locale).format(**exc.values)
            assert "{" not in text and text


# --------------------------------------------------------------------------------------------
# A bare size


@pytest.mark.parametrize("bad", [0, -7_000_000_000, float("nan"), float("inf"), True])
def test_stand_in_rejects_non_positive(bad) -> None:
    with pytest.raises(ValueError):
        spec_from_param_count(bad)


@pytest.mark.parametrize(
    ("n", "hidden"),
    [
        # Real models of these sizes: Llama-2-7B / Mistral-7B h=4096; Llama 2/3 70B h=8192;
        # Llama-3.2-1B h=2048; Llama-2-13B h=5120.
        (7_000_000_000, 4096),
        (70_000_000_000, 8192),
        (1_000_000_000, 2048),
        (13_000_000_000, 5120),
    ],
)
def test_stand_in_has_a_real_models_width(n: int, hidden: int) -> None:
    spec = spec_from_param_count(n)
    assert spec.params == n and param_count(spec) == n and active_param_count(spec) == n
    assert spec.hidden_size == hidden
    assert spec.num_kv_heads == 8
    assert spec.num_heads * spec.head_dim == spec.hidden_size
    assert spec.stand_in and spec.kind == "decoder"


@pytest.mark.parametrize("n", [125_000_000, 3_000_000_000, 7_000_000_000, 20_000_000_000, 34_000_000_000, 180_000_000_000])
def test_stand_in_dimensions_add_up_to_about_n(n: int) -> None:
    """The stand-in's shape, counted, lands within 10% of the stated size (so activation and KV
    estimates are those of a model that size)."""
    spec = spec_from_param_count(n)
    counted = param_count(spec.model_copy(update={"stand_in": False}))
    assert counted == pytest.approx(n, rel=0.10)


def test_lora_fused_qkv_gpt2() -> None:
    """GPT-2 keeps q, k, v in one Conv1D `c_attn` (768 -> 2304): LoRA r=8 on it, 12 layers, by hand:
    12 x 8 x (768 + 2304) = 294,912 (one A shared by the three; separate q, k, v would be 442,368)."""
    spec = spec_from_hf_config(cfg("gpt2.json"))
    assert spec.fused_qkv
    assert lora_trainable_params(spec, 8, ["q", "v"]) == 294_912
    assert lora_trainable_params(spec, 8, ["q", "k", "v"]) == 294_912
    unfused = spec.model_copy(update={"fused_qkv": False})
    assert lora_trainable_params(unfused, 8, ["q", "k", "v"]) == 12 * 8 * 3 * (768 + 768)


def test_lora_fused_phi3_all_linear() -> None:
    """Phi-3-mini: qkv_proj 3072 -> 9216, o_proj 3072 -> 3072, gate_up_proj 3072 -> 16384,
    down_proj 8192 -> 3072. r=16 on all, by hand per layer: 16 x (12288 + 6144 + 19456 + 11264)
    = 786,432; x 32 layers = 25,165,824; with the base 3,821,079,552 that is 3,846,245,376."""
    spec = spec_from_hf_config(cfg("phi-3-mini-4k.json"))
    assert spec.fused_qkv and spec.fused_gate_up
    trainable = lora_trainable_params(spec, 16, "all-linear")
    assert trainable == 25_165_824
    assert param_count(spec) + trainable == 3_846_245_376
