"""One GGUF model loaded in-process per file, shared by the chat model and the batch decoder (llama-cpp-python).

The chat template from the GGUF renders the prompt and we tokenize it ourselves, so both know exactly how much of
it a KV cache already holds (common_prefix).
"""

from __future__ import annotations

import os
import threading
from typing import Any

from langchain_core.messages import BaseMessage

_ROLES = {"system": "system", "human": "user", "ai": "assistant"}
_loaded: dict[tuple[str, int, int], tuple[Any, Any, threading.Lock]] = {}
_load_lock = threading.Lock()


def load_llama(model_path: str, n_ctx: int, n_threads: int | None = None) -> tuple[Any, Any, threading.Lock]:
    """The process-wide Llama for this file (loaded once), its chat formatter and its lock.

    n_threads: the cores it decodes on; None means every core of the machine (a Ray actor passes the CPUs it holds)."""
    # llama-cpp-python's default is half the cores; generation here is compute-bound on all of them.
    threads = n_threads or os.cpu_count() or 1
    key = (model_path, n_ctx, threads)
    with _load_lock:
        if key not in _loaded:
            from llama_cpp import Llama
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            llm = Llama(model_path=model_path, n_ctx=n_ctx, verbose=False, seed=0, n_threads=threads,
                        n_threads_batch=threads)
            eos, bos = llm.token_eos(), llm.token_bos()
            formatter = Jinja2ChatFormatter(
                template=llm.metadata["tokenizer.chat_template"],
                eos_token=llm._model.token_get_text(eos),
                bos_token=llm._model.token_get_text(bos) if bos != -1 else "",
                stop_token_ids=[eos],
            )
            _loaded[key] = (llm, formatter, threading.Lock())
        return _loaded[key]


def common_prefix(cached: list[int], prompt: list[int]) -> int:
    """How many leading prompt tokens a KV cache holding `cached` can keep. The last prompt token is
    always evaluated again: its logits start the answer (llama-cpp-python does the same)."""
    count = 0
    for a, b in zip(cached, prompt[:-1]):
        if a != b:
            break
        count += 1
    return count


def render_prompt(llm: Any, formatter: Any, messages: list[BaseMessage]) -> tuple[list[int], list[str]]:
    """Prompt tokens and the template's stop strings. A trailing assistant message is a pre-fill: the
    answer continues it, so it goes after the generation prompt instead of being closed as a turn."""
    prefill = ""
    if messages and messages[-1].type == "ai":
        prefill, messages = str(messages[-1].content), messages[:-1]
    chat = [{"role": _ROLES.get(m.type, "user"), "content": m.content} for m in messages]
    rendered = formatter(messages=chat)
    prompt = llm.tokenize((rendered.prompt + prefill).encode(), add_bos=not rendered.added_special, special=True)
    stops = [rendered.stop] if isinstance(rendered.stop, str) else list(rendered.stop or [])
    return prompt, stops
