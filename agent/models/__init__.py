"""Local GGUF model files: pull from the catalog, verify, and locate."""

from .catalog import CATALOG, DEFAULT_MODEL, ModelSpec
from .weights import (
    InvalidModelFileError,
    ModelDownloadError,
    ModelError,
    ModelIntegrityError,
    ModelNotPulledError,
    find_model,
    list_models,
    models_dir,
    pull,
    verify,
)

__all__ = [
    "CATALOG",
    "DEFAULT_MODEL",
    "InvalidModelFileError",
    "ModelDownloadError",
    "ModelError",
    "ModelIntegrityError",
    "ModelNotPulledError",
    "ModelSpec",
    "find_model",
    "list_models",
    "models_dir",
    "pull",
    "verify",
]
