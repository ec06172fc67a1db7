"""The honest protocol of one task, apart from where it runs: its labels (labels), what a run asks of each task
(rules), solving and scoring a task (solve), the hidden tests' verdicts (hidden) and the rows a task stores (rows).

The loop repairs against visible tests only; the hidden tests run afterwards, on every candidate, in the sandbox, and
their text and verdicts never reach the model. Nothing here knows of threads, processes, clusters or the store: a
backend (bench.runs.backends) calls solve_task where it likes, and the driver (bench.runs.driver) stores the rows.
"""
