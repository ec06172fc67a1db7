"""The sidebar's model and search settings and the solver they make, shared by every page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import streamlit as st

from agent import ModelUnavailable, Settings, Solver, load_settings, make_solver
from agent.config import DEFAULT_OLLAMA_MODEL, PROVIDERS, STRATEGIES, describe_search
from agent.models import DEFAULT_MODEL

CHOICES = ["auto", *PROVIDERS]  # auto: Ollama if it answers and has the model, else the embedded model
MODEL_HINT = {"auto": "Ollama model, else the embedded GGUF",
              "llamacpp": f"{DEFAULT_MODEL}, {DEFAULT_MODEL}-q8_0 or a .gguf path",
              "ollama": DEFAULT_OLLAMA_MODEL, "openai": "the model name the server serves"}
STRATEGY_HELP = ("repair: each new candidate repairs the last one from its failure report. sample: fresh answers to "
                 "the first prompt, warmer, drawn a round at a time. hybrid: one repair, then fresh samples. When "
                 "several candidates were drawn, a chooser picks the answer by the visible tests and by agreement.")
MAX_BUDGET = 12  # candidates per task; more is hours of model time on a laptop

# Tests replace this to drive the pages with a scripted model; the app uses the real factory.
SOLVER_FACTORY: Callable[[Settings], Solver] = make_solver


@st.cache_resource(show_spinner="Loading the model...")
def cached_solver(settings: Settings) -> Solver:
    """The solver for these settings, made once per distinct settings (use model_solver: it keys on the model)."""
    return SOLVER_FACTORY(settings)


def model_solver(settings: Settings) -> Solver:
    """The solver for these settings' model. The strategy and budget go to each solve (Solver.start, RunConfig)
    instead of keying the cache: a new key would load the model again for every change of budget."""
    return cached_solver(replace(settings, search=load_settings().search))


def draw_sidebar() -> Settings:
    """Provider, model, strategy, budget and temperature from the sidebar (defaults from the environment), and
    whether code is edited in plain text areas. Drawn once per run, by the entry script (ui/app.py); pages read
    the result with current_settings(). The values live under keys of their own so they survive page switches."""
    base, state = load_settings(), st.session_state
    state.setdefault("cfg_provider", base.provider or "auto")
    state.setdefault("cfg_model", base.model or "")
    state.setdefault("cfg_strategy", base.search.strategy)
    state.setdefault("cfg_budget", min(MAX_BUDGET, base.search.budget))
    state.setdefault("cfg_temperature", float(base.temperature))
    state.setdefault("cfg_plain_editors", False)
    with st.sidebar:
        st.subheader("Model")
        state.cfg_provider = st.selectbox("Provider", CHOICES, index=CHOICES.index(state.cfg_provider),
                                          key="provider")
        state.cfg_model = st.text_input("Model", value=state.cfg_model, placeholder=MODEL_HINT[state.cfg_provider],
                                        key="model")
        state.cfg_temperature = st.slider("Temperature", 0.0, 1.0, float(state.cfg_temperature), 0.05,
                                          key="temperature", help="of the first answer and of repairs")
        st.subheader("Search")
        state.cfg_strategy = st.selectbox("Strategy", STRATEGIES, index=STRATEGIES.index(state.cfg_strategy),
                                          key="strategy", help=STRATEGY_HELP)
        state.cfg_budget = st.number_input("Budget (candidates per task)", 1, MAX_BUDGET, int(state.cfg_budget),
                                           key="budget", help="the first answer included: 1 means one shot")
        settings = base.with_overrides(provider=None if state.cfg_provider == "auto" else state.cfg_provider,
                                       model=state.cfg_model.strip() or None, strategy=state.cfg_strategy,
                                       budget=int(state.cfg_budget), temperature=float(state.cfg_temperature))
        # The whole search, the rest of it from the environment, in the words every page and CLI uses.
        st.caption(describe_search(settings.search))
        st.subheader("Display")
        state.cfg_plain_editors = st.toggle("Edit code in plain text boxes", value=bool(state.cfg_plain_editors),
                                            key="plain_editors",
                                            help="instead of the highlighting editor: for screen readers and "
                                                 "keyboard-only use")
    state.settings = settings
    return settings


def current_settings() -> Settings:
    """The settings the sidebar holds on this run (drawn by the entry script before the page runs)."""
    return st.session_state.settings


def plain_editors() -> bool:
    """Whether the user asked for plain text boxes instead of the code editor."""
    return bool(st.session_state.get("cfg_plain_editors"))


def solver_or_error(settings: Settings) -> Solver | None:
    """The solver for these settings, or None after showing what to fix (server down, model missing)."""
    try:
        solver = model_solver(settings)
    except ModelUnavailable as exc:
        st.error(f"**The model is not available.** {exc}")
        return None
    spec = solver.model_spec
    if spec:
        st.sidebar.caption(f"In use: **{spec.provider}** · {spec.model}  \n{spec.reason}")
    return solver
