"""The example of "Extending Newton Solvers" (``extending_newton_solvers.rst``)."""
