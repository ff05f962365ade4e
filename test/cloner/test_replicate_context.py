"""NewtonReplicateContext: env-0 prototypes replicated into one Newton world per environment."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import TEST_DEVICE, usd_cartpole_cfg


@pytest.fixture(scope="module")
def cloned_scene(scene_factory):
    """Four cartpole worlds on a shared ground, 3 m apart, finalized with sim.reset()."""
    from isaaclab.assets import AssetBaseCfg
    from isaaclab.scene import InteractiveSceneCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import NewtonManager
    from isaaclab_newton.sim import GroundPlaneCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
        robot = usd_cartpole_cfg()

    _, scene = scene_factory(SceneCfg(num_envs=4, env_spacing=3.0), dt=1 / 120)
    return scene, NewtonManager.get_model(), NewtonManager.get_state_0()


def test_four_worlds_hold_four_times_the_bodies(cloned_scene):
    """Cloning N=4 gives 4 worlds with 3 cartpole bodies each and one shared ground shape."""
    _, model, _ = cloned_scene
    assert model.world_count == 4
    assert model.body_count == 4 * 3
    assert np.bincount(model.body_world.numpy(), minlength=4).tolist() == [3, 3, 3, 3]
    assert (model.shape_world.numpy() == -1).sum() == 1


def test_worlds_sit_at_env_origins(cloned_scene):
    """Each world's root body is at its env origin plus the asset's initial offset (0, 0, 2) m."""
    scene, model, state = cloned_scene
    origins = scene.env_origins.cpu().numpy()
    roots = state.body_q.numpy().reshape(4, 3, 7)[:, 0, :3]
    np.testing.assert_allclose(roots, origins + np.array([0.0, 0.0, 2.0]), atol=1e-5)
    spacing = np.linalg.norm(origins[0] - origins[1])
    assert spacing == pytest.approx(3.0)


def test_spawn_variants_fill_their_worlds():
    """Two spawn variants (1 kg cube, 3 kg sphere) land in their own worlds at the env origins (XPBD)."""
    import isaaclab.sim as sim_utils
    from isaaclab.assets import RigidObjectCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.sim.schemas import MassCfg, UsdPhysicsCollisionCfg, UsdPhysicsRigidBodyCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import NewtonCfg, NewtonManager, XPBDSolverCfg

    props = dict(rigid_props=[UsdPhysicsRigidBodyCfg()], collision_props=[UsdPhysicsCollisionCfg()])

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        obj = RigidObjectCfg(
            prim_path="{ENV_REGEX_NS}/Object",
            spawn=sim_utils.MultiAssetSpawnerCfg(
                assets_cfg=[
                    sim_utils.CuboidCfg(size=(0.2, 0.2, 0.2), mass_props=[MassCfg(mass=1.0)], **props),
                    sim_utils.SphereCfg(radius=0.1, mass_props=[MassCfg(mass=3.0)], **props),
                ]
            ),
            init_state=RigidObjectCfg.InitialStateCfg(pos=(0.0, 0.0, 1.0)),
        )

    SimulationContext.clear_instance()
    sim = SimulationContext(
        SimulationCfg(
            dt=1 / 120, device=TEST_DEVICE, gravity=(0.0, 0.0, 0.0), physics=NewtonCfg(solver_cfg=XPBDSolverCfg())
        )
    )
    try:
        scene = InteractiveScene(SceneCfg(num_envs=4, env_spacing=2.0))
        sim.reset()
        obj = scene["obj"]
        masses = obj.data.body_mass.torch[:, 0].tolist()
        assert sorted(masses) == pytest.approx([1.0, 1.0, 3.0, 3.0])
        expected = scene.env_origins.cpu().numpy() + np.array([0.0, 0.0, 1.0], dtype=np.float32)
        np.testing.assert_allclose(obj.data.root_link_pos_w.torch.cpu().numpy(), expected, atol=1e-5)
        labels = NewtonManager.get_model().body_label
        assert labels == [f"/World/envs/env_{i}/Object" for i in range(4)]
    finally:
        SimulationContext.clear_instance()
