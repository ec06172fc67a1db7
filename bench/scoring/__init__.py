"""Scoring stored runs: the answer at each budget (caps), a run's numbers (metrics), pass@k (passk), two runs read
together (comparison), a run's candidates scored again on another dataset (rescore) and samples made elsewhere scored
here (imported)."""
