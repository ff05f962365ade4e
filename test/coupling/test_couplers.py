"""Proxy and ADMM couplers: a MuJoCo Warp box on a VBD soft block, disjoint ownership and selector errors."""

from __future__ import annotations

import math

import newton
import pytest
import torch
import warp as wp
from conftest import BLOCK_TOP, BOX_HALF, EAGER, box_on_soft_block_cfg, new_simulation, step_scene

BOX = "/World/envs/env_.*/Box"
BLOCK = "/World/envs/env_.*/Block"


def _entries(**rigid_overrides):
    from isaaclab_contrib.coupling import CouplerEntryCfg
    from isaaclab_newton.physics import MJWarpSolverCfg, VBDSolverCfg

    rigid = dict(
        name="rigid",
        solver_cfg=MJWarpSolverCfg(use_mujoco_contacts=False),
        bodies=[BOX],
        include_static_shapes=True,
    )
    rigid.update(rigid_overrides)
    soft = CouplerEntryCfg(name="soft", solver_cfg=VBDSolverCfg(iterations=10), deformables=[BLOCK])
    return CouplerEntryCfg(**rigid), soft


def _proxy_cfg(entries, **mapping_overrides):
    from isaaclab_contrib.coupling import CouplerProxyCfg, CouplerProxyMappingCfg

    mapping = dict(source="rigid", destination="soft", bodies=[BOX], collision_pipeline=None)
    mapping.update(mapping_overrides)
    return CouplerProxyCfg(entries=list(entries), proxies=[CouplerProxyMappingCfg(**mapping)])


def _make_scene(solver_cfg, *, num_envs: int = 1, observables=(), soft_contact_cfg=None, **physics_cfg):
    """A 1 kg, 0.1 m rigid box 1 cm above a 0.2 x 0.2 x 0.1 m soft block (E 1e5 Pa) on the ground, dt 1/120 s.

    ``physics_cfg`` goes to :class:`NewtonCfg` as it is (``num_substeps``, ``use_cpu_graph``, ...).
    """
    from isaaclab.scene import InteractiveScene

    from isaaclab_newton.physics import NewtonCfg, NewtonSoftContactCfg

    physics = NewtonCfg(
        solver_cfg=solver_cfg,
        observables=tuple(observables),
        soft_contact_cfg=soft_contact_cfg or NewtonSoftContactCfg(),
        **physics_cfg,
    )
    sim = new_simulation(physics, dt=1.0 / 120.0)
    return sim, InteractiveScene(box_on_soft_block_cfg(num_envs=num_envs))


def _assert_box_on_block(scene) -> None:
    box_z = scene["box"].data.root_link_pos_w.torch[:, 2]
    nodes = scene["block"].data.nodal_pos_w.torch
    assert torch.isfinite(box_z).all() and torch.isfinite(nodes).all()
    # uncoupled, the box would fall through the block onto the ground (z = 0.05 m)
    assert (box_z > BLOCK_TOP + 0.5 * BOX_HALF).all(), f"the block must hold the box up, box z = {box_z.tolist()}"
    assert (nodes[..., 2].min(dim=1).values > 0.0).all(), "the block rests on the ground"


def test_entry_contact_buffers_are_sized_before_the_first_step():
    """Each entry's filtered contacts exist once the solver is set up: a first step captured on CUDA allocates none."""
    from isaaclab_newton.physics import NewtonManager

    sim, _ = _make_scene(_proxy_cfg(_entries()), num_envs=2, **EAGER)  # no step (or capture) runs at set-up
    sim.reset()
    # private: Newton's per-entry contact buffers, which SolverCoupled.prepare_contacts sizes
    buffers = NewtonManager.get_solver()._entry_contact_buffers
    assert set(buffers) == {"rigid", "soft"}
    contacts = NewtonManager.get_contacts()
    assert all(b.rigid_contact_max == contacts.rigid_contact_max for b in buffers.values())


def _entry_arrays(solver) -> dict[tuple[str, str], wp.array]:
    """Every Warp array an entry solver holds as an attribute, by (entry, attribute)."""
    return {
        (name, attr): value
        for name in solver.entry_names()
        for attr, value in vars(solver.solver(name)).items()
        if isinstance(value, wp.array)
    }


@pytest.mark.parametrize("coupler", ["proxy", "admm"])
def test_entry_solvers_grow_no_buffer_on_the_first_step(coupler):
    """Entry solvers hold every buffer before the first step: a first step captured in a graph allocates none."""
    from isaaclab_contrib.coupling import CouplerAdmmCfg
    from isaaclab_newton.physics import NewtonManager

    cfg = _proxy_cfg(_entries()) if coupler == "proxy" else CouplerAdmmCfg(entries=list(_entries()), rho=50.0)
    sim, scene = _make_scene(cfg, num_envs=2, **EAGER)
    sim.reset()
    before = _entry_arrays(NewtonManager.get_solver())
    step_scene(sim, scene, 2)
    after = _entry_arrays(NewtonManager.get_solver())
    rebound = sorted(key for key, array in after.items() if before.get(key) is not array)
    assert not rebound, f"entry arrays allocated by the first steps: {rebound}"


def test_proxy_holds_box_200_steps_and_resets_one_world():
    """Proxy, 2 passes: box held 200 steps, never above its drop height; a per-world reset restores env 0's only."""
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.physics import NewtonManager

    cfg = _proxy_cfg(_entries())
    cfg.iterations = 2  # one pass (the explicit lagged scheme) adds energy on this stiff contact: the box bounces 3 cm
    sim, scene = _make_scene(cfg, num_envs=2, observables=("body_qdd",))
    sim.reset()
    assert type(NewtonManager.get_solver()).__name__ == "SolverCoupledProxy"
    assert NewtonManager.uses_graph(), "MuJoCo Warp and VBD entries can both be captured, so the coupled step is"
    drop_z = scene["box"].data.root_link_pos_w.torch[:, 2].clone()
    peak_z = drop_z.clone()
    for _ in range(200):
        step_scene(sim, scene, 1)
        peak_z = torch.maximum(peak_z, scene["box"].data.root_link_pos_w.torch[:, 2])
    _assert_box_on_block(scene)
    assert torch.equal(peak_z, drop_z), f"the box rose above its drop height {drop_z.tolist()}: {peak_z.tolist()}"
    qdd = NewtonManager.get_observables().body_qdd.numpy()
    assert math.isfinite(float(abs(qdd).sum())), "body observables pass through to MuJoCo Warp"
    block = scene["block"]
    before = block.data.nodal_state_w.torch.clone()
    block.reset(env_ids=[0])
    after = block.data.nodal_state_w.torch
    assert torch.equal(after[0], block.data.default_nodal_state_w.torch[0])
    assert torch.equal(after[1], before[1])
    SimulationContext.clear_instance()


def test_proxy_runs_mujoco_rne_only_on_substeps_with_body_observables(rne_passes):
    """Proxy, 2 substeps, BODY_QDD on the last: MuJoCo Warp's post-constraint RNE runs once per physics step."""
    sim, scene = _make_scene(
        _proxy_cfg(_entries()), observables=("body_qdd",), num_substeps=2, use_cpu_graph=False, use_cuda_graph=False
    )
    sim.reset()
    rne_passes.clear()
    step_scene(sim, scene, 3)
    assert len(rne_passes) == 3, f"{len(rne_passes)} RNE passes in 3 physics steps of 2 substeps"


def test_destination_pipeline_is_built_from_its_cfg():
    """collision_pipeline=NewtonCollisionPipelineCfg(...) builds the destination's pipeline with those settings."""
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.physics import NewtonCollisionPipelineCfg, NewtonManager

    pipeline_cfg = NewtonCollisionPipelineCfg(enable_rigid_soft_full_surface_contact=True, soft_contact_max=321)
    sim, _ = _make_scene(_proxy_cfg(_entries(), collision_pipeline=pipeline_cfg, collide_interval=1))
    sim.reset()
    # private: Newton's solver setting under test, no public read
    config = NewtonManager.get_solver()._proxy_collision_configs[("rigid", "soft")]
    assert isinstance(config.pipeline, newton.CollisionPipeline) and config.collide_interval == 1
    assert config.pipeline.enable_rigid_soft_full_surface_contact
    assert config.contacts.soft_contact_max == 321
    SimulationContext.clear_instance()


def test_staggered_proxy_with_destination_pipeline_holds_box():
    """Staggered proxy on the destination's own pipeline (collide_interval 1): the block carries the box 200 steps."""
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.physics import NewtonCollisionPipelineCfg

    cfg = _proxy_cfg(_entries(), mode="staggered", collision_pipeline=NewtonCollisionPipelineCfg(), collide_interval=1)
    sim, scene = _make_scene(cfg)
    sim.reset()
    step_scene(sim, scene, 200)
    _assert_box_on_block(scene)
    SimulationContext.clear_instance()


def test_collide_interval_without_pipeline_fails_naming_the_field():
    """collide_interval with collision_pipeline=None fails at sim.reset() and names both fields."""
    from isaaclab.sim import SimulationContext

    sim, _ = _make_scene(_proxy_cfg(_entries(), collide_interval=2))
    with pytest.raises(ValueError, match=r"collide_interval=2 needs a collision_pipeline"):
        sim.reset()
    SimulationContext.clear_instance()


@pytest.mark.parametrize("coupler", ["proxy", "admm"])
def test_newton_soft_contact_cfg_reaches_the_coupler_model(coupler):
    """NewtonCfg.soft_contact_cfg is written on the shared model the couplers step (the one soft-contact setting)."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.coupling import CouplerAdmmCfg
    from isaaclab_newton.physics import NewtonManager, NewtonSoftContactCfg

    cfg = _proxy_cfg(_entries()) if coupler == "proxy" else CouplerAdmmCfg(entries=list(_entries()), rho=50.0)
    contact = NewtonSoftContactCfg(soft_contact_ke=1234.0, soft_contact_kd=0.5, soft_contact_mu=0.7)
    sim, _ = _make_scene(cfg, soft_contact_cfg=contact)
    sim.reset()
    model = NewtonManager.get_model()
    assert (model.soft_contact_ke, model.soft_contact_kd, model.soft_contact_mu) == pytest.approx((1234.0, 0.5, 0.7))
    SimulationContext.clear_instance()


def test_admm_holds_box_200_steps():
    """ADMM (rho 50): 200 steps without NaN, the box rests on the soft block instead of falling through."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.coupling import CouplerAdmmCfg

    sim, scene = _make_scene(CouplerAdmmCfg(entries=list(_entries()), rho=50.0))
    sim.reset()
    step_scene(sim, scene, 200)
    _assert_box_on_block(scene)
    SimulationContext.clear_instance()


def test_contact_observables_are_refused_with_reason():
    """Requesting contact_f from a coupler fails and says why (SolverCoupled exposes no contact rows)."""
    from isaaclab.sim import SimulationContext

    sim, _ = _make_scene(_proxy_cfg(_entries()), observables=("contact_f",))
    with pytest.raises(ValueError, match="SolverCoupled exposes no contact observables"):
        sim.reset()
    SimulationContext.clear_instance()


def test_overlapping_selectors_name_selector_and_entries():
    """Two entries selecting the same particles fail at sim.reset(), naming both entries and the selector."""
    from isaaclab.sim import SimulationContext

    rigid, soft = _entries(all_particles=True)
    sim, _ = _make_scene(_proxy_cfg((rigid, soft)))
    with pytest.raises(ValueError, match=r"'rigid' \(all_particles=True\) and 'soft' \(deformables .*Block.*disjoint"):
        sim.reset()
    SimulationContext.clear_instance()


def _two_body_model() -> newton.Model:
    builder = newton.ModelBuilder()
    for name in ("a", "b"):
        body = builder.add_body(xform=wp.transform_identity(), label=f"/World/{name}")
        builder.add_shape_box(body, hx=0.1, hy=0.1, hz=0.1, label=f"/World/{name}/box")
    builder.add_ground_plane()
    return builder.finalize(device="cpu")


def test_resolution_of_selectors():
    """Bodies bring their shapes and joints; static shapes are the world's; unmatched or empty selectors fail."""
    from isaaclab_contrib.coupling import CouplerEntryCfg
    from isaaclab_contrib.coupling.selection import resolve_entries
    from isaaclab_newton.physics import XPBDSolverCfg

    model = _two_body_model()
    cfg = XPBDSolverCfg()
    owned = resolve_entries(
        model,
        (
            CouplerEntryCfg(name="one", solver_cfg=cfg, bodies=["/World/a"], include_static_shapes=True),
            CouplerEntryCfg(name="two", solver_cfg=cfg, bodies=["/World/b"]),
        ),
    )
    assert owned["one"].bodies == [0] and owned["two"].bodies == [1]
    assert owned["one"].joints == [0] and owned["two"].joints == [1]
    assert owned["one"].shapes == [0, 2] and owned["two"].shapes == [1]
    with pytest.raises(ValueError, match=r"'two': selector bodies '/World/c' matches no body"):
        resolve_entries(model, (CouplerEntryCfg(name="two", solver_cfg=cfg, bodies=["/World/c"]),))
    with pytest.raises(ValueError, match=r"'empty' selects nothing"):
        resolve_entries(model, (CouplerEntryCfg(name="empty", solver_cfg=cfg),))
    overlap = r"'one' \(bodies '/World/.\*'\) and 'two' \(bodies '/World/b'\)"
    with pytest.raises(ValueError, match=overlap):
        resolve_entries(
            model,
            (
                CouplerEntryCfg(name="one", solver_cfg=cfg, bodies=["/World/.*"]),
                CouplerEntryCfg(name="two", solver_cfg=cfg, bodies=["/World/b"]),
            ),
        )


def test_include_flags_and_prefix_patterns():
    """Patterns match from the label's start; include_body_shapes / include_child_joints False own neither."""
    from isaaclab_contrib.coupling import CouplerEntryCfg
    from isaaclab_contrib.coupling.selection import resolve_entries
    from isaaclab_newton.physics import XPBDSolverCfg

    model = _two_body_model()
    cfg = XPBDSolverCfg()
    owned = resolve_entries(model, (CouplerEntryCfg(name="all", solver_cfg=cfg, bodies=["/World"]),))
    assert owned["all"].bodies == [0, 1] and owned["all"].joints == [0, 1] and owned["all"].shapes == [0, 1]
    entry = CouplerEntryCfg(
        name="bare",
        solver_cfg=cfg,
        bodies=["/World/a"],
        shape_label_patterns=["/World/b/box$"],
        include_body_shapes=False,
        include_child_joints=False,
    )
    owned = resolve_entries(model, (entry,))
    assert owned["bare"].bodies == [0] and owned["bare"].joints == [] and owned["bare"].shapes == [1]


def test_entry_manager_hooks_see_the_entry_solver_cfg():
    """Each entry's builder and capture hooks receive that entry's solver cfg (e.g. VBD coloring options)."""
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.physics import MJWarpSolverCfg, NewtonManager
    from isaaclab_newton.physics.mjwarp_manager import NewtonMJWarpManager

    seen: list[tuple[str, object]] = []

    class RecordingMJWarpManager(NewtonMJWarpManager):
        @classmethod
        def _prepare_builder_for_finalize(cls, builder):
            seen.append(("finalize", NewtonManager.get_solver_cfg()))

        @classmethod
        def _supports_cuda_graph_capture(cls):
            seen.append(("capture", NewtonManager.get_solver_cfg()))
            return super()._supports_cuda_graph_capture()

    rigid_cfg = MJWarpSolverCfg(use_mujoco_contacts=False)
    rigid_cfg.class_type = RecordingMJWarpManager
    coupler = _proxy_cfg(_entries(solver_cfg=rigid_cfg))
    sim, _ = _make_scene(coupler)
    sim.reset()
    assert [kind for kind, _ in seen] == ["finalize", "capture"]
    # the simulation context holds copies of the cfgs: identify the entry's cfg by its manager class
    assert all(cfg.class_type is RecordingMJWarpManager for _, cfg in seen), "an entry's hooks read the entry's cfg"
    assert type(NewtonManager.get_solver_cfg()) is type(coupler), "the manager's cfg stays the coupler's"
    SimulationContext.clear_instance()
