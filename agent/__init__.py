"""Self-healing coding agent."""
