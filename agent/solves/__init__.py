"""Solves: the loop run on one task, stored, listed, read back and carried on.

solver    streams a solve of the graph as events: start, resume, restart, fork, and reads its steps
store     the ``solves`` table beside the checkpoints: listing, inputs, which process owns a running solve
liveness  owner tokens and heartbeats, shared with the bench's runs
jobs      a solve running in a background thread, for a web page that reruns
history   reading checkpoints: steps, what changed between two, branches, what the loop draws next
events    the typed events a solve streams
story     a solve's events folded into the steps a timeline draws, and a pass's verdict in words
answer_behaviour  what a solve's answer does on inputs the person did not test
lineage   a solve run again with tests a person added from those rows
"""
