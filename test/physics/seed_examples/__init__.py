"""The seed pages' solver-manager examples, each in its own package as the pages write it (``{DIR}`` resolves there).

Only ``SolverMySolver`` is aliased: to :class:`newton.solvers.SolverXPBD`, which takes the examples' ``iterations``.
"""
