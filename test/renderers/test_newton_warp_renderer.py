"""NewtonWarpRendererCfg: a camera built on it reports that rendering is not implemented; nothing else is touched."""

from __future__ import annotations

import pytest


def test_renderer_cfg_is_a_core_renderer_cfg():
    """The config plugs into core's renderer slot and names the Newton Warp renderer."""
    from isaaclab.renderers.renderer_cfg import RendererCfg

    from isaaclab_newton.renderers import NewtonWarpRendererCfg

    cfg = NewtonWarpRendererCfg(enable_shadows=False)
    assert isinstance(cfg, RendererCfg)
    assert cfg.renderer_type == "newton_warp"


def test_building_a_camera_raises_not_implemented():
    """Building a camera sensor whose renderer is NewtonWarpRendererCfg raises NotImplementedError naming it."""
    import isaaclab.sim as sim_utils
    from isaaclab.assets import RigidObjectCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sensors import CameraCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.sim.schemas import UsdPhysicsCollisionCfg, UsdPhysicsRigidBodyCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import NewtonCfg
    from isaaclab_newton.renderers import NewtonWarpRendererCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        cube = RigidObjectCfg(
            prim_path="{ENV_REGEX_NS}/Cube",
            spawn=sim_utils.CuboidCfg(
                size=(0.2, 0.2, 0.2),
                rigid_props=[UsdPhysicsRigidBodyCfg()],
                collision_props=[UsdPhysicsCollisionCfg()],
            ),
        )
        camera = CameraCfg(
            prim_path="{ENV_REGEX_NS}/Camera",
            width=32,
            height=32,
            data_types=["rgb"],
            spawn=sim_utils.PinholeCameraCfg(),
            renderer_cfg=NewtonWarpRendererCfg(),
        )

    SimulationContext.clear_instance()
    sim = SimulationContext(SimulationCfg(dt=1 / 60, device="cpu", physics=NewtonCfg()))
    try:
        with pytest.raises(NotImplementedError, match="SensorTiledCamera"):
            InteractiveScene(SceneCfg(num_envs=1, env_spacing=2.0))
            sim.reset()
    finally:
        SimulationContext.clear_instance()
