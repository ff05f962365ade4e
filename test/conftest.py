"""Shared fixtures: a simulation context per test on the test device, torn down afterwards.

The test device is ``ISAACLAB_NEWTON_TEST_DEVICE`` (``cpu`` unless set; ``cuda:0`` runs the suite on a GPU, see
``scripts/ci/gpu_suite.sh``). Tests take it from :data:`TEST_DEVICE` or the ``device`` fixture; a test that applies
to one device alone is marked with :func:`cpu_only` or :func:`cuda_only`, whose reason says why.
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("WARP_CACHE_PATH", os.path.expanduser("~/.cache/warp"))

TEST_DEVICE = os.environ.get("ISAACLAB_NEWTON_TEST_DEVICE", "cpu")
"""Device the tests simulate on; set ``ISAACLAB_NEWTON_TEST_DEVICE=cuda:0`` to run them on a GPU."""

ON_CUDA = TEST_DEVICE.startswith("cuda")
"""Whether :data:`TEST_DEVICE` is a CUDA device."""

EAGER = {"use_cpu_graph": False, "use_cuda_graph": False}
"""``NewtonCfg`` fields that make the manager step eagerly on either device (no CPU or CUDA graph replay)."""


def cpu_only(reason: str):
    """Mark a test that applies to the CPU alone: skipped when :data:`TEST_DEVICE` is a CUDA device.

    Args:
        reason: Why it cannot apply to CUDA (shown in the skip reason).
    """
    return pytest.mark.skipif(ON_CUDA, reason=f"CPU only: {reason}")


def cuda_only(reason: str):
    """Mark a test that applies to CUDA alone: skipped when :data:`TEST_DEVICE` is the CPU.

    Args:
        reason: Why it needs CUDA (shown in the skip reason).
    """
    return pytest.mark.skipif(not ON_CUDA, reason=f"CUDA only: {reason}")


def pytest_configure(config):
    """Refuse a CUDA test device that this machine does not have, before any test runs."""
    if ON_CUDA:
        import torch

        if not torch.cuda.is_available():
            raise pytest.UsageError(
                f"ISAACLAB_NEWTON_TEST_DEVICE={TEST_DEVICE} but torch sees no CUDA device; unset it to test on CPU."
            )
        index = torch.device(TEST_DEVICE).index or 0
        if index >= torch.cuda.device_count():
            raise pytest.UsageError(
                f"ISAACLAB_NEWTON_TEST_DEVICE={TEST_DEVICE} but this machine has {torch.cuda.device_count()} CUDA"
                " device(s)."
            )


def pytest_collection_modifyitems(config, items):
    """Move the tests of the files named in ``ISAACLAB_NEWTON_TEST_FIRST`` (space-separated paths from the repository
    root) to the front, in that order; the rest keep their order.

    ``scripts/ci/gpu_suite.sh`` names the slowest files, so that under pytest-xdist none of them starts last.
    """
    first = os.environ.get("ISAACLAB_NEWTON_TEST_FIRST", "").split()
    if first:
        rank = {path: index for index, path in enumerate(first)}
        items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


@pytest.fixture(scope="session")
def device() -> str:
    """The test device (:data:`TEST_DEVICE`): ``cpu``, or e.g. ``cuda:0``."""
    return TEST_DEVICE


def new_simulation(physics=None, *, dt: float = 1.0 / 240.0, gravity=(0.0, 0.0, -9.81), device: str = TEST_DEVICE):
    """Clear the ``SimulationContext`` and make a new one for ``physics`` (a ``NewtonCfg``; default ``NewtonCfg()``).

    Args:
        physics: The physics cfg.
        dt: Physics step [s].
        gravity: Gravity [m/s^2].
        device: Simulation device.
    """
    from isaaclab.sim import SimulationCfg, SimulationContext

    from isaaclab_newton.physics import NewtonCfg

    SimulationContext.clear_instance()
    physics = NewtonCfg() if physics is None else physics
    return SimulationContext(SimulationCfg(dt=dt, device=device, gravity=gravity, physics=physics))


@pytest.fixture
def make_sim():
    """Factory for a ``SimulationContext`` (on :data:`TEST_DEVICE`) with a ``NewtonCfg``; cleared after the test."""
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.physics import NewtonCfg

    def factory(
        solver_cfg=None, *, dt: float = 1.0 / 240.0, device: str = TEST_DEVICE, gravity=(0.0, 0.0, -9.81), **cfg
    ):
        return new_simulation(NewtonCfg(solver_cfg=solver_cfg, **cfg), dt=dt, gravity=gravity, device=device)

    yield factory
    SimulationContext.clear_instance()


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


def solid_inertia(geo_type: int, scale: tuple[float, float, float], mass: float):
    """Inertia tensor [kg m^2] about its centre of a solid Newton shape of ``mass`` [kg] (``scale`` as
    ``ModelBuilder.add_shape`` takes it), for ``ModelBuilder.add_link``/``add_body`` next to a massless shape."""
    import warp as wp
    from newton.geometry import compute_inertia_shape

    unit_mass, _, unit_inertia = compute_inertia_shape(geo_type, wp.vec3(*scale), None, 1.0)
    return unit_inertia * (mass / unit_mass)


def rigid_box_cfg(
    prim_path: str, *, size=(0.2, 0.2, 0.2), mass: float = 1.0, pos=(0.0, 0.0, 0.1), color=None, semantic_tags=None
):
    """A free colliding box of edges ``size`` [m] and ``mass`` [kg] at ``pos`` [m] in its env (a ``RigidObjectCfg``).

    ``prim_path`` is below the env namespace, e.g. ``"Cube"``; ``color`` (linear RGB) gives it a preview-surface
    material, ``semantic_tags`` its USD semantic labels (``[("class", "cube")]``).
    """
    import isaaclab.sim as sim_utils
    from isaaclab.assets import RigidObjectCfg
    from isaaclab.sim.schemas import MassCfg, UsdPhysicsCollisionCfg, UsdPhysicsRigidBodyCfg

    return RigidObjectCfg(
        prim_path=f"{{ENV_REGEX_NS}}/{prim_path}",
        spawn=sim_utils.CuboidCfg(
            size=size,
            mass_props=[MassCfg(mass=mass)],
            rigid_props=[UsdPhysicsRigidBodyCfg()],
            collision_props=[UsdPhysicsCollisionCfg()],
            visual_material=sim_utils.PreviewSurfaceCfg(diffuse_color=color) if color is not None else None,
            semantic_tags=semantic_tags,
        ),
        init_state=RigidObjectCfg.InitialStateCfg(pos=pos),
    )


def cartpole_cfg(*, actuators=None, joint_pos=None):
    """Isaac Lab's cartpole as ``{ENV_REGEX_NS}/Robot``, with optional actuator cfgs and default joint positions."""
    from isaaclab.utils import replace

    from isaaclab_contrib.tasks.cartpole.robot_cfg import CARTPOLE_CFG

    cfg = replace(CARTPOLE_CFG, prim_path="{ENV_REGEX_NS}/Robot")
    if actuators is not None:
        cfg.actuators = actuators
    if joint_pos is not None:
        cfg.init_state.joint_pos = joint_pos
    return cfg


def implicit_cartpole_actuators(*, cart_damping: float, pole_stiffness: float, pole_damping: float):
    """Implicit actuators of the cartpole: the cart damped only [N s/m], the pole a PD drive [N m/rad, N m s/rad]."""
    from isaaclab.actuators import ImplicitActuatorCfg

    return {
        "cart": ImplicitActuatorCfg(joint_names_expr=["slider_to_cart"], stiffness=0.0, damping=cart_damping),
        "pole": ImplicitActuatorCfg(joint_names_expr=["cart_to_pole"], stiffness=pole_stiffness, damping=pole_damping),
    }


def usd_cartpole_cfg():
    """Newton's ``cartpole_single_pendulum.usda`` as ``{ENV_REGEX_NS}/Robot`` at (0, 0, 2) m (an ``AssetBaseCfg``)."""
    import newton.examples
    from isaaclab.assets import AssetBaseCfg

    from isaaclab_newton.sim import NewtonUsdFileCfg

    return AssetBaseCfg(
        prim_path="{ENV_REGEX_NS}/Robot",
        spawn=NewtonUsdFileCfg(
            asset_path=newton.examples.get_asset("cartpole_single_pendulum.usda"), root_path="/cartpole"
        ),
        init_state=AssetBaseCfg.InitialStateCfg(pos=(0.0, 0.0, 2.0)),
    )


def sand_cfg(*, half_width: float, height: float, voxel: float, pos=(0.0, 0.0, 0.0), **material):
    """An MPM sand box (``MPMObjectCfg`` at ``{ENV_REGEX_NS}/Sand``) of 2 particles per cell and axis.

    Args:
        half_width: Half of the box's x and y extent [m].
        height: Its z extent [m], from the spawn frame up.
        voxel: MPM grid cell [m].
        pos: Spawn frame in the env [m].
        material: ``MPMParticleMaterialCfg`` fields over density 1500 kg/m^3 and friction 0.7.
    """
    from isaaclab_newton.assets import MPMObjectCfg
    from isaaclab_newton.sim.spawners.mpm import MPMGridCfg, MPMParticleMaterialCfg

    return MPMObjectCfg(
        prim_path="{ENV_REGEX_NS}/Sand",
        spawn=MPMGridCfg(
            lower=(-half_width, -half_width, 0.0),
            upper=(half_width, half_width, height),
            voxel_size=voxel,
            particles_per_cell=2.0,
            material=MPMParticleMaterialCfg(**{"density": 1500.0, "friction": 0.7, **material}),
        ),
        init_state=MPMObjectCfg.InitialStateCfg(pos=pos),
    )


BLOCK_TOP = 0.1
"""Height of the soft block of :func:`box_on_soft_block_cfg` [m]."""
BOX_HALF = 0.05
"""Half extent of its rigid box [m]."""


def box_on_soft_block_cfg(*, num_envs: int = 1, box_mass: float = 1.0):
    """Scene cfg: a rigid box (``box``, 0.1 m, ``box_mass`` [kg]) 1 cm above a soft block (``block``) on the ground.

    The block is 0.2 x 0.2 x 0.1 m (4 x 4 x 2 cells, E 1e5 Pa, 500 kg/m^3), centred under the box; envs 1 m apart.
    """
    from isaaclab.assets import AssetBaseCfg, DeformableObjectCfg
    from isaaclab.scene import InteractiveSceneCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.sim import DeformableMaterialCfg, GroundPlaneCfg, SoftGridCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
        block = DeformableObjectCfg(
            prim_path="{ENV_REGEX_NS}/Block",
            spawn=SoftGridCfg(
                size=(0.2, 0.2, BLOCK_TOP),
                resolution=(4, 4, 2),
                material=DeformableMaterialCfg(youngs_modulus=1.0e5, density=500.0, damping=1.0),
            ),
            init_state=DeformableObjectCfg.InitialStateCfg(pos=(-0.1, -0.1, 0.0)),
        )
        box = rigid_box_cfg("Box", size=(2 * BOX_HALF,) * 3, mass=box_mass, pos=(0.0, 0.0, BLOCK_TOP + BOX_HALF + 0.01))

    return SceneCfg(num_envs=num_envs, env_spacing=1.0)


@pytest.fixture(scope="module")
def scene_factory():
    """Factory for ``(sim, scene)``: a fresh ``SimulationContext`` and the scene of an ``InteractiveSceneCfg``.

    ``scene_factory(scene_cfg, *, physics=NewtonCfg(), dt=1/240 s, gravity=(0, 0, -9.81) m/s^2,
    device=TEST_DEVICE)`` builds the scene and calls ``sim.reset()``. The context is cleared after the module.
    """
    from isaaclab.sim import SimulationContext

    def factory(scene_cfg, *, physics=None, dt: float = 1.0 / 240.0, gravity=(0.0, 0.0, -9.81), device=TEST_DEVICE):
        from isaaclab.scene import InteractiveScene

        sim = new_simulation(physics, dt=dt, gravity=gravity, device=device)
        scene = InteractiveScene(scene_cfg)
        sim.reset()
        return sim, scene

    yield factory
    SimulationContext.clear_instance()


@pytest.fixture(scope="module")
def cartpole_scene_factory(scene_factory):
    """Factory for ``(sim, scene, robot)``: ``num_envs`` cartpoles alone, 3 m apart, dt 1/240 s, on the test device.

    ``cartpole_scene_factory(num_envs=..., actuators=None, joint_pos=None, physics=None, gravity=(0, 0, -9.81))``;
    see :func:`cartpole_cfg`. The context is cleared after the module.
    """

    def factory(*, num_envs: int, actuators=None, joint_pos=None, physics=None, gravity=(0.0, 0.0, -9.81)):
        from isaaclab.assets import ArticulationCfg
        from isaaclab.scene import InteractiveSceneCfg
        from isaaclab.utils import configclass

        @configclass
        class SceneCfg(InteractiveSceneCfg):
            robot: ArticulationCfg = cartpole_cfg(actuators=actuators, joint_pos=joint_pos)

        scene_cfg = SceneCfg(num_envs=num_envs, env_spacing=3.0)
        sim, scene = scene_factory(scene_cfg, physics=physics, gravity=gravity)
        return sim, scene, scene["robot"]

    return factory


@pytest.fixture(scope="module")
def cube_scene_factory(scene_factory):
    """Factory for ``num_envs`` free 0.2 m cubes of ``mass`` [kg] resting on a ground plane (MuJoCo Warp, test device).

    Returns ``(sim, scene)``; the scene's cube is ``scene["cube"]``. The context is cleared after the module.
    """

    def factory(*, num_envs: int, mass: float = 1.0, ground_friction: float = 1.0, dt: float = 1.0 / 240.0):
        from isaaclab.assets import AssetBaseCfg
        from isaaclab.scene import InteractiveSceneCfg
        from isaaclab.utils import configclass

        from isaaclab_newton.sim import GroundPlaneCfg

        @configclass
        class SceneCfg(InteractiveSceneCfg):
            ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg(static_friction=ground_friction))
            cube = rigid_box_cfg("Cube", mass=mass)

        return scene_factory(SceneCfg(num_envs=num_envs, env_spacing=3.0), dt=dt)

    return factory


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
