"""The agent's settings from environment variables, read in this one place (the bench's own are bench.settings).
Every variable has a default."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from platformdirs import user_cache_dir, user_data_dir

from agent.loop.prompts import DEFAULT_PROMPT_VERSION, VERSIONS

DEFAULT_OLLAMA_MODEL = "qwen2.5-coder:1.5b"
DEFAULT_GGUF_MODEL = "qwen2.5-coder-0.5b"
STRATEGIES = ("repair", "sample", "hybrid")


@dataclass(frozen=True)
class Search:
    """How a solve spends its budget when the first answer fails the visible tests (see agent.loop.nodes)."""

    max_retries: int = 8  # the budget: candidates after the first answer
    strategy: str = "sample"  # repair | sample | hybrid
    samples_per_round: int = 4  # fresh samples drawn together in one round (decoded as one batch in-process)
    sample_temperature: float = 0.8
    token_budget: int = 3000  # generated tokens per solve; 0: no limit beyond the candidates
    prompt_version: str = DEFAULT_PROMPT_VERSION

    @staticmethod
    def budget_of(max_retries: int) -> int:
        """The budget, candidates in all, of a solve that may draw max_retries candidates after the first: the one
        place the two counts meet (the settings, checkpoints and bench rows store max_retries; people read a budget)."""
        return max_retries + 1

    @classmethod
    def retries_for(cls, budget: int) -> int:
        """max_retries for a budget of candidates in all (the inverse of budget_of)."""
        return budget - cls.budget_of(0)

    @property
    def budget(self) -> int:
        """Candidates in all: the first answer and max_retries more."""
        return self.budget_of(self.max_retries)

    def with_budget(self, budget: int) -> Search:
        """A copy that draws budget candidates in all."""
        return replace(self, max_retries=self.retries_for(budget))

    def problem(self) -> str | None:
        """Why these settings cannot run a solve, or None."""
        if self.strategy not in STRATEGIES:
            return f"the strategy must be one of {', '.join(STRATEGIES)}, got {self.strategy!r}"
        if self.max_retries < 0:
            return f"the budget (candidates after the first answer) must be 0 or more, got {self.max_retries}"
        if self.samples_per_round < 1:
            return f"samples per round must be 1 or more, got {self.samples_per_round}"
        if self.token_budget < 0:
            return f"the token budget must be 0 (no limit) or more, got {self.token_budget}"
        if not 0 < self.sample_temperature <= 2:
            return f"the sample temperature must be above 0 and at most 2, got {self.sample_temperature}"
        if self.prompt_version not in VERSIONS:
            return f"the prompt version must be one of {', '.join(VERSIONS)}, got {self.prompt_version!r}"
        return None


# What solves and bench runs stored before a setting existed ran with: they only repaired, with prompt v3.
BEFORE_SETTING = {"strategy": "repair", "prompt_version": "v3"}


def stored_search(stored: dict, base: Search = Search()) -> Search:
    """The Search a stored solve (its state or inputs) or bench run (its row) ran with: the fields it stored, those
    stored before they existed as BEFORE_SETTING says, and the rest from base."""
    known = {k: stored[k] for k in Search.__dataclass_fields__ if stored.get(k) not in (None, "")}
    return replace(base, **{**BEFORE_SETTING, **known})


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
        search = {k: changes.pop(k) for k in list(changes) if k in Search.__dataclass_fields__}
        return replace(self, **changes, search=replace(self.search, **search))

    @property
    def max_retries(self) -> int:
        """The budget: candidates after the first answer."""
        return self.search.max_retries

    @property
    def checkpoint_db(self) -> Path:
        """SQLite file holding every solve's LangGraph checkpoints."""
        return self.data_dir / "solves.sqlite"


def models_dir() -> Path:
    """Where GGUF model files live: MODELS_DIR, or the user cache dir (~/.cache/self-healing-agent/models)."""
    value = os.environ.get("MODELS_DIR")
    if value and value.strip():
        return Path(value).expanduser()
    return Path(user_cache_dir("self-healing-agent", appauthor=False)) / "models"


def _number(name: str, default: int | float, kind: type = int) -> int | float:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        return kind(value)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise ValueError(f"{name} must be {what}, got {value!r}") from None


def load_settings() -> Settings:
    """Read the environment (LLM_PROVIDER, LLM_MODEL, OLLAMA_BASE_URL, MAX_RETRIES, ...)."""
    env = os.environ.get
    provider = (env("LLM_PROVIDER") or "").strip().lower() or None
    if provider not in (None, "ollama", "llamacpp", "openai"):
        raise ValueError(f"LLM_PROVIDER must be ollama, llamacpp or openai, got {provider!r}")
    defaults, search = Settings(), Search()
    strategy = (env("STRATEGY") or search.strategy).strip().lower()
    found = Search(
        max_retries=_number("MAX_RETRIES", search.max_retries),
        strategy=strategy,
        samples_per_round=_number("SAMPLES_PER_ROUND", search.samples_per_round),
        sample_temperature=_number("SAMPLE_TEMPERATURE", search.sample_temperature, float),
        token_budget=_number("TOKEN_BUDGET", search.token_budget),
        prompt_version=(env("PROMPT_VERSION") or search.prompt_version).strip(),
    )
    if found.problem():
        raise ValueError(f"{found.problem()} (check STRATEGY, MAX_RETRIES, SAMPLES_PER_ROUND, TOKEN_BUDGET, "
                         "SAMPLE_TEMPERATURE, PROMPT_VERSION)")
    return Settings(
        provider=provider,
        model=env("LLM_MODEL") or None,
        ollama_base_url=(env("OLLAMA_BASE_URL") or defaults.ollama_base_url).rstrip("/"),
        openai_base_url=(env("OPENAI_BASE_URL") or defaults.openai_base_url).rstrip("/"),
        openai_api_key=env("OPENAI_API_KEY") or defaults.openai_api_key,
        llamacpp_model_path=env("LLAMACPP_MODEL_PATH") or None,
        search=found,
        temperature=_number("LLM_TEMPERATURE", defaults.temperature, float),
        seed=_number("LLM_SEED", defaults.seed),
        max_tokens=_number("LLM_MAX_TOKENS", defaults.max_tokens),
        num_ctx=_number("LLM_NUM_CTX", defaults.num_ctx),
        prefix_reuse=env("LLAMACPP_PREFIX_REUSE", "1") not in ("0", "false", "no"),
        n_threads=_number("LLAMACPP_THREADS", 0) or None,
        data_dir=Path(env("DATA_DIR") or defaults.data_dir),
    )
