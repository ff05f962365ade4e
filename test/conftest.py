"""Shared fixtures: a CPU simulation context per test, torn down afterwards."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("WARP_CACHE_PATH", os.path.expanduser("~/.cache/warp"))

TEST_DEVICE = os.environ.get("ISAACLAB_NEWTON_TEST_DEVICE", "cpu")
"""Device the physics tests run on; set ``ISAACLAB_NEWTON_TEST_DEVICE=cuda:0`` to run them on a GPU."""


@pytest.fixture
def make_sim():
    """Factory for a CPU ``SimulationContext`` with a ``NewtonCfg``; cleared after the test."""
    from isaaclab.sim import SimulationCfg, SimulationContext

    from isaaclab_newton.physics import NewtonCfg

    created = []

    def factory(
        solver_cfg=None, *, dt: float = 1.0 / 240.0, device: str = TEST_DEVICE, gravity=(0.0, 0.0, -9.81), **cfg
    ):
        SimulationContext.clear_instance()
        physics = NewtonCfg(solver_cfg=solver_cfg, **cfg)
        sim = SimulationContext(SimulationCfg(dt=dt, device=device, gravity=gravity, physics=physics))
        created.append(sim)
        return sim

    yield factory
    from isaaclab.sim import SimulationContext as _Ctx

    _Ctx.clear_instance()


@pytest.fixture
def rne_passes(monkeypatch):
    """A list that grows by one entry per run of MuJoCo Warp's post-constraint RNE pass during the test."""
    import mujoco_warp._src.smooth as mjw_smooth

    passes = []
    rne = mjw_smooth.rne_postconstraint

    def counted_rne(m, d):
        passes.append(None)
        rne(m, d)

    monkeypatch.setattr(mjw_smooth, "rne_postconstraint", counted_rne)
    return passes


@pytest.fixture(scope="module")
def cube_scene_factory():
    """Factory for ``num_envs`` free 0.2 m cubes of ``mass`` [kg] resting on a ground plane (MuJoCo Warp, CPU).

    Returns ``(sim, scene)``; the scene's cube is ``scene["cube"]``. The context is cleared after the module.
    """
    from isaaclab.sim import SimulationContext

    def factory(*, num_envs: int, mass: float = 1.0, ground_friction: float = 1.0, dt: float = 1.0 / 240.0):
        import isaaclab.sim as sim_utils
        from isaaclab.assets import AssetBaseCfg, RigidObjectCfg
        from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
        from isaaclab.sim import SimulationCfg
        from isaaclab.sim.schemas import MassCfg, UsdPhysicsCollisionCfg, UsdPhysicsRigidBodyCfg
        from isaaclab.utils import configclass

        from isaaclab_newton.physics import NewtonCfg
        from isaaclab_newton.sim import GroundPlaneCfg

        @configclass
        class SceneCfg(InteractiveSceneCfg):
            ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg(static_friction=ground_friction))
            cube = RigidObjectCfg(
                prim_path="{ENV_REGEX_NS}/Cube",
                spawn=sim_utils.CuboidCfg(
                    size=(0.2, 0.2, 0.2),
                    mass_props=[MassCfg(mass=mass)],
                    rigid_props=[UsdPhysicsRigidBodyCfg()],
                    collision_props=[UsdPhysicsCollisionCfg()],
                ),
                init_state=RigidObjectCfg.InitialStateCfg(pos=(0.0, 0.0, 0.1)),
            )

        SimulationContext.clear_instance()
        sim = SimulationContext(SimulationCfg(dt=dt, device=TEST_DEVICE, physics=NewtonCfg()))
        scene = InteractiveScene(SceneCfg(num_envs=num_envs, env_spacing=3.0))
        sim.reset()
        return sim, scene

    yield factory
    SimulationContext.clear_instance()


def step_scene(sim, scene, steps: int) -> None:
    """Advance ``scene`` by ``steps`` physics steps (write, step, update)."""
    for _ in range(steps):
        scene.write_data_to_sim()
        sim.step(render=False)
        scene.update(sim.get_physics_dt())


@pytest.fixture(scope="session")
def asset_root(tmp_path_factory):
    """The offline asset folder of ``scripts/tools/make_offline_assets.py`` (``ISAACSIM_ASSET_ROOT``), written once."""
    import pathlib
    import subprocess
    import sys

    script = pathlib.Path(__file__).resolve().parents[1] / "scripts" / "tools" / "make_offline_assets.py"
    out = tmp_path_factory.mktemp("isaac_assets")
    subprocess.run([sys.executable, str(script), "--out", str(out)], check=True, capture_output=True, text=True)
    return out
