"""MuJoCo Warp + VBD shared-model manager: a rigid box on a soft block, two-way versus one-way, step order."""

from __future__ import annotations

import pytest
from conftest import BLOCK_TOP, BOX_HALF, box_on_soft_block_cfg, new_simulation, step_scene

BOX_MASS = 1.0  # [kg]
GRAVITY = 9.81  # [m/s^2]
STEPS = 120  # 1 s at dt 1/120 s
STEP_NAMES = (
    "_clear_force_accumulators",
    "_detect_contacts",
    "_apply_soft_to_rigid_reactions",
    "_step_rigid",
    "_clear_rigid_step_particle_forces",
    "_step_soft",
)


def _make_scene(coupling_mode: str, *, graph: bool = False, before_reset=None, observables=(), soft_contact_cfg=None):
    """A 1 kg, 0.1 m rigid box resting 1 cm above a 0.2 x 0.2 x 0.1 m soft block (E 1e5 Pa) on the ground.

    ``graph`` replays the substep loop from a graph (a CPU or CUDA graph on the test device); else it steps eagerly.
    """
    from isaaclab.scene import InteractiveScene

    from isaaclab_contrib.custom_coupling import CoupledMJWarpVBDSolverCfg
    from isaaclab_newton.physics import NewtonCfg, NewtonSoftContactCfg, VBDSolverCfg

    solver_cfg = CoupledMJWarpVBDSolverCfg(
        coupling_mode=coupling_mode,
        soft_solver_cfg=VBDSolverCfg(integrate_with_external_rigid_solver=True, iterations=10),
    )
    physics = NewtonCfg(
        solver_cfg=solver_cfg,
        num_substeps=2,
        use_cpu_graph=graph,
        use_cuda_graph=graph,
        observables=tuple(observables),
        soft_contact_cfg=soft_contact_cfg or NewtonSoftContactCfg(),
    )
    sim = new_simulation(physics, dt=1.0 / 120.0)
    scene = InteractiveScene(box_on_soft_block_cfg(box_mass=BOX_MASS))
    if before_reset is not None:
        before_reset()
    sim.reset()
    return sim, scene


def test_two_way_block_holds_box_and_pushes_back():
    """Two-way: the block holds the box up (captured graph); the reaction in body_f and VBD's rows are m g."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.custom_coupling import NewtonCoupledMJWarpVBDManager
    from isaaclab_newton.physics import NewtonManager

    sim, scene = _make_scene("two_way", graph=True, observables=("contact_f", "body_qdd"))
    assert NewtonManager.uses_graph()
    assert NewtonManager.get_observables().body_qdd is not None, "body kinds go to MuJoCo Warp"
    assert NewtonManager.get_observables().contact_f is None, "contact_f goes to VBD"
    box = scene["box"]
    reactions = []
    for _ in range(STEPS):
        step_scene(sim, scene, 1)
        reactions.append(NewtonCoupledMJWarpVBDManager.get_soft_contact_reaction().numpy()[0])
    z = box.data.root_link_pos_w.torch[0, 2].item()
    assert z > BLOCK_TOP + BOX_HALF, f"the box sank into the block (z = {z:.4f} m)"
    assert abs(box.data.root_com_lin_vel_w.torch[0, 2].item()) < 0.01, "the box must come to rest on the block"
    late = sum(r[2] for r in reactions[STEPS // 2 :]) / (STEPS - STEPS // 2)
    assert late == pytest.approx(BOX_MASS * GRAVITY, rel=0.05)
    # VBD's rigid-soft rows: force on the contacted shape's body by the particles; on the box it carries m g.
    model, contacts = NewtonManager.get_model(), NewtonManager.get_contacts()
    n_soft = int(contacts.soft_contact_count.numpy()[0])
    rows = NewtonCoupledMJWarpVBDManager.get_soft_observables().contact_f.numpy()[contacts.rigid_contact_max :]
    on_box = model.shape_body.numpy()[contacts.soft_contact_shape.numpy()[:n_soft]] == 0
    assert rows[:n_soft][on_box, 2].sum() == pytest.approx(BOX_MASS * GRAVITY, rel=0.05)
    SimulationContext.clear_instance()


def test_newton_soft_contact_cfg_reaches_the_shared_model():
    """NewtonCfg.soft_contact_cfg is written on the model both sub-solvers and the two-way reactions use."""
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.physics import NewtonManager, NewtonSoftContactCfg

    contact = NewtonSoftContactCfg(soft_contact_ke=2345.0, soft_contact_kd=0.25, soft_contact_mu=0.6)
    _make_scene("two_way", soft_contact_cfg=contact)
    model = NewtonManager.get_model()
    assert (model.soft_contact_ke, model.soft_contact_kd, model.soft_contact_mu) == pytest.approx((2345.0, 0.25, 0.6))
    SimulationContext.clear_instance()


def test_one_way_box_falls_through_block():
    """One-way: particles never push the box, so it falls through the block onto the ground."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.custom_coupling import NewtonCoupledMJWarpVBDManager

    sim, scene = _make_scene("one_way")
    step_scene(sim, scene, STEPS)
    assert scene["box"].data.root_link_pos_w.torch[0, 2].item() == pytest.approx(BOX_HALF, abs=2e-3)
    assert not NewtonCoupledMJWarpVBDManager.get_soft_contact_reaction().numpy().any()
    SimulationContext.clear_instance()


@pytest.mark.parametrize("mode", ["two_way", "one_way"])
def test_substep_runs_the_documented_steps_in_order(mode):
    """Each substep runs clear, detect, (two-way: inject into body_f), MuJoCo, clear particle forces, VBD."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.custom_coupling import CoupledMJWarpVBDSolver

    calls: list[str] = []
    body_fz: list[float] = []
    mp = pytest.MonkeyPatch()

    def patch():
        for name in STEP_NAMES:
            original = getattr(CoupledMJWarpVBDSolver, name)

            def wrapper(self, *args, _name=name, _original=original):
                calls.append(_name)
                if _name == "_step_rigid":
                    body_fz.append(float(args[0].body_f.numpy()[0, 2]))
                return _original(self, *args)

            mp.setattr(CoupledMJWarpVBDSolver, name, wrapper)

    try:
        sim, scene = _make_scene(mode, before_reset=patch)
        step_scene(sim, scene, 30)
    finally:
        mp.undo()
        SimulationContext.clear_instance()
    expected = [n for n in STEP_NAMES if mode == "two_way" or n != "_apply_soft_to_rigid_reactions"]
    assert calls == expected * (30 * 2)
    if mode == "two_way":
        assert max(body_fz) > 0.5 * BOX_MASS * GRAVITY, "the soft reaction must reach body_f before MuJoCo steps"
    else:
        assert max(abs(f) for f in body_fz) == 0.0


def test_shape_margins_build_without_newton_warnings():
    """Shape margins (kept for VBD's particle contacts) build without MuJoCo's per-geom 'margin zeroed' warning."""
    import warnings

    import newton
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.physics import NewtonManager

    def set_margins():
        builder = NewtonManager.get_builder()
        builder.shape_margin = [0.001] * len(builder.shape_margin)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _make_scene("two_way", before_reset=set_margins)
    assert NewtonManager.get_model().shape_margin.numpy().max() == pytest.approx(0.001)
    assert [str(w.message) for w in caught if issubclass(w.category, newton.NewtonWarning)] == []
    SimulationContext.clear_instance()
