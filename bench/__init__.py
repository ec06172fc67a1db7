"""Benchmark harnesses and data for evaluating the agent."""
