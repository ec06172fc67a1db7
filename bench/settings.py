"""The bench's own settings from environment variables, read in this one place (the agent's are agent.config), and
the defaults the bench writes once.

All are unset by default: a bench run starts a Ray of its own when it needs one, uses Ray's own authentication
settings, and logs to MLflow only when told.
"""

from __future__ import annotations

import os
from pathlib import Path

from agent import load_settings

# Things done two at once where nothing else decides: threads sharing one model (while one decodes, the other's
# sandbox runs), and candidates or samples scored in the sandbox (rescoring, imported samples). Two keep the
# project's 2-core machine busy without one waiting on the other.
DEFAULT_AT_ONCE = 2


def bench_db_path() -> Path:
    """bench.sqlite under the data dir (DATA_DIR, agent.config)."""
    return load_settings().data_dir / "bench.sqlite"


def ray_address() -> str | None:
    """RAY_ADDRESS: the Ray cluster a bench run on the ray backend joins (host:port of its head, or
    ray://host:10001 through Ray Client); unset: the run starts a Ray of its own on this machine."""
    return (os.environ.get("RAY_ADDRESS") or "").strip() or None


def mlflow_tracking_uri() -> str | None:
    """MLFLOW_TRACKING_URI: when set, every finished bench run is also logged to MLflow there."""
    return os.environ.get("MLFLOW_TRACKING_URI") or None


def ray_auth_mode() -> str | None:
    """RAY_AUTH_MODE: Ray's authentication mode when set (token); a run sets it to token itself when a cluster asks
    for its token and one is at hand (bench.runs.backends.ray_cluster.prepare)."""
    return os.environ.get("RAY_AUTH_MODE") or None


def ray_auth_token_at_hand() -> bool:
    """Whether this machine holds a Ray token: RAY_AUTH_TOKEN, or a non-empty file at RAY_AUTH_TOKEN_PATH (default
    ~/.ray/auth_token), as Ray reads them."""
    path = Path(os.environ.get("RAY_AUTH_TOKEN_PATH") or Path.home() / ".ray" / "auth_token")
    return bool(os.environ.get("RAY_AUTH_TOKEN")) or (path.is_file() and path.stat().st_size > 0)
