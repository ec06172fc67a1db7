"""The agent's settings from environment variables, read in this one place (the bench's own are bench.settings).
Every variable has a default."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path

from platformdirs import user_cache_dir, user_data_dir

from agent.loop.prompts import DEFAULT_PROMPT_VERSION, VERSIONS
from sandbox.settings import flag

PROVIDERS = ("llamacpp", "ollama", "openai")  # LLM_PROVIDER's values; unset: Ollama if it answers, else llamacpp
DEFAULT_OLLAMA_MODEL = "qwen2.5-coder:1.5b"
STRATEGIES = ("repair", "sample", "hybrid")
DOUBTS = ("never", "asking", "always")  # which solves doubt a pass on thin tests (Search.doubt)
MAX_PROPOSED = 16  # the most PROPOSED_INPUTS may ask the model for (Search.proposed_inputs)


def _setting(default: object, variable: str):
    """A Search field and the environment variable that sets it (read by load_settings)."""
    return field(default=default, metadata={"env": variable})


@dataclass(frozen=True)
class Search:
    """How a solve spends its budget when the first answer fails the visible tests (see agent.loop.nodes).

    One value: a solve's state, its stored inputs, a job's inputs and a bench run's row each hold it whole
    (dataclasses.asdict), every reader gets it back through stored_search, and describe_search says it in words.
    A new field needs its line here (with the variable that sets it) and its check in problem(), nothing else: it is
    read from the environment, stored, read back and described with the others."""

    budget: int = _setting(9, "BUDGET")  # candidates in all, the first answer included
    strategy: str = _setting("sample", "STRATEGY")  # repair | sample | hybrid
    samples_per_round: int = _setting(4, "SAMPLES_PER_ROUND")  # fresh samples drawn together (one batch in-process)
    sample_temperature: float = _setting(0.8, "SAMPLE_TEMPERATURE")  # the first round of samples
    # Rounds after the first are drawn warmer: where a round at 0.8 found nothing, answers unlike its own are what is
    # wanted. On the 27 HumanEval tasks where the 0.5B's nine candidates never passed the visible tests, eight fresh
    # samples at 1.1 gave a right candidate in 8 tasks against 5 at 0.8, at 100 against 93 tokens a sample.
    # None: as warm as the first round.
    later_round_temperature: float | None = _setting(1.1, "LATER_ROUND_TEMPERATURE")
    token_budget: int = _setting(3000, "TOKEN_BUDGET")  # generated tokens per solve; 0: no limit beyond the budget
    prompt_version: str = _setting(DEFAULT_PROMPT_VERSION, "PROMPT_VERSION")
    # Doubt (docs/loop.md): a pass on thin tests is not taken on trust. Visible tests that check at most thin_tests
    # distinct calls of the function are thin (people write one to three asserts); a pass on them draws doubt_samples
    # more candidates in one batch, once, so that answers which would disagree are seen. doubt says which solves do:
    # never | asking (those a person answers questions for) | always (every solve: the chooser gets more to choose
    # from). 4 samples, not 8: on 30 everyday tasks held out, 8 drew no more right answers after the questions and
    # took a third longer a task (docs/loop.md); asking, so that honest solves run as before.
    doubt: str = _setting("asking", "DOUBT")
    thin_tests: int = _setting(3, "THIN_TESTS")
    doubt_samples: int = _setting(4, "DOUBT_SAMPLES")  # one batch, as a round of SAMPLES_PER_ROUND is
    max_questions: int = _setting(3, "MAX_QUESTIONS")  # questions a solve that asks puts to the person, at most
    # Edge-case calls the model proposes from the task's words when it doubts a pass, probed before the mutated
    # inputs (agent.loop.proposed_inputs); 0: none, the probes are the visible calls and their mutations alone.
    proposed_inputs: int = _setting(8, "PROPOSED_INPUTS")

    @property
    def max_retries(self) -> int:
        """Candidates after the first answer: the largest k of a run's "pass rate after k more candidates"."""
        return self.budget - 1

    def round_temperature(self, earlier_rounds: int) -> float:
        """The temperature of a round of samples drawn after this many earlier rounds."""
        if earlier_rounds and self.later_round_temperature is not None:
            return self.later_round_temperature
        return self.sample_temperature

    def problem(self) -> str | None:
        """Why these settings cannot run a solve, or None."""
        if self.strategy not in STRATEGIES:
            return f"the strategy must be one of {', '.join(STRATEGIES)}, got {self.strategy!r}"
        if self.budget < 1:
            return f"the budget (candidates in all, the first answer included) must be 1 or more, got {self.budget}"
        if self.samples_per_round < 1:
            return f"samples per round must be 1 or more, got {self.samples_per_round}"
        if self.token_budget < 0:
            return f"the token budget must be 0 (no limit) or more, got {self.token_budget}"
        if not 0 < self.sample_temperature <= 2:
            return f"the sample temperature must be above 0 and at most 2, got {self.sample_temperature}"
        if self.later_round_temperature is not None and not 0 < self.later_round_temperature <= 2:
            return f"the later rounds' temperature must be above 0 and at most 2, got {self.later_round_temperature}"
        if self.doubt not in DOUBTS:
            return f"doubt must be one of {', '.join(DOUBTS)}, got {self.doubt!r}"
        if self.doubt_samples < 1:
            return f"the doubt samples must be 1 or more, got {self.doubt_samples}"
        if self.thin_tests < 0 or self.max_questions < 0:
            return f"thin tests and max questions must be 0 or more, got {self.thin_tests} and {self.max_questions}"
        if not 0 <= self.proposed_inputs <= MAX_PROPOSED:
            return f"the proposed inputs must be 0 to {MAX_PROPOSED}, got {self.proposed_inputs}"
        if self.prompt_version not in VERSIONS:
            return f"the prompt version must be one of {', '.join(VERSIONS)}, got {self.prompt_version!r}"
        return None


SEARCH_FIELDS = tuple(f.name for f in fields(Search))
SEARCH_VARIABLES = {f.name: f.metadata["env"] for f in fields(Search)}  # field -> the variable that sets it
def stored_search(stored: Mapping, base: Search = Search()) -> Search:
    """The Search a stored solve (its state, a checkpoint's values, its stored inputs, a job's inputs) runs with: the
    one way every reader gets it. Stored whole under "search" (a dict, or its JSON text); a field it lacks, or a
    state without one (typed into LangGraph Studio), is base's. A bench run's row stores it the same way
    (bench.runs.record reads it through here)."""
    whole = stored.get("search")
    if isinstance(whole, str):
        whole = json.loads(whole) if whole.strip() else None
    if not isinstance(whole, Mapping):
        return base
    return replace(base, **{k: whole[k] for k in SEARCH_FIELDS if k in whole})


def search_dict(search: Search) -> dict:
    """A Search as solves and bench runs store it (stored_search reads it back)."""
    return asdict(search)


_WORDED = {"budget", "strategy", "samples_per_round", "sample_temperature", "later_round_temperature", "token_budget",
           "prompt_version", "doubt", "thin_tests", "doubt_samples", "max_questions", "proposed_inputs"}


def describe_search(search: Search) -> str:
    """A Search in the words every page and CLI shows: 'sample search, budget 9 candidates (rounds of 4 at T=0.8,
    later ones at 1.1), 3000 tokens, prompt v5'; with DOUBT=always, '..., 3000 tokens, doubt: 4 more and 8 inputs
    from the task's words after a pass on at most 3 calls, prompt v5'. A budget of one candidate is 'one shot, prompt
    v5' (one shot draws nothing more, not even to doubt). The questions a solve that asks may put are its own to say.
    A field without words of its own here shows as its name and value."""
    rounds = f"rounds of {search.samples_per_round} at T={search.sample_temperature:g}"
    if search.later_round_temperature not in (None, search.sample_temperature):
        rounds += f", later ones at {search.later_round_temperature:g}"
    if search.budget == 1:
        parts = ["one shot"]  # nothing after the first answer: no strategy, rounds, token budget or doubt
    else:
        how = {"sample": f" ({rounds})", "hybrid": f" (one repair, then {rounds})"}.get(search.strategy, "")
        parts = [f"{search.strategy} search, budget {search.budget} candidates{how}",
                 f"{search.token_budget} tokens" if search.token_budget else "no token limit"]
        if search.doubt == "always":  # doubt only when asking changes nothing a solve nobody answers does
            inputs = f" and {search.proposed_inputs} inputs from the task's words" if search.proposed_inputs else ""
            parts.append(f"doubt: {search.doubt_samples} more{inputs} after a pass on at most {search.thin_tests} "
                         "calls")
    parts.append(f"prompt {search.prompt_version}")
    parts += [f"{name.replace('_', ' ')} {value}" for name, value in asdict(search).items() if name not in _WORDED]
    return ", ".join(parts)


@dataclass(frozen=True)
class Settings:
    """Everything configurable about the agent. See the README's configuration table."""

    provider: str | None = None  # ollama | llamacpp | openai; None: Ollama if it answers, else embedded
    model: str | None = None  # provider-specific name; None: the provider's default
    ollama_base_url: str = "http://localhost:11434"
    openai_base_url: str = "http://localhost:8000/v1"
    openai_api_key: str = "not-needed"
    llamacpp_model_path: str | None = None
    search: Search = Search()
    temperature: float = 0.0
    seed: int = 0
    max_tokens: int = 1024
    num_ctx: int = 8192
    prefix_reuse: bool = True
    n_threads: int | None = None  # cores the embedded model decodes on; None: every core
    data_dir: Path = Path(user_data_dir("self-healing-agent"))

    def with_overrides(self, **changes: object) -> Settings:
        """A copy with the given fields (of Settings or of its Search) changed; None values are ignored."""
        changes = {k: v for k, v in changes.items() if v is not None}
        search = {k: changes.pop(k) for k in list(changes) if k in SEARCH_FIELDS}
        return replace(self, **changes, search=replace(self.search, **search))

    @property
    def checkpoint_db(self) -> Path:
        """SQLite file holding every solve's LangGraph checkpoints."""
        return self.data_dir / "solves.sqlite"


@dataclass(frozen=True)
class LineSettings:
    """How the line in front of a model is kept (agent.solves.line)."""

    per_person: int = 1  # SOLVES_PER_PERSON: solves one person may have running or waiting
    length: int = 16  # LINE_LENGTH: solves that may wait at once; past it, a new one is told the line is full
    at_once: int | None = None  # SOLVES_AT_ONCE: solves a model serves at once; None: by provider (at_once_for)

    def at_once_for(self, provider: str) -> int:
        """Seats of a model of this provider: one in this process (its cores decode one answer at full speed), four
        for a model server, which batches."""
        return self.at_once or (1 if provider == "llamacpp" else 4)


def load_line() -> LineSettings:
    """SOLVES_PER_PERSON, LINE_LENGTH and SOLVES_AT_ONCE, each 1 or more (unset: the defaults above)."""
    defaults = LineSettings()
    settings = LineSettings(per_person=_number("SOLVES_PER_PERSON", defaults.per_person),
                            length=_number("LINE_LENGTH", defaults.length),
                            at_once=_number("SOLVES_AT_ONCE", 0) or None)
    if settings.per_person < 1 or settings.length < 1 or (settings.at_once or 1) < 1:
        raise ValueError("SOLVES_PER_PERSON, LINE_LENGTH and SOLVES_AT_ONCE must be 1 or more")
    return settings


def models_dir() -> Path:
    """Where GGUF model files live: MODELS_DIR, or the user cache dir (~/.cache/self-healing-agent/models)."""
    value = os.environ.get("MODELS_DIR")
    if value and value.strip():
        return Path(value).expanduser()
    return Path(user_cache_dir("self-healing-agent", appauthor=False)) / "models"


def _given(name: str) -> str | None:
    value = os.environ.get(name)
    return value.strip() if value and value.strip() else None


def _number(name: str, default: int | float, kind: type = int) -> int | float:
    value = _given(name)
    if value is None:
        return default
    try:
        return kind(value)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise ValueError(f"{name} must be {what}, got {value!r}") from None


def _value(name: str, default: object) -> object:
    """The variable's value as the type of the default it replaces (unset or blank: the default)."""
    if isinstance(default, bool):
        return flag(name, default)
    if isinstance(default, (int, float)):
        return _number(name, default, type(default))
    return _given(name) or default


def load_search() -> Search:
    """The Search the environment sets: each field from its variable (BUDGET, STRATEGY, SAMPLES_PER_ROUND,
    SAMPLE_TEMPERATURE, LATER_ROUND_TEMPERATURE, TOKEN_BUDGET, PROMPT_VERSION), else its default."""
    defaults = Search()
    search = Search(**{name: _value(variable, getattr(defaults, name)) for name, variable in SEARCH_VARIABLES.items()})
    if search.problem():
        raise ValueError(f"{search.problem()} (check {', '.join(SEARCH_VARIABLES.values())})")
    return search


def load_settings() -> Settings:
    """Read the environment (LLM_PROVIDER, LLM_MODEL, OLLAMA_BASE_URL, BUDGET, STRATEGY, ...)."""
    env = os.environ.get
    provider = (env("LLM_PROVIDER") or "").strip().lower() or None
    if provider not in (None, *PROVIDERS):
        raise ValueError(f"LLM_PROVIDER must be {', '.join(PROVIDERS[:-1])} or {PROVIDERS[-1]}, got {provider!r}")
    defaults = Settings()
    return Settings(
        provider=provider,
        model=env("LLM_MODEL") or None,
        ollama_base_url=(env("OLLAMA_BASE_URL") or defaults.ollama_base_url).rstrip("/"),
        openai_base_url=(env("OPENAI_BASE_URL") or defaults.openai_base_url).rstrip("/"),
        openai_api_key=env("OPENAI_API_KEY") or defaults.openai_api_key,
        llamacpp_model_path=env("LLAMACPP_MODEL_PATH") or None,
        search=load_search(),
        temperature=_number("LLM_TEMPERATURE", defaults.temperature, float),
        seed=_number("LLM_SEED", defaults.seed),
        max_tokens=_number("LLM_MAX_TOKENS", defaults.max_tokens),
        num_ctx=_number("LLM_NUM_CTX", defaults.num_ctx),
        prefix_reuse=flag("LLAMACPP_PREFIX_REUSE", defaults.prefix_reuse),
        n_threads=_number("LLAMACPP_THREADS", 0) or None,
        data_dir=Path(env("DATA_DIR") or defaults.data_dir),
    )
