"""Frozen domain types shared by every layer: what a GPU, a model, a profile and a recommendation are.

These are the contracts between the numeric core, the rules, the conversation, the reports and
the TUI. Units are in the field names or docstrings (bytes, watts, seconds, USD); the core never
works in GB. Every type is frozen: a changed answer makes a new Profile (``model_copy(update=)``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, field_validator, model_validator

from advisor.datasheet import GpuFigures
from advisor.locales import LOCALES as LOCALES
from advisor.locales import Locale
from advisor.sanitize import one_line

Task = Literal["pretrain", "finetune", "lora", "qlora", "inference"]
Precision = Literal["bf16-mixed", "fp16-mixed", "bf16", "fp32", "fp8-mixed"]
Acquisition = Literal["buy", "rent", "either"]
Deployment = Literal["cloud", "on-prem", "either"]
Cooling = Literal["air", "liquid"]
WeightsDtype = Literal["bf16", "fp16", "fp8", "int8", "int4"]
KvDtype = Literal["bf16", "fp8", "int8"]
Severity = Literal["info", "tip", "warning", "critical"]


class Frozen(BaseModel):
    """Base: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, defer_build=True)


class Localized(Frozen):
    """One human-facing text in the three product languages."""

    en: str = Field(min_length=1, description="English text.")
    zh_Hans: str = Field(alias="zh-Hans", min_length=1, description="Simplified Chinese (mainland) text.")
    zh_Hant: str = Field(alias="zh-Hant", min_length=1, description="Traditional Chinese text for Taiwan readers.")

    def get(self, locale: Locale) -> str:
        """The text in `locale`."""
        return {"en": self.en, "zh-Hans": self.zh_Hans, "zh-Hant": self.zh_Hant}[locale]


class PriceRange(Frozen):
    """A dated price range in USD; low == high when sources agree."""

    low_usd: float = Field(gt=0, description="Lowest price seen, USD.")
    high_usd: float = Field(gt=0, description="Highest price seen, USD.")
    date: str = Field(description="When the prices were seen, YYYY-MM.")
    source: str = Field(min_length=1, description="Where the prices come from.")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def mid_usd(self) -> float:
        """Geometric-free midpoint used for ranking, USD."""
        return (self.low_usd + self.high_usd) / 2


class GpuSpec(Frozen, GpuFigures):
    """One accelerator as its datasheet and the market describe it."""

    id: str = Field(description="Stable catalogue id, e.g. 'h100-sxm'.")
    name: str = Field(description="Display name, e.g. 'NVIDIA H100 SXM5 80GB'.")
    aliases: tuple[str, ...] = Field(default=(), description="Other names users type.")
    vendor: Literal["nvidia", "amd", "intel"]
    architecture: str = Field(
        description="volta, turing, ampere, ada, hopper, blackwell, cdna2, cdna3, gaudi2, gaudi3."
    )
    segment: Literal["datacenter", "workstation", "consumer"]
    memory_gb: float = Field(
        gt=0, description="Memory as the vendor prints it ('80 GB'); for HBM and GDDR parts this is binary GiB."
    )
    memory_type: str = Field(description="HBM3, GDDR6X, ...")
    bandwidth_tbps: float = Field(gt=0, description="Memory bandwidth, TB/s (1e12 bytes/s).")
    bf16_tflops: float | None = Field(
        description="Dense BF16 tensor TFLOPS (FP32 accumulate for GeForce); None if no BF16."
    )
    fp16_tflops: float = Field(gt=0, description="Dense FP16 tensor TFLOPS (FP32 accumulate for GeForce).")
    fp8_tflops: float | None = Field(default=None, description="Dense FP8 tensor TFLOPS; None if no FP8 hardware.")
    fp32_tflops: float | None = Field(default=None, description="Non-tensor FP32 TFLOPS.")
    tdp_w: float = Field(gt=0, description="Maximum board power, W.")
    ecc: bool = Field(description="ECC on the GPU memory.")
    interconnect: str = Field(description="GPU-to-GPU link, e.g. 'NVLink 4' or 'PCIe only'.")
    interconnect_gbps: float = Field(gt=0, description="GPU-to-GPU bandwidth per direction, GB/s (PCIe when no link).")
    nvlink: bool = Field(
        description="True when a high-bandwidth GPU-to-GPU fabric (NVLink, Infinity Fabric, Gaudi RoCE) "
        "links a node's GPUs."
    )
    form_factor: str = Field(description="sxm, pcie, oam, ...")
    max_per_node: int = Field(default=8, ge=1, description="GPUs one server holds.")
    launch_year: int
    price: PriceRange | None = Field(default=None, description="Purchase price per GPU.")
    cloud_hourly: PriceRange | None = Field(default=None, description="Cloud on-demand price per GPU-hour.")
    cloud_hourly_cn: PriceRange | None = Field(
        default=None,
        description="On-demand price per GPU-hour on mainland-China clouds (AutoDL and its peers), for a renter there; "
        "None where those clouds do not offer the card.",
    )
    price_used: PriceRange | None = Field(default=None, description="Second-hand street price per GPU.")
    board: int | None = Field(
        default=None, ge=1,
        description="SXM/OAM: GPUs per baseboard, the smallest unit one can buy (HGX 4 or 8, UBB 8).",
    )
    export_controlled_cn: bool = Field(
        default=False, description="Needs a US export licence for mainland China (ECCN 3A090, platforms.md §7)."
    )
    china_only: bool = Field(
        default=False,
        description="Made for and sold new only in mainland China (the export-compliant 'D' GeForce parts): a buyer "
        "elsewhere gets the full card instead.",
    )
    source: str = Field(min_length=1, description="Sources of the specifications.")
    notes: str = ""



# Upper bounds of a model's dimensions: far above any published model (hidden 18,432, FFN 73,728,
# vocabulary 262,208, 126 layers, 256 experts), low enough that a typo or a hostile config.json
# (hidden_size 1e30) is refused instead of producing a 60-digit parameter count.
MAX_WIDTH = 1 << 20
"""Hidden size, MLP and expert widths."""
MAX_LAYERS = 10_000
MAX_HEADS = 1 << 16
"""Attention heads, KV heads, head_dim and experts."""
MAX_VOCAB = 1 << 24
MAX_POSITIONS = 1 << 30
"""Context length and position-table rows, tokens."""


class ModelSpec(Frozen):
    """One model's architecture: enough to count parameters and activations exactly."""

    id: str = Field(description="Stable catalogue id, e.g. 'llama-3-8b'.")
    name: str
    aliases: tuple[str, ...] = ()
    family: str = Field(description="llama, mistral, mixtral, qwen2, gemma, phi3, gpt2, bert, resnet, vit, unet, ...")
    kind: Literal["decoder", "moe", "encoder", "seq2seq", "cnn", "vit", "diffusion"] = Field(
        description="seq2seq: an encoder-decoder (T5, mT5) with cross-attention in its decoder blocks."
    )
    params: int = Field(gt=0, description="Total parameters (published or exact count).")
    active_params: int | None = Field(default=None, description="Parameters used per token (MoE).")
    hidden_size: int | None = Field(default=None, gt=0, le=MAX_WIDTH)
    num_layers: int | None = Field(
        default=None,
        gt=0,
        le=MAX_LAYERS,
        description="Transformer blocks; seq2seq: encoder and decoder blocks together.",
    )
    num_heads: int | None = Field(default=None, gt=0, le=MAX_HEADS)
    num_kv_heads: int | None = Field(default=None, gt=0, le=MAX_HEADS)
    head_dim: int | None = Field(default=None, gt=0, le=MAX_HEADS)
    intermediate_size: int | None = Field(default=None, gt=0, le=MAX_WIDTH)
    vocab_size: int | None = Field(default=None, gt=0, le=MAX_VOCAB)
    max_context: int | None = Field(
        default=None, gt=0, le=MAX_POSITIONS, description="Longest context the model supports, tokens."
    )
    tie_embeddings: bool = False
    qkv_bias: bool = False
    num_experts: int | None = Field(default=None, gt=0, le=MAX_HEADS)
    experts_per_token: int | None = Field(
        default=None, gt=0, le=MAX_HEADS, description="MoE: routed experts per token, at most num_experts."
    )
    # --- What exact parameter counting needs beyond the basic shape (advisor/core/params.py).
    # The defaults describe a Llama-style decoder, so older entries keep their meaning.
    mlp: Literal["swiglu", "geglu", "gelu"] = Field(
        default="swiglu",
        description="MLP shape: gated SwiGLU/GeGLU (three matrices) or plain (two: GELU, or ReLU in T5 v1.0).",
    )
    norm: Literal["rmsnorm", "layernorm"] = Field(
        default="rmsnorm", description="Normalisation: RMSNorm (weight only) or LayerNorm (weight and bias)."
    )
    norm_bias: bool = Field(
        default=True, description="LayerNorm has its bias (False: MPT, whose checkpoints dropped every bias)."
    )
    norms_per_layer: int = Field(
        default=2, ge=0, description="Norms in each block (Gemma 2 and OLMo 2 have 4 or 2 around sublayers)."
    )
    qk_norm: Literal["none", "head", "full"] = Field(
        default="none",
        description="Norm on queries and keys: per head_dim (Qwen3, Gemma 3) or over all heads (OLMo 2).",
    )
    attention_bias: bool = Field(
        default=False, description="Biases on q, k, v and the output projection (GPT-2, BERT, ViT, BLOOM)."
    )
    mlp_bias: bool = Field(default=False, description="Biases on the MLP projections.")
    position: Literal["rope", "learned", "alibi", "relative", "none"] = Field(
        default="rope",
        description="Position encoding; 'learned' (a table) and 'relative' (T5 buckets) carry parameters.",
    )
    max_position_embeddings: int | None = Field(
        default=None, gt=0, le=MAX_POSITIONS, description="Rows of a learned position table (default: max_context)."
    )
    relative_attention_buckets: int | None = Field(
        default=None, gt=0, description="T5 relative positions: buckets x heads in the first block of each stack."
    )
    type_vocab_size: int = Field(default=0, ge=0, description="BERT token-type embeddings.")
    embedding_norm: bool = Field(default=False, description="A norm right after the embeddings (BERT, BLOOM).")
    final_norm: bool = Field(default=True, description="A norm after the last block (absent in BERT).")
    pooler: bool = Field(default=False, description="BERT pooler: one h x h dense layer with bias.")
    lm_head_bias: bool = Field(default=False, description="The LM head has a bias (Phi-1, Phi-1.5, Phi-2).")
    decoder_layers: int | None = Field(
        default=None, gt=0, le=MAX_LAYERS, description="seq2seq: how many of the num_layers blocks are decoder blocks."
    )
    moe_intermediate_size: int | None = Field(
        default=None, gt=0, le=MAX_WIDTH, description="MoE: width of each routed expert (default: intermediate_size)."
    )
    shared_expert_intermediate_size: int | None = Field(
        default=None,
        gt=0,
        le=MAX_WIDTH,
        description="MoE: width of the always-on shared expert (Qwen-MoE, DeepSeek-MoE), if any.",
    )
    shared_expert_gate: bool = Field(default=False, description="MoE: the shared expert has a sigmoid gate (h x 1).")
    fused_qkv: bool = Field(
        default=False,
        description="q, k and v are one matrix (GPT-2 c_attn, Phi-3 qkv_proj, Falcon/BLOOM query_key_value): "
        "LoRA adapts it whole.",
    )
    fused_gate_up: bool = Field(
        default=False, description="gate and up are one matrix (Phi-3 gate_up_proj): LoRA adapts it whole."
    )
    num_channels: int | None = Field(default=None, gt=0, description="ViT: input image channels.")
    patch_size: int | None = Field(default=None, gt=0, description="ViT: patch side, pixels.")
    num_labels: int | None = Field(default=None, ge=0, description="ViT: classifier outputs (0 = backbone only).")
    stand_in: bool = Field(
        default=False,
        description="True when the dimensions are a plausible stand-in for a bare parameter count ('7B'): "
        "`params` is what the user said; the dimensions only feed activation and KV estimates.",
    )
    activation_bytes_per_sample: int | None = Field(
        default=None,
        description="Non-LLM: bytes autograd keeps for backward per training sample at `input_resolution`, "
        "16-bit activations, no gradient checkpointing (measured; see knowledge/models.yaml).",
    )
    input_resolution: int | None = Field(
        default=None, description="Non-LLM: the input side in pixels the figures assume."
    )
    forward_flops_per_sample: float | None = Field(
        default=None, gt=0, description="Non-LLM: forward FLOPs per sample at input_resolution (2 x multiply-adds)."
    )
    source: str = Field(min_length=1)

    @field_validator("id", "name", "source", mode="after")
    @classmethod
    def _no_controls(cls, value: str) -> str:
        """Names come from config.json files (`_name_or_path`): no terminal control characters."""
        return one_line(value)

    @field_validator("aliases", mode="after")
    @classmethod
    def _no_controls_in_aliases(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(one_line(alias) for alias in value)

    @model_validator(mode="after")
    def _experts(self) -> ModelSpec:
        used, experts = self.experts_per_token, self.num_experts
        if used is not None and experts is not None and used > experts:
            raise ValueError(f"experts_per_token {self.experts_per_token} is more than num_experts {self.num_experts}")
        return self


class OwnedGpus(Frozen):
    """GPUs the user already has."""

    gpu: str = Field(description="GPU catalogue id.")
    count: int = Field(ge=1)


class Profile(Frozen):
    """Everything the conversation collected; the input of a recommendation. Unknown = None."""

    language: Locale = "en"
    task: Task | None = None
    model: str | None = Field(default=None, description="Model catalogue id, when known.")
    model_text: str | None = Field(default=None, description="The model as the user named it (or a config.json path).")
    params: int | None = Field(default=None, gt=0, description="Model parameters (total).")
    active_params: int | None = Field(default=None, gt=0, description="Parameters active per token (MoE).")
    tokens: int | None = Field(default=None, gt=0, description="Training tokens in one epoch of the data set.")
    samples: int | None = Field(default=None, gt=0, description="Training samples (images, examples) in one epoch.")
    seq_len: int | None = Field(default=None, gt=0, description="Training sequence length, tokens.")
    epochs: float = Field(default=1.0, gt=0, description="Passes over the data.")
    concurrency: int | None = Field(default=None, gt=0, description="Serving: concurrent users/sequences.")
    context_tokens: int | None = Field(default=None, gt=0, description="Serving: context length per sequence, tokens.")
    avg_context_tokens: int | None = Field(
        default=None, gt=0, description="Serving: the average request's tokens, when the longest (context_tokens) is "
        "larger: a replica's request rate is its prompts' average, its KV cache is sized for the longest.")
    requests_per_second: float | None = Field(default=None, gt=0)
    redundant: bool = Field(default=False, description="Serving: the service must survive the loss of one replica "
                            "(N+1: 'a failed card must not stop it', 双机热备): the others carry the peak alone.")
    precision: Precision = "bf16-mixed"
    weights_dtype: WeightsDtype | None = Field(
        default=None,
        description="Serving: storage format of the model weights (bf16/fp16 = 2 bytes per parameter, "
        "fp8/int8 = 1 byte, int4 = 0.5 byte, e.g. AWQ/GPTQ); None = the default from `precision` "
        "(16-bit, or fp8 under fp8-mixed).",
    )
    kv_dtype: KvDtype | None = Field(
        default=None,
        description="Serving: element format of the KV cache (bf16 = 2 bytes per element, fp8/int8 = 1 byte); "
        "None = the default (fp8 with fp8 weights, else bf16).",
    )
    budget_usd: float | None = Field(default=None, gt=0, description="Budget converted to USD.")
    budget_amount: float | None = Field(default=None, gt=0, description="Budget as the user gave it.")
    budget_currency: str | None = Field(default=None, description="ISO code of budget_amount, e.g. CNY.")
    acquisition: Acquisition = "either"
    deadline_days: float | None = Field(default=None, gt=0)
    deployment: Deployment = "either"
    rack_kw: float | None = Field(default=None, gt=0, description="Usable continuous kW per rack.")
    cooling: Cooling = "air"
    electricity_usd_per_kwh: float = Field(default=0.12, gt=0, description="Electricity price, USD/kWh.")
    pue: float = Field(default=1.4, ge=1.0, description="Facility power usage effectiveness.")
    owned_gpus: tuple[OwnedGpus, ...] = ()
    preferred_gpus: tuple[str, ...] = Field(
        default=(),
        max_length=8,
        description="GPU catalogue ids the user asked about or wants to use ('how many H100 do I need?', "
        "'想上 H200'): the advice answers with the best of them first when one passes.",
    )
    horizon_days: float | None = Field(
        default=None,
        gt=0,
        le=36_500,
        description="How long the hardware will be used, days (for buy vs rent); None = the planner's default.",
    )
    min_tokens_per_s_per_user: float | None = Field(
        default=None, gt=0, le=10_000, description="Serving: the decode speed each user must see, tokens/s."
    )
    max_ttft_s: float | None = Field(
        default=None, gt=0, le=3_600, description="Serving: the longest time to the first token, s."
    )
    utilization: float | None = Field(
        default=None,
        gt=0,
        le=1,
        description="Share of the horizon the hardware works (10 h a week = 0.06, 24/7 = 1); None = the planner's "
        "default (training 0.2, serving 1).",
    )
    runs: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="Training: how many runs like this one are planned (1 = a one-off job); None = not said.",
    )
    max_gpus: int | None = Field(
        default=None,
        ge=1,
        le=4096,
        description="The most GPUs the configuration may have ('只買一張卡', 'one card only', 'at most 4 GPUs'); "
        "None = not said.",
    )
    company: bool = Field(
        default=False,
        description="The buyer is a company or an institution ('我们是深圳的一家公司', 'our company', hospital, bank): "
        "it buys new hardware with a warranty and an invoice, not cards off the second-hand market.",
    )
    qlora_refused: bool = Field(
        default=False,
        description="The user ruled a 4-bit base out ('不想用 QLoRA（擔心品質）', 'no QLoRA, compliance wants the "
        "full-precision base'): QLoRA is not offered as the way to fit a smaller card.",
    )
    cloud_refused: bool = Field(
        default=False,
        description="The user ruled the cloud out ('不能上云', 'no cloud allowed (NDA)', 'cannot go to a cloud "
        "provider'): their own hardware only, so renting cloud GPUs is not compared unless they ask to rent.",
    )
    host_owned: bool = Field(
        default=False,
        description="The GPUs go into a computer the user already has ('my existing desktop', '现有的主机'): its "
        "CPU, board, memory and power supply are not bought again for one or two cards.",
    )
    region: str | None = Field(
        default=None,
        description="Where the buyer is, when it matters (export rules): 'cn' mainland China, 'tw', 'hk', 'us', ...; "
        "None = not said.",
    )
    assumed: tuple[str, ...] = Field(
        default=(),
        description="Profile keys whose values are defaults the user did not state "
        "(reports and checks tell them apart).",
    )

    @field_validator("model", "model_text", "budget_currency", "region", mode="after")
    @classmethod
    def _no_controls(cls, value: str | None) -> str | None:
        """Text as typed (or read from a profile file) reaches reports and terminals: no control characters."""
        return one_line(value) if value else value


class MemoryBreakdown(Frozen):
    """Peak memory per GPU, term by term, bytes."""

    weights: int = Field(ge=0, description="Model weights (and quantization constants), bytes.")
    gradients: int = Field(ge=0, description="Gradients, bytes.")
    optimizer: int = Field(ge=0, description="Optimizer state incl. fp32 master weights, bytes.")
    activations: int = Field(ge=0, description="Tensors saved for backward at the peak, bytes.")
    kv_cache: int = Field(ge=0, description="Inference KV cache, bytes.")
    overhead: int = Field(ge=0, description="CUDA context, communication buffers, allocator margin, bytes.")

    @model_validator(mode="before")
    @classmethod
    def _drop_total(cls, data: Any) -> Any:
        """`total` is computed; `model_dump` writes it, so a dumped breakdown (session file, JSON report)
        must validate again: the given total is ignored and recomputed."""
        if isinstance(data, dict) and "total" in data:
            data = {k: v for k, v in data.items() if k != "total"}
        return data

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total(self) -> int:
        """Sum of the terms, bytes."""
        return self.weights + self.gradients + self.optimizer + self.activations + self.kv_cache + self.overhead


class Finding(Frozen):
    """A rule that fired: which rule, how serious, the fact values it used and what it rests on — no words.

    The words are made where the finding is shown, in the reader's language (`advisor.words`), from the
    finding text `words` names in knowledge/findings.yaml and the `bindings`."""

    rule_id: str
    severity: Severity
    words: str = Field(default="", description="Id of the finding's text in knowledge/findings.yaml.")
    reject: bool = Field(default=False, description="The rule rules the option out.")
    cites: tuple[str, ...] = Field(default=(), description="Knowledge entry ids the finding rests on.")
    bindings: dict[str, float | int | str | bool | None] = Field(default_factory=dict, description="Fact values used.")

    @model_validator(mode="before")
    @classmethod
    def _drop_old_words(cls, data: Any) -> Any:
        """Session files and reports written before findings lost their words carry `title` and `text`:
        they are ignored (the words are made again from `words` and `bindings`)."""
        if isinstance(data, dict) and ("title" in data or "text" in data):
            data = {k: v for k, v in data.items() if k not in ("title", "text")}
            data.setdefault("words", data.get("rule_id", ""))
        return data


class Candidate(Frozen):
    """One configuration: GPU model x count x strategy, with its numbers."""

    gpu: str = Field(description="GPU catalogue id.")
    gpu_name: str
    count: int = Field(ge=1)
    strategy: str = Field(description="e.g. 'single', 'ddp', 'zero3', 'fsdp', 'tp8', 'tp8-pp2', 'replicas'.")
    acquisition: Literal["buy", "rent"]
    memory_per_gpu: MemoryBreakdown
    capacity_bytes: int = Field(description="Usable memory of one GPU, bytes.")
    fits: bool
    time_hours: float | None = Field(default=None, description="Expected wall-clock time of the run, hours.")
    time_hours_low: float | None = None
    time_hours_high: float | None = None
    tokens_per_s: float | None = Field(default=None, description="Serving: aggregate decode tokens/s.")
    power_w: float = Field(description="IT power of the whole configuration (GPUs + hosts), W.")
    facility_w: float = Field(description="Power including cooling (x PUE), W.")
    cost_usd: float = Field(description="Cost under `acquisition`: capex to buy, or rent for the run.")
    buy_usd: float | None = None
    rent_usd: float | None = None
    energy_usd: float | None = None
    score: float = 0.0
    findings: tuple[Finding, ...] = ()
    checkpointing: str = Field(default="none", description="Training: activation checkpointing the plan uses.")
    micro_batch: int = Field(default=1, description="Training: sequences (or images) per GPU per step.")
    optimizer: str = Field(default="adamw", description="Training: optimizer (adamw, adamw-8bit, ...).")
    offload: bool = Field(default=False, description="Training: optimizer state (and ZeRO-3 parameters) in CPU memory.")
    power_limit_w: float | None = Field(
        default=None, description="Each card held to this many watts (nvidia-smi -pl) to fit the circuit or PSU."
    )
    weights_dtype: str | None = Field(default=None, description="Serving: weight format the plan uses.")
    kv_dtype: str | None = Field(default=None, description="Serving: KV-cache format the plan uses.")
    usage_hours: float | None = Field(default=None, description="Hours of use the rent and electricity are for.")
    ownership_usd: float | None = Field(
        default=None, description="Owning over the horizon: purchase, electricity and upkeep, USD (bought options)."
    )
    ttft_s: float | None = Field(default=None, description="Serving: prefill of one full context, seconds.")
    max_concurrency: int | None = Field(
        default=None, description="Serving: sequences at the context all replicas hold."
    )
    host_ram_bytes: int = Field(default=0, description="CPU memory per server an offload plan needs, bytes.")


class Rejected(Frozen):
    """An option left out, and why."""

    gpu: str
    gpu_name: str
    count: int
    strategy: str
    reasons: tuple[Finding, ...]


class Recommendation(Frozen):
    """The answer: ranked candidates, rejected options and profile-wide findings."""

    schema_version: int = 1
    profile: Profile
    recommendations: tuple[Candidate, ...]
    rejected: tuple[Rejected, ...] = ()
    alternatives: tuple[Candidate, ...] = Field(
        default=(), description="Options that passed every rule but ranked below the recommendations, best first."
    )
    findings: tuple[Finding, ...] = ()
    assumptions: dict[str, str | float | int] = Field(default_factory=dict)
