"""Newton physics backend for Isaac Lab."""

__version__ = "0.1.0"
