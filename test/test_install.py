"""Install checks: our packages shadow the ones bundled in the isaaclab wheel."""

import pathlib

REPO = pathlib.Path(__file__).resolve().parents[1]


def test_isaaclab_newton_is_ours():
    """`import isaaclab_newton` loads this repository's package."""
    import isaaclab_newton

    assert pathlib.Path(isaaclab_newton.__file__).resolve().parent == REPO / "isaaclab_newton"


def test_isaaclab_contrib_is_ours():
    """`import isaaclab_contrib` loads this repository's package."""
    import isaaclab_contrib

    assert pathlib.Path(isaaclab_contrib.__file__).resolve().parent == REPO / "isaaclab_contrib"


def test_no_bundled_copy_left_in_site_packages():
    """The wheel's bundled backend folders were removed, so nothing can mix with ours."""
    import sysconfig

    site = pathlib.Path(sysconfig.get_paths()["purelib"])
    for name in ("isaaclab_newton", "isaaclab_contrib"):
        assert not (site / name).exists(), f"bundled {name} still in {site}"


def test_core_imports_with_our_backend():
    """Isaac Lab core modules that import our names at import time load."""
    import isaaclab.app  # noqa: F401  (imports isaaclab_newton.physics.NewtonCfg, VBDSolverCfg)
    import isaaclab.envs  # noqa: F401
    import isaaclab.scene  # noqa: F401  (imports isaaclab_contrib.sensors.tacsl_sensor)
