"""The rules engine: the one place that talks to durable-rules, so the rest of the program never has to.

Why a fence: durable-rules (2.0.28, the last release) has sharp edges that were measured on these
machines (DESIGN.md). The project runs its own build of it, from vendor/durable_rules, which fixes
the crashes (joins across facts, upstream #381; deleting a session that received an unhandled
fact) and the exponent parsing; vendor/durable_rules/PATCHES.md says how. The rest is still
there: a host starts polling threads that run actions elsewhere, `get_host()` is not thread-safe,
an action with two parameters silently becomes asynchronous, an action's exception is stored in
the session instead of raised, more than 1,023 live sessions crash a ruleset, and unknown keys in
a rule fail with a bare error code. This module turns the rules in `rules/*.yaml` into
durable-rules JSON rulesets and runs them so that none of that leaks out:

* Rule files are validated with pydantic on load, and every field a rule mentions is checked
  against the fact schema in `rules/_facts.yaml` (name, type, allowed values). A broken file
  raises `advisor.knowledge.KnowledgeError(file, rule id, problem)`.
* Rules are single-fact patterns only (`$and`/`$or`/comparisons inside one fact): callers put
  every field a rule needs into each fact, so no rule needs a join. (Joins no longer crash our
  build, but one flat fact per candidate keeps rules simple to write and to test.)
* Each rule names its action; the action is resolved from a whitelist (`ACTIONS`). The only
  action today, `emit`, records the rule id, the fact and the fields the rule `bind`s.
  Actions take exactly one parameter (synchronous).
* One host for the process, created lazily under a lock, whose `_run` does nothing: actions run
  on the caller's thread. Evaluations are serialized by a lock, so threads get the same answers
  as a serial caller.
* Every evaluation is a fresh session with a unique id; facts get unique ids; the session is
  deleted when the evaluation ends, whatever happened. An action's stored exception is raised as
  `RulesError` naming the rule.
* Measured here (upstream 2.0.28): deleting a session that received a fact no rule handled
  corrupts the heap — a few hundred such evaluations end in a segfault or "free(): invalid
  pointer", with any rule set, even one rule `{kind: candidate}`. The cause (an uninitialised
  action context, freed on deletion) is fixed in our build; every ruleset still gets two catch-all
  rules (one per fact kind) bound to a no-op action, so every fact is handled, and
  `MessageNotHandledException` is still caught. tests/rules/test_engine.py keeps a subprocess
  crash test over thousands of random facts, and tests/rules/test_vendored_engine.py one for each
  fixed crash without the catch-alls.
* Floats go to the engine as Python writes them (`1e-09`, `1e+16`): our build parses exponents.

Public API: `load_rules() -> list[RuleSpec]`, `evaluate(facts) -> list[Fired]`, `fact_schema()`,
`RuleEngine` (for tests of other rule folders), `Fired`, `RuleSpec`, `RulesError`.
Speed: about 0.25 ms per asserted fact, so give it the shortlisted candidates, not a sweep.
"""

from __future__ import annotations

import copy
import functools
import itertools
import math
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from advisor.knowledge import KnowledgeError, read_yaml
from advisor.models import Severity
from advisor.paths import data_dir

Scope = Literal["profile", "candidate"]
SCOPES: tuple[str, ...] = ("profile", "candidate")
SCHEMA_FILE = "_facts.yaml"

# Operators of the rule syntax -> durable-rules operators. `eq`, `in` and `not_in` are rewritten.
_COMPARE = {"lt": "$lt", "lte": "$lte", "gt": "$gt", "gte": "$gte", "neq": "$neq"}
_OPERATORS = frozenset({*_COMPARE, "eq", "in", "not_in"})
_ORDERED_OPS = frozenset({"lt", "lte", "gt", "gte"})


class RulesError(RuntimeError):
    """A rule failed while it ran (its action raised), or facts were malformed."""

    def __init__(self, message: str, rule_id: str | None = None):
        self.rule_id = rule_id
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Fired:
    """One rule that fired on one fact: the rule's id, the caller's fact id, the bound values."""

    rule_id: str
    fact_id: str
    bindings: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# The fact schema: which fields facts carry, their types and allowed values.


class FieldSpec(BaseModel):
    """One field that facts may carry."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["bool", "int", "number", "str"]
    scope: Literal["profile", "candidate", "both"] = "both"
    values: tuple[str, ...] | None = Field(default=None, description="Allowed values of a str field.")
    doc: str = Field(min_length=1, description="What the field means, with its unit.")


def _check_value(name: str, spec: FieldSpec, value: Any) -> str | None:
    """Why `value` is not a valid value of field `name`, or None when it is."""
    if spec.type == "bool":
        ok = isinstance(value, bool)
    elif spec.type == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif spec.type == "number":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    else:
        ok = isinstance(value, str)
        if ok and spec.values is not None and value not in spec.values:
            return f"{name!r} must be one of {list(spec.values)}, not {value!r}"
    if not ok:
        return f"{name!r} is a {spec.type} field; {value!r} is not"
    return None


_CLASSES: dict[str, tuple[type, ...]] = {"bool": (bool,), "int": (int,), "number": (int, float), "str": (str,)}
"""The classes `_check_value` accepts without a second look, per field type (finite floats: NaN is dropped first)."""


@functools.lru_cache(maxsize=8)
def _load_schema(path: Path) -> dict[str, FieldSpec]:
    raw = read_yaml(path)
    if not isinstance(raw, dict) or not isinstance(raw.get("fields"), dict):
        raise KnowledgeError(path, "-", "expected a mapping with a 'fields' mapping")
    out: dict[str, FieldSpec] = {}
    for name, value in raw["fields"].items():
        try:
            out[str(name)] = FieldSpec.model_validate(value)
        except ValidationError as exc:
            raise KnowledgeError(path, str(name), _format_error(exc)) from None
    return out


def fact_schema(rules_dir: Path | None = None) -> dict[str, FieldSpec]:
    """The fields facts may carry (from `rules/_facts.yaml`), keyed by name."""
    folder = rules_dir or data_dir("rules")
    return _load_schema((folder / SCHEMA_FILE).resolve())


# ---------------------------------------------------------------------------------------------
# Rules as data.


class RuleSpec(BaseModel):
    """One rule: when (a condition over one fact), what finding, how serious, what it rests on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z][a-z0-9]*(\.[a-z0-9][a-z0-9-]*)+$", description="e.g. 'memory.does-not-fit'.")
    scope: Scope = Field(description="Which facts the rule looks at: the profile fact or each candidate fact.")
    when: dict[str, Any] = Field(description="Condition over the fact's fields (see rules/README.md).")
    finding: str = Field(min_length=1, description="Id of the finding text in knowledge/findings.yaml.")
    severity: Severity
    cites: tuple[str, ...] = Field(min_length=1, description="Knowledge entry ids the finding rests on.")
    reject: bool = Field(default=False, description="Candidate rules only: the candidate is ruled out.")
    fragile: bool = Field(default=False, description="Candidate rules only: the plan works only on the edge (a "
                          "software stack not known to work there); ranked as one with no memory to spare.")
    forbidden: bool = Field(default=False, description="Reject rules only: no changed limit lets the option through "
                            "(a law, a buyer's policy); such options are the last near misses shown.")
    bind: tuple[str, ...] = Field(default=(), description="Fact fields passed to the finding's text.")
    action: Literal["emit"] = Field(default="emit", description="Whitelisted action the rule runs.")
    file: str = Field(default="", description="The file the rule came from (set by the loader).")

    @field_validator("when")
    @classmethod
    def _when_not_empty(cls, value: dict[str, Any]) -> dict[str, Any]:
        if not value:
            raise ValueError("'when' must hold at least one condition")
        return value


def _compile_when(when: Any, schema: dict[str, FieldSpec], scope: str, where: str = "when") -> dict[str, Any]:
    """Translate the rule syntax into a durable-rules single-fact expression (raises ValueError)."""
    if not isinstance(when, dict) or not when:
        raise ValueError(f"{where}: expected a non-empty mapping of field -> test (or all:/any:)")
    parts: list[dict[str, Any]] = []
    for key, test in when.items():
        key = str(key)
        if key in ("all", "any"):
            if not isinstance(test, list) or not test:
                raise ValueError(f"{where}.{key}: expected a non-empty list of conditions")
            subs = [_compile_when(item, schema, scope, f"{where}.{key}[{i}]") for i, item in enumerate(test)]
            parts.append(subs[0] if len(subs) == 1 else {"$and" if key == "all" else "$or": subs})
            continue
        spec = schema.get(key)
        if spec is None:
            raise ValueError(f"{where}: unknown fact field {key!r}")
        if spec.scope not in ("both", scope):
            raise ValueError(f"{where}: field {key!r} exists only on {spec.scope} facts, not {scope} facts")
        tests = test if isinstance(test, dict) else {"eq": test}
        if not tests:
            raise ValueError(f"{where}.{key}: empty test")
        for op, value in tests.items():
            parts.append(_compile_test(key, spec, str(op), value, f"{where}.{key}"))
    return parts[0] if len(parts) == 1 else {"$and": parts}


def _compile_test(name: str, spec: FieldSpec, op: str, value: Any, where: str) -> dict[str, Any]:
    if op not in _OPERATORS:
        raise ValueError(f"{where}: unknown operator {op!r} (use one of {sorted(_OPERATORS)})")
    if op in ("in", "not_in"):
        if not isinstance(value, list) or not value:
            raise ValueError(f"{where}.{op}: expected a non-empty list")
        for item in value:
            problem = _check_value(name, spec, item)
            if problem:
                raise ValueError(f"{where}.{op}: {problem}")
        if op == "in":
            alts = [{name: item} for item in value]
            return alts[0] if len(alts) == 1 else {"$or": alts}
        negs = [{"$neq": {name: item}} for item in value]
        return negs[0] if len(negs) == 1 else {"$and": negs}
    if op in _ORDERED_OPS and spec.type not in ("int", "number"):
        raise ValueError(f"{where}.{op}: {name!r} is a {spec.type} field; only numbers can be ordered")
    problem = _check_value(name, spec, value)
    if problem and spec.type == "number" and isinstance(value, int) and not isinstance(value, bool):
        problem = None
    if problem:
        raise ValueError(f"{where}.{op}: {problem}")
    if op == "eq":
        return {name: value}
    return {_COMPARE[op]: {name: value}}


def _format_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
    return "; ".join(parts)


def _load_rule_file(path: Path, schema: dict[str, FieldSpec]) -> list[RuleSpec]:
    raw = read_yaml(path)
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise KnowledgeError(path, "-", "expected a list of rules")
    out: list[RuleSpec] = []
    for position, item in enumerate(raw):
        name = str(item.get("id", f"#{position + 1}")) if isinstance(item, dict) else f"#{position + 1}"
        if isinstance(item, dict) and "file" in item:
            raise KnowledgeError(path, name, "file: set by the loader, not allowed in a rule")
        try:
            rule = RuleSpec.model_validate({**item, "file": path.name} if isinstance(item, dict) else item)
        except ValidationError as exc:
            raise KnowledgeError(path, name, _format_error(exc)) from None
        try:
            _compile_when(rule.when, schema, rule.scope)
        except ValueError as exc:
            raise KnowledgeError(path, name, str(exc)) from None
        if rule.reject and rule.scope != "candidate":
            raise KnowledgeError(path, name, "reject: only candidate-scope rules can reject an option")
        if rule.forbidden and not rule.reject:
            raise KnowledgeError(path, name, "forbidden: only a rule that rejects an option can forbid it")
        if rule.fragile and rule.scope != "candidate":
            raise KnowledgeError(path, name, "fragile: only candidate-scope rules can mark an option fragile")
        for bound in rule.bind:
            spec = schema.get(bound)
            if spec is None:
                raise KnowledgeError(path, name, f"bind: unknown fact field {bound!r}")
            if spec.scope not in ("both", rule.scope):
                raise KnowledgeError(path, name, f"bind: field {bound!r} exists only on {spec.scope} facts")
        out.append(rule)
    return out


def load_rules(rules_dir: Path | None = None) -> list[RuleSpec]:
    """Read and validate every `rules/*.yaml` (files starting with '_' are not rule files); read once per
    process for as long as no file in the folder changes (start-up checks them, then the engine loads them)."""
    folder = (rules_dir or data_dir("rules")).resolve()
    try:
        stats = [(p.name, p.stat()) for p in sorted(folder.glob("*.yaml"))]
        signature = tuple((name, st.st_size, st.st_mtime_ns) for name, st in stats)
    except OSError:
        signature = None  # the read below names the file that cannot be read
    return list(_load_rules(folder, signature))


@functools.lru_cache(maxsize=8)
def _load_rules(folder: Path, signature: tuple | None) -> tuple[RuleSpec, ...]:
    schema = fact_schema(folder)
    rules: list[RuleSpec] = []
    seen: dict[str, str] = {}
    for path in sorted(folder.glob("*.yaml")):
        if path.name.startswith("_"):
            continue
        for rule in _load_rule_file(path, schema):
            if rule.id in seen:
                raise KnowledgeError(path, rule.id, f"duplicate rule id (also in {seen[rule.id]})")
            seen[rule.id] = path.name
            rules.append(rule)
    if not rules:
        raise KnowledgeError(folder, "-", "no rules found")
    return tuple(rules)


# ---------------------------------------------------------------------------------------------
# The durable-rules host: one per process, no polling threads, whitelisted actions.

_HOST: Any = None
_HOST_LOCK = threading.Lock()
_EVAL_LOCK = threading.Lock()  # one evaluation at a time across all engines (one host, shared state)
_RUNS: dict[str, tuple[RuleSpec | None, RuleEngine]] = {}  # durable action name -> (rule or None = catch-all, engine)
_RULESET_SEQ = itertools.count(1)
_SESSION_SEQ = itertools.count(1)


def _emit_action(rule: RuleSpec, engine: RuleEngine):
    """The `emit` action: record that `rule` fired on the fact, with the fields it binds."""

    def act(c):  # exactly one parameter: a synchronous action (two would make it async)
        fact = c.m._d
        sink = engine._sink
        try:
            bindings = {name: fact[name] for name in rule.bind}
            sink.append(Fired(rule.id, engine._fact_ids[fact["id"]], bindings))
        except Exception as exc:
            engine._errors.append((rule.id, f"{type(exc).__name__}: {exc}"))
            raise

    return act


def _seen_action():
    """The catch-all rules' action: nothing (the fact was handled, so its session can be deleted)."""

    def act(c):  # one parameter: synchronous
        return None

    return act


ACTIONS = {"emit": _emit_action}
"""The whitelist: action name in a rule -> factory(rule, engine) returning `def act(c)`."""


def _make_host() -> Any:
    from durable import engine as durable_engine

    class _QuietHost(durable_engine.Host):
        """A host that never starts its polling threads, so every action runs on the caller's thread."""

        def _run(self) -> None:
            return None

        def get_action(self, action_name: str):
            entry = _RUNS.get(action_name)
            if entry is None:
                raise RulesError(f"action {action_name!r} is not whitelisted")
            rule, owner = entry
            if rule is None:
                return _seen_action()
            return ACTIONS[rule.action](rule, owner)

    return _QuietHost()


def _host() -> Any:
    global _HOST
    with _HOST_LOCK:
        if _HOST is None:
            _HOST = _make_host()
        return _HOST


class RuleEngine:
    """The rules of one folder, registered as one durable-rules ruleset on the shared host."""

    def __init__(self, rules_dir: Path | None = None):
        self.rules_dir = (rules_dir or data_dir("rules")).resolve()
        self.schema = fact_schema(self.rules_dir)
        self.rules: list[RuleSpec] = load_rules(self.rules_dir)
        # Per field, the exact classes a value may have and its allowed values: `check_fact`'s fast path
        self._accepts = {name: (_CLASSES[spec.type], frozenset(spec.values) if spec.values is not None else None)
                         for name, spec in self.schema.items()}
        self.by_id = {rule.id: rule for rule in self.rules}
        self.ruleset_name = f"gpu_advisor_{next(_RULESET_SEQ)}"
        self.definition = self._definition()
        self._registered = False
        self._sink: list[Fired] = []
        self._errors: list[tuple[str, str]] = []
        self._fact_ids: dict[str, str] = {}
        self.evaluations = 0
        self.live_sessions: set[str] = set()
        self.last_session = ""

    def _definition(self) -> dict[str, Any]:
        rules: dict[str, Any] = {}
        for index, rule in enumerate(self.rules):
            expression = _compile_when(rule.when, self.schema, rule.scope)
            pattern = {"$and": [{"kind": rule.scope}, expression]}
            run_name = f"{rule.action}:{self.ruleset_name}:{rule.id}"
            rules[f"r{index}"] = {"all": [{"m": pattern}], "run": run_name}
        for scope in SCOPES:  # catch-alls: every fact is handled (see the module docstring)
            rules[f"seen_{scope}"] = {"all": [{"m": {"kind": scope}}], "run": f"seen:{self.ruleset_name}:{scope}"}
        return {self.ruleset_name: rules}

    def _register(self, host: Any) -> None:
        if self._registered:
            return
        for rule in self.rules:
            _RUNS[f"{rule.action}:{self.ruleset_name}:{rule.id}"] = (rule, self)
        for scope in SCOPES:
            _RUNS[f"seen:{self.ruleset_name}:{scope}"] = (None, self)
        # set_rulesets mutates its argument (it deletes each rule's 'run'): give it a copy.
        host.set_rulesets(copy.deepcopy(self.definition))
        self._registered = True

    def check_fact(self, fact: Any, position: int) -> dict[str, Any]:
        """A clean copy of `fact` for the engine: known fields, right types; None/NaN dropped."""
        if not isinstance(fact, dict):
            raise RulesError(f"fact #{position + 1} is not a mapping")
        kind = fact.get("kind")
        if kind not in SCOPES:
            raise RulesError(f"fact #{position + 1}: 'kind' must be one of {list(SCOPES)}, not {kind!r}")
        if not isinstance(fact.get("id"), str) or not fact["id"]:
            raise RulesError(f"fact #{position + 1}: 'id' must be a non-empty string")
        clean: dict[str, Any] = {"kind": kind}
        accepts = self._accepts
        for name, value in fact.items():
            if name in ("kind", "id"):
                continue
            if value is None or (value.__class__ is float and not math.isfinite(value)):
                continue  # unknown: absent, and no condition matches an absent field
            accept = accepts.get(name)
            if accept is None:
                raise RulesError(f"fact {fact['id']!r}: unknown field {name!r} (add it to rules/{SCHEMA_FILE})")
            classes, values = accept
            if value.__class__ not in classes or (values is not None and value not in values):
                problem = _check_value(name, self.schema[name], value)  # a subclass, or a wrong value: the full check
                if problem:
                    raise RulesError(f"fact {fact['id']!r}: {problem}")
            clean[name] = value
        return clean

    def evaluate(self, facts: list[dict[str, Any]]) -> list[Fired]:
        """Run every rule over `facts` (each with a unique 'id' and a 'kind'); the firings, in order."""
        clean = [self.check_fact(fact, i) for i, fact in enumerate(facts)]
        ids = [str(fact["id"]) for fact in facts]
        if len(set(ids)) != len(ids):
            raise RulesError("facts must have unique ids")
        from durable.engine import MessageNotHandledException

        host = _host()
        with _EVAL_LOCK:
            self._register(host)
            sid = f"s{next(_SESSION_SEQ)}"
            self._sink, self._errors, self._fact_ids = [], [], {}
            self.live_sessions.add(sid)
            try:
                for index, fact in enumerate(clean):
                    engine_id = f"{sid}-{index}"
                    self._fact_ids[engine_id] = ids[index]
                    fact["sid"], fact["id"] = sid, engine_id
                    try:
                        host.assert_fact(self.ruleset_name, fact)
                    except MessageNotHandledException:
                        pass  # cannot happen with the catch-all rules; harmless if it does
                    if self._errors:
                        break
                state = host.get_state(self.ruleset_name, sid)
                if self._errors or state.get("exception"):
                    rule_id, detail = self._errors[0] if self._errors else ("?", str(state.get("exception")))
                    raise RulesError(f"rule {rule_id!r} failed: {detail}", rule_id=rule_id)
                return list(self._sink)
            finally:
                self._delete_session(host, sid)
                self.evaluations += 1
                self.last_session = sid
                self._sink, self._errors, self._fact_ids = [], [], {}

    def _delete_session(self, host: Any, sid: str) -> None:
        try:
            host.delete_state(self.ruleset_name, sid)
        except Exception:  # noqa: BLE001 - a session no fact reached may not exist
            pass
        self.live_sessions.discard(sid)

    def session_exists(self, sid: str) -> bool:
        """True while the durable-rules session `sid` still holds state (tests: nothing leaks)."""
        with _EVAL_LOCK:
            try:
                _host().get_state(self.ruleset_name, sid)
            except Exception:  # noqa: BLE001 - durable raises a bare error code for unknown sessions
                return False
            return True


_DEFAULT: RuleEngine | None = None
_DEFAULT_LOCK = threading.Lock()


def default_engine() -> RuleEngine:
    """The engine for the installed `rules/` (built once per process)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = RuleEngine()
        return _DEFAULT


def evaluate(facts: list[dict[str, Any]]) -> list[Fired]:
    """Run the installed rules over `facts`; see `RuleEngine.evaluate`."""
    return default_engine().evaluate(facts)


def rules_by_id() -> dict[str, RuleSpec]:
    """The installed rules keyed by id."""
    return default_engine().by_id

