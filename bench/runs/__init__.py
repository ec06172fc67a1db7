"""Bench runs: what a run is (config), its stored record (record), its life (lifecycle: create, start, stop, resume),
the driver that hands tasks to a backend and writes the store (driver), where tasks run (backends), the SQLite store
(schema, migration, store), copying runs between stores (transfer) and which code ran (code_version)."""
