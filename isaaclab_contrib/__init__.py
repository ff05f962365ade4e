"""Contributions built on the Newton backend: solver coupling, custom coupled managers, tasks."""
