"""The Bench page's charts: a run's pass rate after k more candidates (or a sampled run's pass@k against k), with
its model's published one-shot figure as a dashed reference, and the words for readers who cannot see them."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from bench.reports.results_table import has_published_baseline, published_baseline
from bench.runs.record import Run

RUN_COLOURS = ["#b45309", "#0f766e"]  # A, B: apart for colour-blind readers too (orange, teal)


def short_model(model: str) -> str:
    """A run's model as the catalog names it: the default quantization (Q4_K_M) left unsaid, another one kept."""
    return model.removesuffix(".gguf").removesuffix("-instruct-q4_k_m").replace("-instruct-", "-")


def baseline_rules(runs: list[Run]) -> pd.DataFrame:
    """The published one-shot figures of these runs' models, as reference lines (HumanEval runs only: the figures
    are HumanEval's)."""
    rows = []
    for model in dict.fromkeys(r.model for r in runs if has_published_baseline(r)):
        baseline = published_baseline(model)
        if baseline is not None:
            rows.append({"reference": baseline.label, "short": baseline.short_label, "pass rate": baseline.pass_at_1})
    return pd.DataFrame(rows, columns=["reference", "short", "pass rate"])


def _with_rules(lines: alt.Chart, rules: pd.DataFrame, title: str, height: int) -> alt.LayerChart:
    """The lines and the reference rules (dashed, labelled at the right end, under their rule: curves that beat a
    baseline run above it)."""
    layers = [lines]
    if not rules.empty:
        layers.append(alt.Chart(rules).mark_rule(strokeDash=[6, 4], color="#6b7280").encode(y="pass rate:Q"))
        layers.append(alt.Chart(rules).mark_text(align="right", dx=-2, dy=9, color="#374151", fontSize=11).encode(
            y="pass rate:Q", x=alt.value({"expr": "width"}), text="short:N"))
    return alt.layer(*layers, title=title).properties(height=height)


def pass_rate_chart(curves: pd.DataFrame, rules: pd.DataFrame, title: str, height: int = 320) -> alt.LayerChart:
    """Pass rate against candidates after the first, one line per run, and reference rules (dashed, labelled)."""
    lines = alt.Chart(curves).mark_line(point=True).encode(
        x=alt.X("more candidates:O", title="candidates after the first allowed (k)"),
        y=alt.Y("pass rate:Q", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        color=alt.Color("run:N", legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=600),
                        scale=alt.Scale(range=RUN_COLOURS)),
        shape=alt.Shape("run:N"),  # a second cue besides colour
        tooltip=["run", "more candidates", alt.Tooltip("pass rate:Q", format=".1%")])
    return _with_rules(lines, rules, title, height)


def references_caption(rules: pd.DataFrame) -> str:
    """The reference lines in words, for readers who cannot see the chart."""
    if rules.empty:
        return "No published figure is known for this model."
    return "Dashed, a reference and not a run of ours: " + "; ".join(rules.reference) + "."


def pass_at_k_chart(curve: pd.DataFrame, rules: pd.DataFrame, title: str) -> alt.LayerChart:
    """pass@k against k, the reported k marked, and reference rules (dashed, labelled)."""
    line = alt.Chart(curve).mark_line(point=True, color=RUN_COLOURS[1]).encode(
        x=alt.X("k:Q", title="k (samples drawn per task)", axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("pass@k:Q", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        tooltip=["k", alt.Tooltip("pass@k:Q", format=".1%")])
    return _with_rules(line, rules, title, 320)


def sampled_chart(run: Run, metrics: dict) -> None:
    """A sampled run's pass@k table and its curve against k (every k up to the fewest samples a task has)."""
    curve = pd.DataFrame({"k": range(1, len(metrics["pass_at_k_curve"]) + 1), "pass@k": metrics["pass_at_k_curve"]})
    table, chart = st.columns([1, 3])
    table.dataframe(pd.DataFrame({"k": [int(k) for k in metrics["pass_at_k"]],
                                  "pass@k": [f"{100 * v:.1f}%" for v in metrics["pass_at_k"].values()]}),
                    hide_index=True, width="stretch")
    rules = baseline_rules([run])
    chart.altair_chart(pass_at_k_chart(curve, rules, "pass@k (unbiased estimator) against k"), width="stretch")
    st.caption("pass@k for k = 1, 2, ...: " + " / ".join(f"{100 * v:.1f}%" for v in metrics["pass_at_k_curve"])
               + ". " + references_caption(rules))


def run_chart(run: Run, metrics: dict) -> None:
    """The run's pass rate after k more candidates, against its model's published one-shot figure."""
    if run.sampled:
        sampled_chart(run, metrics)
        return
    after_k = metrics["pass_after_k_repairs"]
    curve = pd.DataFrame({"run": short_model(run.model), "more candidates": range(len(after_k)),
                          "pass rate": after_k})
    rules = baseline_rules([run])
    st.altair_chart(pass_rate_chart(curve, rules, "Pass rate (hidden tests) with k candidates after the first"),
                    width="stretch")
    st.caption("Pass rate after k = 0, 1, ...: " + " / ".join(f"{100 * v:.1f}%" for v in after_k) + ". "
               + references_caption(rules))
