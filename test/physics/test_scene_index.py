"""The manager's scene index: which model entities belong to which prim in which world."""

from __future__ import annotations

import newton.examples
import numpy as np
import pytest
import warp as wp
from conftest import rigid_box_cfg, solid_inertia, usd_cartpole_cfg

NUM_ENVS = 4


@pytest.fixture(scope="module")
def mixed_scene(scene_factory):
    """Per env: a cartpole (robot), a free cube (object) and a static box collider (prop), on a shared ground."""
    import isaaclab.sim as sim_utils
    from isaaclab.assets import AssetBaseCfg
    from isaaclab.scene import InteractiveSceneCfg
    from isaaclab.sim.schemas import UsdPhysicsCollisionCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import NewtonManager
    from isaaclab_newton.sim import GroundPlaneCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
        robot = usd_cartpole_cfg()
        cube = rigid_box_cfg("Cube", pos=(1.0, 0.0, 0.5))
        prop = AssetBaseCfg(
            prim_path="{ENV_REGEX_NS}/Prop",
            spawn=sim_utils.CuboidCfg(size=(0.5, 0.5, 0.1), collision_props=[UsdPhysicsCollisionCfg()]),
            init_state=AssetBaseCfg.InitialStateCfg(pos=(-1.0, 0.0, 0.05)),
        )

    scene_factory(SceneCfg(num_envs=NUM_ENVS, env_spacing=3.0), dt=1 / 120)
    return NewtonManager.get_scene_index(), NewtonManager.get_model()


def _worlds(model, kind: str, indices: np.ndarray) -> np.ndarray:
    return getattr(model, f"{kind}_world").numpy()[indices]


def test_robot_entities_sit_in_their_env_worlds(mixed_scene):
    """The cartpole's 3 bodies, 3 joints and its shapes of instance i all live in world i."""
    index, model = mixed_scene
    robot = index.find("/World/envs/env_.*/Robot")
    assert robot.world_ids.tolist() == list(range(NUM_ENVS))
    assert robot.instance_paths == tuple(f"/World/envs/env_{i}/Robot" for i in range(NUM_ENVS))
    assert robot.count("body") == 3 and robot.count("joint") == 3 and robot.count("articulation") == 1
    for kind in ("body", "joint", "shape", "articulation"):
        idx = robot.indices(kind)
        assert (_worlds(model, kind, idx) == np.arange(NUM_ENVS)[:, None]).all(), kind
    labels = [model.body_label[b] for b in robot.indices("body")[2]]
    assert all(label.startswith("/World/envs/env_2/Robot/") for label in labels)


def test_free_object_is_one_body_one_free_joint_per_world(mixed_scene):
    """The cube is one body with one free joint (6 DOFs, 7 coordinates) and one shape in each world."""
    index, model = mixed_scene
    cube = index.find("/World/envs/env_.*/Cube")
    assert cube.count("body") == 1 and cube.count("joint") == 1 and cube.count("shape") == 1
    assert cube.count("joint_dof") == 6 and cube.count("joint_coord") == 7
    assert (_worlds(model, "body", cube.indices("body"))[:, 0] == np.arange(NUM_ENVS)).all()
    assert (model.shape_body.numpy()[cube.indices("shape")] == cube.indices("body")).all()
    assert model.joint_type.numpy()[cube.indices("joint")[0, 0]] == int(newton.JointType.FREE)


def test_static_prop_has_shapes_but_no_bodies(mixed_scene):
    """The prop is one static collider (shape body -1) per world and owns no bodies or joints."""
    index, model = mixed_scene
    prop = index.find("/World/envs/env_.*/Prop")
    assert prop.count("body") == 0 and prop.count("joint") == 0 and prop.count("shape") == 1
    shapes = prop.indices("shape")[:, 0]
    assert (model.shape_body.numpy()[shapes] == -1).all()
    assert (model.shape_world.numpy()[shapes] == np.arange(NUM_ENVS)).all()


def test_index_partitions_every_body_and_shape(mixed_scene):
    """Every body and shape of the model belongs to exactly one declared prim; deformable kinds are empty."""
    index, model = mixed_scene
    entries = [index.find(path) for path in index.prim_paths]
    bodies = np.concatenate([e.indices("body").ravel() for e in entries])
    shapes = np.concatenate([e.indices("shape").ravel() for e in entries])
    assert sorted(bodies.tolist()) == list(range(model.body_count))
    assert sorted(shapes.tolist()) == list(range(model.shape_count))
    ground = index.find("/World/ground")
    assert ground.world_ids.tolist() == [-1] and ground.count("shape") == 1
    for kind in ("particle", "triangle", "tet"):
        assert all(e.count(kind) == 0 for e in entries)


def test_unknown_prim_raises_naming_the_declared_prims(mixed_scene):
    """A prim path that nothing matches raises with the declared prim paths in the message."""
    index, _ = mixed_scene
    with pytest.raises(ValueError, match="Robot"):
        index.find("/World/envs/env_.*/Nothing")


def test_user_builder_resolves_by_labels(make_sim):
    """A builder the user filled (no clone context) resolves prims from its labels, one instance per world."""
    from isaaclab_newton.physics import NewtonManager

    sim = make_sim()
    builder = NewtonManager.create_builder()
    for env in range(2):
        builder.begin_world(label=f"/World/envs/env_{env}")
        for name in ("a", "b"):
            body = builder.add_body(
                xform=wp.transform((float(env), 0.0, 1.0), wp.quat_identity()),
                mass=1.0,
                label=f"/World/envs/env_{env}/Thing/{name}",
            )
            builder.add_shape_sphere(body, radius=0.1, label=f"/World/envs/env_{env}/Thing/{name}/col")
        builder.end_world()
    NewtonManager.set_builder(builder)
    sim.reset()
    model = NewtonManager.get_model()
    thing = NewtonManager.get_scene_index().find("/World/envs/env_[0-9]+/Thing")
    assert thing.instance_paths == ("/World/envs/env_0/Thing", "/World/envs/env_1/Thing")
    assert thing.world_ids.tolist() == [0, 1]
    assert thing.count("body") == 2 and thing.count("shape") == 2
    assert (model.body_world.numpy()[thing.indices("body")] == np.array([[0], [1]])).all()
    selection = NewtonManager.get_scene_index().select_bodies("/World/envs/env_[0-9]+/Thing/b", mode="exact")
    assert selection.names == ["b"]
    assert [model.body_label[b] for b in selection.body_indices[:, 0]] == [
        "/World/envs/env_0/Thing/b",
        "/World/envs/env_1/Thing/b",
    ]


def test_index_is_released_with_the_model(make_sim):
    """After clear() the manager has no scene index and asking for one raises."""
    from isaaclab_newton.physics import NewtonManager

    sim = make_sim()
    builder = NewtonManager.create_builder()
    builder.add_body(mass=1.0, inertia=solid_inertia(newton.GeoType.SPHERE, (0.1, 0.0, 0.0), 1.0), label="/World/Ball")
    NewtonManager.set_builder(builder)
    sim.reset()
    assert NewtonManager.get_scene_index().find("/World/Ball").count("body") == 1
    NewtonManager.clear()
    with pytest.raises(RuntimeError, match="sim.reset"):
        NewtonManager.get_scene_index()
