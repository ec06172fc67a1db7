"""The sidebar's model settings and the solver they make, shared by every page."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from agent import ModelUnavailable, Settings, Solver, load_settings, make_solver

PROVIDERS = ["auto", "llamacpp", "ollama", "openai"]
MODEL_HINT = {"auto": "Ollama model, else the embedded GGUF", "llamacpp": "qwen2.5-coder-0.5b or a .gguf path",
              "ollama": "qwen2.5-coder:1.5b", "openai": "the model name the server serves"}

# Tests replace this to drive the pages with a scripted model; the app uses the real factory.
SOLVER_FACTORY: Callable[[Settings], Solver] = make_solver


@st.cache_resource(show_spinner="Loading the model...")
def cached_solver(settings: Settings) -> Solver:
    return SOLVER_FACTORY(settings)


def sidebar_settings() -> Settings:
    """Provider, model, max retries and temperature from the sidebar (defaults from the environment).

    Every page draws this sidebar itself (AppTest drops an entry script's sidebar on reruns), and the
    values live under keys of their own so they survive switching pages.
    """
    base, state = load_settings(), st.session_state
    state.setdefault("cfg_provider", base.provider or "auto")
    state.setdefault("cfg_model", base.model or "")
    state.setdefault("cfg_max_retries", base.max_retries)
    state.setdefault("cfg_temperature", float(base.temperature))
    with st.sidebar:
        st.subheader("Model")
        state.cfg_provider = st.selectbox("Provider", PROVIDERS, index=PROVIDERS.index(state.cfg_provider),
                                          key="provider")
        state.cfg_model = st.text_input("Model", value=state.cfg_model, placeholder=MODEL_HINT[state.cfg_provider],
                                        key="model")
        state.cfg_max_retries = st.number_input("Max retries", 0, 10, int(state.cfg_max_retries), key="max_retries")
        state.cfg_temperature = st.slider("Temperature", 0.0, 1.0, float(state.cfg_temperature), 0.05,
                                          key="temperature")
    return base.with_overrides(provider=None if state.cfg_provider == "auto" else state.cfg_provider,
                               model=state.cfg_model.strip() or None, max_retries=int(state.cfg_max_retries),
                               temperature=float(state.cfg_temperature))


def solver_or_error(settings: Settings) -> Solver | None:
    """The solver for these settings, or None after showing what to fix (server down, model missing)."""
    try:
        solver = cached_solver(settings)
    except ModelUnavailable as exc:
        st.error(f"**The model is not available.** {exc}")
        return None
    if solver.choice:
        st.sidebar.caption(f"In use: **{solver.choice.provider}** · {solver.choice.model}  \n{solver.choice.reason}")
    return solver
