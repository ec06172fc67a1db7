"""The bench's own settings from environment variables, read in this one place (the agent's are agent.config).

Both are unset by default: a bench run starts a Ray of its own when it needs one, and logs to MLflow only when told.
"""

from __future__ import annotations

import os


def ray_address() -> str | None:
    """RAY_ADDRESS: the Ray cluster a bench run with the ray executor joins (host:port of its head, or
    ray://host:10001 through Ray Client); unset: the run starts a Ray of its own on this machine."""
    return (os.environ.get("RAY_ADDRESS") or "").strip() or None


def mlflow_tracking_uri() -> str | None:
    """MLFLOW_TRACKING_URI: when set, every finished bench run is also logged to MLflow there."""
    return os.environ.get("MLFLOW_TRACKING_URI") or None
