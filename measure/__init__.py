"""Measurements of this machine: model speed, batched decoding, the sandbox's cost and bench scaling.

One CLI, `python -m measure model|batch|sandbox|scaling`, each printing ratios measured in one run (the machine
is noisy: compare the ratios, not the absolute figures). It sits on top like `ui`: it imports bench, agent and
sandbox; nothing imports it.
"""
