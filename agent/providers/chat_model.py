"""Make a LangChain chat model from Settings: Ollama, an OpenAI-compatible server, or a GGUF in-process.

Failures that a user can fix (server down, model not pulled, no GGUF file) raise ModelUnavailable
with a message that names the URL or the exact command to run.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agent.config import DEFAULT_OLLAMA_MODEL, Settings
from agent.models import DEFAULT_MODEL, ModelError, find_model

if TYPE_CHECKING:  # the model's classes are imported with the provider that makes one
    from langchain_core.language_models import BaseChatModel


class ModelUnavailable(Exception):
    """The configured model cannot be used; the message says how to fix it."""


@dataclass(frozen=True)
class ModelSpec:
    """Which provider and model are in use, and why (shown to the user)."""

    provider: str
    model: str
    reason: str

    def describe(self) -> str:
        """One line for CLIs and the UI."""
        return f"{self.provider}: {self.model} ({self.reason})"


def _get_json(url: str, timeout: float) -> dict:
    with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 (configured URL)
        return json.loads(response.read())


def ollama_models(base_url: str, timeout: float = 2.0) -> list[str]:
    """Names of the models pulled on an Ollama server; raises ModelUnavailable if it does not answer."""
    try:
        tags = _get_json(f"{base_url}/api/tags", timeout)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ModelUnavailable(
            f"Ollama is not reachable at {base_url} ({reason}). Start it with `ollama serve`, "
            "set OLLAMA_BASE_URL, or use the embedded model with LLM_PROVIDER=llamacpp."
        ) from None
    return [m.get("name", "") for m in tags.get("models", [])]


def _has_model(pulled: list[str], model: str) -> bool:
    wanted = model if ":" in model else f"{model}:latest"
    return wanted in pulled or model in pulled


def _ollama(settings: Settings, model: str) -> BaseChatModel:
    from langchain_ollama import ChatOllama

    if not _has_model(ollama_models(settings.ollama_base_url), model):
        raise ModelUnavailable(
            f"The model {model!r} is not pulled on the Ollama server at {settings.ollama_base_url}. "
            f"Run `ollama pull {model}`."
        )
    # num_ctx is explicit: Ollama silently truncates prompts longer than its small default.
    return ChatOllama(model=model, base_url=settings.ollama_base_url, temperature=settings.temperature,
                      seed=settings.seed, num_ctx=settings.num_ctx, num_predict=settings.max_tokens)


def _openai(settings: Settings, model: str) -> tuple[BaseChatModel, str]:
    """The chat model and what to say of it: the server's URL, and that its answers arrive whole when the server
    sends no token usage in a stream (see agent.providers.openai_chat)."""
    from agent.providers.openai_chat import openai_compatible_chat

    try:
        _get_json(f"{settings.openai_base_url}/models", timeout=3.0)
    except urllib.error.HTTPError:
        pass  # it answers; some servers protect /models
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise ModelUnavailable(
            f"No OpenAI-compatible server answers at {settings.openai_base_url} "
            f"({getattr(exc, 'reason', exc)}). Start it or set OPENAI_BASE_URL."
        ) from None
    chat, streams = openai_compatible_chat(model=model, base_url=settings.openai_base_url,
                                           api_key=settings.openai_api_key, temperature=settings.temperature,
                                           seed=settings.seed, max_tokens=settings.max_tokens)
    return chat, settings.openai_base_url + ("" if streams else "; not streamed: the server streams no token usage, "
                                                                "so each answer arrives whole, counted")


def gguf_path(settings: Settings) -> Path:
    """The GGUF file for the embedded provider: LLAMACPP_MODEL_PATH, else LLM_MODEL (name or path)."""
    wanted = settings.llamacpp_model_path or settings.model or DEFAULT_MODEL
    try:
        return find_model(wanted)
    except ModelError as exc:
        raise ModelUnavailable(str(exc)) from None


def _llamacpp(settings: Settings) -> tuple[BaseChatModel, str]:
    from agent.providers.llamacpp_chat import LlamaCppChat

    path = gguf_path(settings)
    model = LlamaCppChat(model_path=str(path), n_ctx=settings.num_ctx, max_tokens=settings.max_tokens,
                         temperature=settings.temperature, seed=settings.seed, prefix_reuse=settings.prefix_reuse,
                         n_threads=settings.n_threads)
    return model, path.name


def make_chat_model(settings: Settings) -> tuple[BaseChatModel, ModelSpec]:
    """The chat model the settings ask for. With no provider set: Ollama if it answers and has
    LLM_MODEL (default DEFAULT_OLLAMA_MODEL), else the embedded GGUF model."""
    provider = settings.provider
    if provider == "ollama":
        model = settings.model or DEFAULT_OLLAMA_MODEL
        return _ollama(settings, model), ModelSpec("ollama", model, "LLM_PROVIDER=ollama")
    if provider == "openai":
        if not settings.model:
            raise ModelUnavailable("LLM_PROVIDER=openai needs LLM_MODEL, the model name the server serves.")
        chat, reason = _openai(settings, settings.model)
        return chat, ModelSpec("openai", settings.model, reason)
    if provider == "llamacpp":
        chat, name = _llamacpp(settings)
        return chat, ModelSpec("llamacpp", name, "LLM_PROVIDER=llamacpp, in-process")
    ollama_model = settings.model or DEFAULT_OLLAMA_MODEL
    try:
        chat = _ollama(settings, ollama_model)
        return chat, ModelSpec("ollama", ollama_model, f"Ollama answers at {settings.ollama_base_url}")
    except ModelUnavailable as why_not:
        fallback = Settings(**{**settings.__dict__, "model": None}) if settings.model and ":" in settings.model \
            else settings
        chat, name = _llamacpp(fallback)
        return chat, ModelSpec("llamacpp", name, f"embedded; no Ollama model: {str(why_not).split('. ')[0]}")
