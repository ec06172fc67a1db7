"""Several samples of one prompt decoded together in one llama.cpp context (llama-cpp-python's low-level API).

The high-level ``Llama`` decodes one sequence at a time. Here the prompt is evaluated once on sequence 0,
its KV cells are shared with sequences 1..n-1 (a unified KV buffer makes the copy free), and every step
decodes one token of each unfinished sequence in a single batch: the weights are read once per step for
all of them. Each sequence has its own sampler chain and seed. The prompt stays cached on sequence 0, so
the next call with the same prompt (another round of samples) evaluates only its last token.
A seed does not pin a sample exactly: which sequences share a batch changes the rounding of the logits.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from agent.providers.llamacpp_model import common_prefix

_decoders: dict[tuple[int, int, int], BatchDecoder] = {}
_decoders_lock = threading.Lock()


@dataclass
class Sample:
    """One decoded continuation."""

    text: str
    tokens: int
    stopped: bool  # ended at a stop string or end-of-generation token (not at the token cap)


class BatchDecoder:
    """A context of its own, over an already loaded model, that decodes up to n_seq sequences at once."""

    def __init__(self, llm: Any, n_seq: int, n_ctx: int) -> None:
        import llama_cpp
        from llama_cpp import _internals

        self._lib, self._internals = llama_cpp, _internals
        self.llm, self.n_seq = llm, n_seq
        params = llama_cpp.llama_context_default_params()
        params.n_ctx = n_ctx
        params.n_batch = params.n_ubatch = 512
        params.n_seq_max = n_seq
        params.kv_unified = True  # the sequences share the prompt's cells
        params.n_threads = params.n_threads_batch = llm.context_params.n_threads
        self.ctx = _internals.LlamaContext(model=llm._model, params=params, verbose=False)
        self.batch = _internals.LlamaBatch(n_tokens=max(512, n_seq), embd=0, n_seq_max=n_seq, verbose=False)
        self.vocab = llama_cpp.llama_model_get_vocab(llm._model.model)
        self.cached: list[int] = []  # the prompt held by sequence 0

    def _sampler(self, temperature: float, seed: int, top_p: float) -> Any:
        sampler = self._internals.LlamaSampler()
        if temperature <= 0:
            sampler.add_greedy()
            return sampler
        sampler.add_top_k(40)
        sampler.add_top_p(top_p, 1)
        sampler.add_min_p(0.05, 1)
        sampler.add_temp(temperature)
        sampler.add_dist(seed)
        return sampler

    def _eval_prompt(self, prompt: list[int]) -> int:
        """Evaluate what sequence 0 lacks of the prompt; returns the batch index of the last token's logits."""
        keep = common_prefix(self.cached, prompt)
        for seq in range(1, self.n_seq):
            self.ctx.kv_cache_seq_rm(seq, -1, -1)
        self.ctx.kv_cache_seq_rm(0, keep, -1)
        rest = prompt[keep:]
        last = 0
        for start in range(0, len(rest), 512):
            chunk = rest[start:start + 512]
            self.batch.set_batch(chunk, n_past=keep + start, logits_all=False)
            self.ctx.decode(self.batch)
            last = len(chunk) - 1
        self.cached = list(prompt)
        return last

    def _add(self, token: int, pos: int, seq: int) -> int:
        b, i = self.batch.batch, self.batch.batch.n_tokens
        b.token[i], b.pos[i], b.seq_id[i][0], b.n_seq_id[i], b.logits[i] = token, pos, seq, 1, True
        b.n_tokens = i + 1
        return i

    def sample(self, prompt: list[int], n: int, *, max_tokens: int, temperature: float, seed: int,
               stops: list[str], top_p: float = 0.95) -> list[Sample]:
        """n continuations of prompt; sequence i samples with seed + i. Caller holds the model's lock."""
        if not 1 <= n <= self.n_seq:
            raise ValueError(f"n must be from 1 to {self.n_seq}, got {n}")
        if len(prompt) + n * max_tokens > self.ctx.n_ctx():
            raise ValueError(f"prompt of {len(prompt)} tokens + {n} x {max_tokens} to generate exceed the context "
                             f"of {self.ctx.n_ctx()} tokens (raise LLM_NUM_CTX)")
        last = self._eval_prompt(prompt)
        for seq in range(1, n):
            self.ctx.kv_cache_seq_cp(0, seq, -1, -1)
        samplers = [self._sampler(temperature, seed + i, top_p) for i in range(n)]
        tokens: list[list[int]] = [[] for _ in range(n)]
        texts, stopped = [""] * n, [False] * n
        index = dict.fromkeys(range(n), last)  # where each live sequence's logits are in the last batch
        for step in range(max_tokens):
            chosen = {}
            for seq, idx in index.items():
                token = samplers[seq].sample(self.ctx, idx)  # llama_sampler_sample also accepts the token
                if self._lib.llama_vocab_is_eog(self.vocab, token):
                    stopped[seq] = True
                    continue
                tokens[seq].append(token)
                text = self.llm.detokenize(tokens[seq]).decode("utf-8", errors="ignore")
                cut = min((text.find(s) for s in stops if s in text), default=-1)
                if cut >= 0:
                    texts[seq], stopped[seq] = text[:cut], True
                    continue
                texts[seq] = text
                chosen[seq] = token
            if not chosen or step == max_tokens - 1:
                break
            self.batch.reset()
            index = {seq: self._add(token, len(prompt) + step, seq) for seq, token in chosen.items()}
            self.ctx.decode(self.batch)
        for sampler in samplers:
            sampler.close()
        return [Sample(texts[i], len(tokens[i]), stopped[i]) for i in range(n)]


def batch_decoder(llm: Any, n_seq: int, n_ctx: int) -> BatchDecoder:
    """The process-wide decoder of n_seq sequences over this loaded model (created once)."""
    key = (id(llm), n_seq, n_ctx)
    with _decoders_lock:
        if key not in _decoders:
            _decoders[key] = BatchDecoder(llm, n_seq, n_ctx)
        return _decoders[key]
