"""Reading stored runs out: the words the CLI and the Bench page share (words), show's summary (summary), the
results and change tables bench report prints (results_table, change_table), a run's progress (progress), its
exports (export) and what a run costs here (cost)."""
