"""The Bench page's backend options and per-worker progress, under streamlit's AppTest with a scripted model."""

from __future__ import annotations

import time

from ports import free_port


def _start(app, **fields) -> None:
    app.switch_page("views/bench.py").run()
    assert not app.exception, app.exception
    next(t for t in app.text_input if t.label == "Tasks").set_value("0-3")
    for key, value in fields.items():
        widget = next(w for w in (*app.selectbox, *app.text_input, *app.number_input) if w.key == key)
        widget.set_value(value)
    next(b for b in app.button if b.label == "Start the run").click().run()
    assert not app.exception, app.exception


def test_the_progress_shows_which_worker_did_what(app):
    app.switch_page("views/bench.py").run()
    # Tasks at once is left to the backend's own default, as on the CLI (the page sent 2 whatever the backend).
    assert app.number_input(key="bench_parallel").value is None
    _start(app, bench_backend="threads")
    deadline = time.time() + 60
    while time.time() < deadline:
        app.run()
        if any("4/4 tasks done" in p.proto.text for p in app.get("progress")):
            break
        time.sleep(0.5)
    assert any(c.value == "backend: threads x2" for c in app.caption)
    solvers = next(d.value for d in app.dataframe if "solver" in d.value.columns)
    assert set(solvers.solver) <= {"thread-1", "thread-2"} and solvers.tasks.sum() == 4


def test_a_ray_address_with_no_cluster_is_refused_with_a_clear_message(app):
    nothing = f"127.0.0.1:{free_port()}"
    _start(app, bench_backend="ray", bench_ray_address=nothing, bench_actors=2)
    assert any(f"no Ray cluster at {nothing}" in e.value for e in app.error), [e.value for e in app.error]
