"""Settings from environment variables, read in this one place. Every variable has a default."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from platformdirs import user_data_dir

DEFAULT_OLLAMA_MODEL = "qwen2.5-coder:1.5b"
DEFAULT_GGUF_MODEL = "qwen2.5-coder-0.5b"


@dataclass(frozen=True)
class Settings:
    """Everything configurable about the agent. See the README's configuration table."""

    provider: str | None = None  # ollama | llamacpp | openai; None: Ollama if it answers, else embedded
    model: str | None = None  # provider-specific name; None: the provider's default
    ollama_base_url: str = "http://localhost:11434"
    openai_base_url: str = "http://localhost:8000/v1"
    openai_api_key: str = "not-needed"
    llamacpp_model_path: str | None = None
    max_retries: int = 3
    temperature: float = 0.0
    seed: int = 0
    max_tokens: int = 1024
    num_ctx: int = 8192
    prefix_reuse: bool = True
    data_dir: Path = Path(user_data_dir("self-healing-agent"))

    def with_overrides(self, **changes: object) -> Settings:
        """A copy with the given fields changed; None values are ignored."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    @property
    def checkpoint_db(self) -> Path:
        """SQLite file holding every solve's LangGraph checkpoints."""
        return self.data_dir / "solves.sqlite"


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
    defaults = Settings()
    return Settings(
        provider=provider,
        model=env("LLM_MODEL") or None,
        ollama_base_url=(env("OLLAMA_BASE_URL") or defaults.ollama_base_url).rstrip("/"),
        openai_base_url=(env("OPENAI_BASE_URL") or defaults.openai_base_url).rstrip("/"),
        openai_api_key=env("OPENAI_API_KEY") or defaults.openai_api_key,
        llamacpp_model_path=env("LLAMACPP_MODEL_PATH") or None,
        max_retries=_number("MAX_RETRIES", defaults.max_retries),
        temperature=_number("LLM_TEMPERATURE", defaults.temperature, float),
        seed=_number("LLM_SEED", defaults.seed),
        max_tokens=_number("LLM_MAX_TOKENS", defaults.max_tokens),
        num_ctx=_number("LLM_NUM_CTX", defaults.num_ctx),
        prefix_reuse=env("LLAMACPP_PREFIX_REUSE", "1") not in ("0", "false", "no"),
        data_dir=Path(env("DATA_DIR") or defaults.data_dir),
    )
