"""Sensors contributed on top of the Newton backend."""
