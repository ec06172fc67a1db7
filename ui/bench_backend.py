"""The Bench page's backend: where a run's tasks go (threads here, processes here, or a Ray cluster), and who did
what."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bench.reports.words import backend_words
from bench.runs.backends import BACKENDS, DEFAULT_BACKEND, parse_endpoints
from bench.runs.record import Run
from bench.settings import ray_address

BACKEND_HELP = ("threads: threads of this app sharing one model (no setup). processes: processes of this machine, "
                "each with its own solver and model on its share of the cores (no setup). ray: one solver per Ray "
                "actor, on this machine (a Ray started for the run) or on the cluster at the Ray address.")


def backend_options() -> dict:
    """The backend fields of the start form, as RunConfig keyword arguments (draw inside the form)."""
    with st.expander("Where tasks run", expanded=False):
        left, mid, right = st.columns(3)
        backend = left.selectbox("Backend", BACKENDS, index=BACKENDS.index(DEFAULT_BACKEND), key="bench_backend",
                                 help=BACKEND_HELP)
        address = mid.text_input("Ray address", value=ray_address() or "", key="bench_ray_address",
                                 placeholder="empty: start Ray on this machine",
                                 help="ray: the head of a running cluster, host:port (default RAY_ADDRESS)")
        actors = right.number_input("Actors", 0, 1024, 0, key="bench_actors",
                                    help="ray: actors, each with its own solver; 0 fills the cluster")
        left, mid = st.columns([1, 2])
        cpus = left.number_input("CPUs per actor", 0.25, 256.0, 1.0, 0.25, key="bench_cpus_per_actor",
                                 help="ray: the embedded model decodes on as many threads")
        endpoints = mid.text_input("Endpoints", key="bench_endpoints", placeholder="http://gpu1:11434,http://gpu2:11434",
                                   help="model servers (Ollama, or OpenAI-compatible with the openai provider): one "
                                        "solver each, in either backend")
    return {"backend": backend, "ray_address": address.strip() or None, "actors": int(actors) or None,
            "cpus_per_actor": float(cpus), "endpoints": endpoints}


def needs_app_model(backend: str, endpoints: str | list[str]) -> bool:
    """Does a run on this backend and these endpoints use the model loaded in this app (threads without endpoints)?
    Otherwise its threads, processes or actors make their own, where they run."""
    return backend == "threads" and not parse_endpoints(endpoints)


def solver_progress(run: Run, rows: list[dict]) -> None:
    """Where the run's tasks run, the solvers it lost, and what each solver (thread, process, actor, endpoint) did."""
    st.caption(f"backend: {backend_words(run)}")
    for note in (run.notes or "").splitlines():
        st.warning(f"solver lost: {note}")
    if not rows:
        return
    table = pd.DataFrame([{"solver": r.get("worker") or "-", "hidden": r["hidden_passed"], "seconds": r["seconds"]}
                          for r in rows])
    summary = table.groupby("solver").agg(tasks=("hidden", "size"), passing=("hidden", "sum"),
                                          seconds_per_task=("seconds", "mean")).reset_index()
    st.dataframe(summary.round({"seconds_per_task": 1}), hide_index=True, width="stretch")
