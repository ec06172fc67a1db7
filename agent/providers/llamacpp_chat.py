"""A LangChain chat model that runs a GGUF file in-process with llama-cpp-python (no server).

One loaded model per process (agent.providers.llamacpp_model), shared by every thread and serialised by a lock
held for the whole generation. We know exactly how much of a prompt llama.cpp's KV cache already holds: a repair
prompt that extends the previous conversation re-evaluates only its new tokens. That count is reported per call
in ``response_metadata["prompt_tokens_reused"]``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult

from agent.providers.llamacpp_batch import batch_decoder
from agent.providers.llamacpp_model import common_prefix, load_llama, render_prompt

BATCH_SEQUENCES = 4  # the batch decoder's context holds this many sequences (more if a call asks for more)


class LlamaCppChat(BaseChatModel):
    """Chat model over an in-process GGUF; streams tokens; safe to share across threads.

    It can continue a pre-filled answer (a trailing assistant message) and draw several samples of one
    prompt decoded together (sample_many)."""

    supports_prefill: bool = True

    model_path: str
    n_ctx: int = 8192
    max_tokens: int = 1024
    temperature: float = 0.0
    seed: int = 0
    prefix_reuse: bool = True
    n_threads: int | None = None  # None: every core

    @property
    def _llm_type(self) -> str:
        return "llamacpp-in-process"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        text, meta, usage = "", {}, None
        for chunk in self._stream(messages, stop, run_manager, **kwargs):
            text += chunk.message.content
            meta = chunk.message.response_metadata or meta
            usage = chunk.message.usage_metadata
        message = AIMessage(content=text, response_metadata=meta, usage_metadata=usage)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(self, messages: list[BaseMessage], stop: list[str] | None = None,
                run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        llm, formatter, lock = load_llama(self.model_path, self.n_ctx, self.n_threads)
        prompt, template_stops = render_prompt(llm, formatter, messages)
        stops = list(stop or []) + template_stops
        with lock:
            if len(prompt) + self.max_tokens > llm.n_ctx():
                raise ValueError(f"prompt of {len(prompt)} tokens + {self.max_tokens} to generate exceed the "
                                 f"context of {llm.n_ctx()} tokens (raise LLM_NUM_CTX)")
            if not self.prefix_reuse:
                llm.reset()
            reused = common_prefix(llm._input_ids.tolist(), prompt) if self.prefix_reuse else 0
            started, generated = time.perf_counter(), 0
            for part in llm.create_completion(prompt=prompt, max_tokens=self.max_tokens, temperature=self.temperature,
                                              seed=self.seed, stop=stops, stream=True):
                text = part["choices"][0]["text"]
                generated += 1
                if text:
                    chunk = ChatGenerationChunk(message=AIMessageChunk(content=text))
                    if run_manager:
                        run_manager.on_llm_new_token(text, chunk=chunk)
                    yield chunk
            seconds = time.perf_counter() - started
        usage = {"input_tokens": len(prompt), "output_tokens": generated, "total_tokens": len(prompt) + generated}
        meta = {"model_name": self.model_path.rsplit("/", 1)[-1], "prompt_tokens_reused": reused,
                "prompt_tokens_evaluated": len(prompt) - reused, "generation_seconds": round(seconds, 3)}
        yield ChatGenerationChunk(message=AIMessageChunk(content="", response_metadata=meta, usage_metadata=usage,
                                                         chunk_position="last"))

    def sample_many(self, messages: list[BaseMessage], n: int, *, temperature: float, seed: int,
                    stop: list[str] | None = None) -> list[tuple[str, dict, dict]]:
        """n answers to the same messages, decoded together in one batch; sample i uses seed + i.
        Returns (text, usage, metadata) per sample; the time is shared, so each gets an equal part."""
        llm, formatter, lock = load_llama(self.model_path, self.n_ctx, self.n_threads)
        prompt, template_stops = render_prompt(llm, formatter, messages)
        with lock:
            decoder = batch_decoder(llm, max(n, BATCH_SEQUENCES), self.n_ctx)
            reused = common_prefix(decoder.cached, prompt)  # what the decoder keeps of its cached prompt
            started = time.perf_counter()
            samples = decoder.sample(prompt, n, max_tokens=self.max_tokens, temperature=temperature, seed=seed,
                                     stops=list(stop or []) + template_stops)
            seconds = time.perf_counter() - started
        name = self.model_path.rsplit("/", 1)[-1]
        return [(s.text, {"input_tokens": len(prompt), "output_tokens": s.tokens,
                          "total_tokens": len(prompt) + s.tokens},
                 {"model_name": name, "prompt_tokens_reused": reused if i == 0 else len(prompt),
                  "generation_seconds": round(seconds / n, 3), "batched_with": n}) for i, s in enumerate(samples)]
