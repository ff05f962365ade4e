"""Per-world builder hooks and copies of a clone source (isaaclab_newton.cloner.world_hooks)."""

from __future__ import annotations

import newton
import newton.examples
import numpy as np
import pytest
import warp as wp
from conftest import new_simulation, usd_cartpole_cfg

NUM_ENVS = 3
SPACING = 3.0


def _build_scene(num_envs: int = NUM_ENVS):
    """Cartpole worlds on a shared ground (Featherstone, CPU); the scene, before sim.reset()."""
    from isaaclab.assets import AssetBaseCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import FeatherstoneSolverCfg, NewtonCfg
    from isaaclab_newton.sim import GroundPlaneCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
        robot = usd_cartpole_cfg()

    sim = new_simulation(NewtonCfg(solver_cfg=FeatherstoneSolverCfg()), dt=1 / 120)
    return sim, InteractiveScene(SceneCfg(num_envs=num_envs, env_spacing=SPACING))


@pytest.fixture
def hooked_scene():
    """A scene built with a hook that records its calls and adds a free 1 kg sphere 5 m above each env origin.

    Hook entities are placed in the scene frame: the hook offsets them by the position it is given.
    """
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.cloner import newton_builder_world_hook
    from isaaclab_newton.physics import NewtonManager

    calls = []

    def add_sphere(builder, env_id, position, quaternion):
        calls.append((env_id, builder.current_world, np.array(position), np.array(quaternion)))
        above = wp.vec3(position[0], position[1], position[2] + 5.0)
        body = builder.add_body(xform=wp.transform(above, quaternion), label="hook_sphere")
        builder.add_shape_sphere(
            body, radius=0.1, cfg=newton.ModelBuilder.ShapeConfig(density=1.0 / (4 / 3 * np.pi * 1e-3))
        )

    with newton_builder_world_hook(add_sphere):
        sim, scene = _build_scene()
    sim.reset()
    yield sim, scene, calls, NewtonManager
    SimulationContext.clear_instance()


def test_hook_runs_once_per_env_inside_its_world(hooked_scene):
    """The hook is called for envs 0..N-1 in order, in each env's world context, with that env's origin."""
    _, scene, calls, _ = hooked_scene
    assert [c[0] for c in calls] == list(range(NUM_ENVS))
    assert [c[1] for c in calls] == list(range(NUM_ENVS))
    np.testing.assert_allclose(np.stack([c[2] for c in calls]), scene.env_origins.cpu().numpy(), atol=1e-6)
    np.testing.assert_allclose(calls[0][3], [0.0, 0.0, 0.0, 1.0])


def test_hook_bodies_belong_to_their_world_and_fall_at_g(hooked_scene):
    """Each world holds 3 cartpole bodies + the hook's sphere, placed at its origin; the sphere falls at g."""
    sim, scene, _, manager = hooked_scene
    model = manager.get_model()
    assert np.bincount(model.body_world.numpy(), minlength=NUM_ENVS).tolist() == [4] * NUM_ENVS
    labels = list(model.body_label)
    spheres = [i for i, label in enumerate(labels) if str(label).endswith("hook_sphere")]
    assert model.body_world.numpy()[spheres].tolist() == list(range(NUM_ENVS))
    q0 = manager.get_state_0().body_q.numpy()[spheres, :3]
    np.testing.assert_allclose(q0, scene.env_origins.cpu().numpy() + [0.0, 0.0, 5.0], atol=1e-5)
    steps = 24
    for _ in range(steps):
        sim.step(render=False)
    vz = manager.get_state_0().body_qd.numpy()[spheres, 2]
    np.testing.assert_allclose(vz, -9.81 * steps / 120.0, rtol=0.02)


def test_hook_context_restores_the_previous_hooks():
    """Leaving the context removes the hook; a non-callable hook is refused."""
    from isaaclab_newton.cloner import NewtonReplicateContext, newton_builder_world_hook

    with newton_builder_world_hook(lambda *args: None):
        assert len(NewtonReplicateContext.world_hooks) == 1
    assert NewtonReplicateContext.world_hooks == ()
    with pytest.raises(TypeError, match="callable"), newton_builder_world_hook(3):
        pass


def test_copy_of_clone_source_is_posed_as_authored_then_moved():
    """The robot's clone source copies at env 0's authored pose; xform = -origin moves it to the env frame."""
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.cloner import copy_newton_clone_source

    try:
        sim, scene = _build_scene(num_envs=2)
        sim.reset()
        origin = scene.env_origins.cpu().numpy()[0]
        authored = copy_newton_clone_source("/World/envs/env_0/Robot").finalize(device="cpu")
        assert authored.body_count == 3 and authored.world_count <= 1
        root = newton.Model.state(authored).body_q.numpy()[0, :3]
        np.testing.assert_allclose(root, origin + [0.0, 0.0, 2.0], atol=1e-5)
        shift = wp.transform(wp.vec3(*(-origin)), wp.quat_identity())
        local = copy_newton_clone_source("/World/envs/env_0/Robot", xform=shift).finalize(device="cpu")
        np.testing.assert_allclose(newton.Model.state(local).body_q.numpy()[0, :3], [0.0, 0.0, 2.0], atol=1e-5)
        with pytest.raises(ValueError, match="clone source"):
            copy_newton_clone_source("/World/envs/env_0/Nothing")
    finally:
        SimulationContext.clear_instance()
