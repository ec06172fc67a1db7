"""The OpenAI-compatible provider: LangChain's ChatOpenAI, made to count tokens and cap answers on every such server.

Servers that all call themselves OpenAI-compatible differ in two ways that matter here:

- Token usage in a stream. The graph streams (LangGraph's "messages" mode), so ChatOpenAI is called in streaming
  mode, and a stream carries usage only when asked (stream_options include_usage, which stream_usage=True sends).
  OpenAI, vLLM, llama.cpp's llama-server and Ollama answer it; llama-cpp-python's server ignores it and streams no
  usage at all, so every answer counted 0 tokens. Every server puts usage in a non-streamed answer, so a server
  found not to stream usage is asked without streaming: its answer reaches the timeline whole, in one piece, but
  counted like every other provider's.
- The answer cap. ChatOpenAI sends it as max_completion_tokens (OpenAI's newer name), which llama-cpp-python's
  server ignores; max_tokens is the name every OpenAI-compatible server reads.
"""

from __future__ import annotations

from typing import Any

import openai
from langchain_core.language_models import LanguageModelInput
from langchain_openai import ChatOpenAI

# A probe must not hold up a solve for long: a server that takes longer to say one token is not answering well.
PROBE_TIMEOUT_SECONDS = 30.0

# What each server did when asked for usage in a stream, by (base URL, model): asked once per process.
_STREAMS_USAGE: dict[tuple[str, str], bool] = {}


class OpenAICompatibleChat(ChatOpenAI):
    """ChatOpenAI that sends the answer cap as max_tokens, the name every OpenAI-compatible server reads."""

    def _get_request_payload(self, input_: LanguageModelInput, *, stop: list[str] | None = None,
                             **kwargs: Any) -> dict:
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)
        if "max_completion_tokens" in payload:
            payload["max_tokens"] = payload.pop("max_completion_tokens")
        return payload


def streams_usage(chat: ChatOpenAI) -> bool:
    """Whether this server sends token usage at the end of a stream when asked. Found by one streamed answer of
    one token, once per server and model; a probe that fails says no (and is asked again next time), so that
    the answers are counted in any case."""
    key = (str(chat.openai_api_base), chat.model_name)
    if key not in _STREAMS_USAGE:
        client = chat.root_client.with_options(timeout=PROBE_TIMEOUT_SECONDS, max_retries=0)
        try:
            with client.chat.completions.create(model=chat.model_name, max_tokens=1, stream=True,
                                                messages=[{"role": "user", "content": "Say OK."}],
                                                stream_options={"include_usage": True}) as stream:
                _STREAMS_USAGE[key] = any(chunk.usage is not None for chunk in stream)
        except openai.OpenAIError:
            return False
    return _STREAMS_USAGE[key]


def openai_compatible_chat(**fields: Any) -> tuple[OpenAICompatibleChat, bool]:
    """The chat model for one server, and whether it streams: with usage in its streams when the server sends
    it, else without streaming, so that its answers carry usage."""
    chat = OpenAICompatibleChat(stream_usage=True, **fields)
    if streams_usage(chat):
        return chat, True
    return chat.model_copy(update={"disable_streaming": True}), False
