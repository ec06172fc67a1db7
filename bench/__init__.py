"""The bench: runs of the agent on datasets under the honest protocol, stored, scored and reported.

Its rooms, each a package: datasets (the tasks), protocol (solving and scoring one task), runs (a run's config,
record, life, driver, backends and store), scoring (metrics, pass@k, comparison, rescoring, imported samples) and
reports (tables, exports, cost, the words the CLI and the page share). See docs/bench.md.
"""
