"""Requests, allocation, resets and contact-storage guards of the manager's observable container."""

from __future__ import annotations

import newton
import pytest
import warp as wp
from observable_scenes import BOX_HALF, DEVICE

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg, NewtonManager, XPBDSolverCfg


def _box_scene() -> None:
    """Ground and a box resting on it, in the manager's builder."""
    builder = NewtonManager.create_builder()
    builder.add_ground_plane()
    body = builder.add_body(xform=wp.transform((0.0, 0.0, BOX_HALF), wp.quat_identity()), label="box")
    builder.add_shape_box(body, hx=BOX_HALF, hy=BOX_HALF, hz=BOX_HALF)


def test_bare_string_request_is_rejected(make_sim):
    """request_observables("body_qdd") raises TypeError naming the collection form."""
    make_sim(XPBDSolverCfg(), device=DEVICE)
    with pytest.raises(TypeError, match=r"\{'body_qdd'\}"):
        NewtonManager.request_observables("body_qdd")


def test_bare_string_cfg_is_rejected():
    """NewtonCfg(observables="body_qdd") raises TypeError."""
    with pytest.raises(TypeError, match="collection of kind strings"):
        NewtonCfg(solver_cfg=XPBDSolverCfg(), observables="body_qdd")


def test_requests_from_all_consumers_are_unioned(make_sim):
    """Kinds from NewtonCfg and several request_observables calls end up in one container."""
    sim = make_sim(MJWarpSolverCfg(), device=DEVICE, observables=("contact_f",))
    _box_scene()
    NewtonManager.request_observables({"body_qdd"})
    NewtonManager.request_observables(["body_parent_f", "body_qdd"], every_substep=True)
    sim.reset()
    container = NewtonManager.get_observables()
    assert container.kinds == {"contact_f", "body_qdd", "body_parent_f"}
    assert NewtonManager.get_requested_observables() == container.kinds


def test_contacts_passed_only_for_contact_kinds(make_sim, monkeypatch):
    """solver.observables() gets contacts=None for body-only requests and the manager's contacts otherwise."""
    seen = []
    original = newton.solvers.SolverXPBD.observables

    def spy(self, kinds, *, contacts=None, requires_grad=None):
        seen.append((frozenset(kinds), contacts))
        return original(self, kinds, contacts=contacts, requires_grad=requires_grad)

    monkeypatch.setattr(newton.solvers.SolverXPBD, "observables", spy)
    sim = make_sim(XPBDSolverCfg(), device=DEVICE)
    _box_scene()
    NewtonManager.request_observables({"body_parent_f"})
    sim.reset()
    assert seen[-1] == (frozenset({"body_parent_f"}), None)
    assert NewtonManager.get_observables().contacts is None

    sim = make_sim(XPBDSolverCfg(), device=DEVICE, observables=("contact_f", "body_parent_f"))
    _box_scene()
    sim.reset()
    assert seen[-1][0] == {"contact_f", "body_parent_f"}
    assert seen[-1][1] is NewtonManager.get_contacts() is not None
    assert NewtonManager.get_observables().contacts is NewtonManager.get_contacts()


def test_request_after_initialization_is_refused(make_sim):
    """A kind not yet in the container cannot be added while the solver runs; the error names the fix."""
    sim = make_sim(XPBDSolverCfg(), device=DEVICE)
    _box_scene()
    NewtonManager.request_observables({"body_parent_f"})
    sim.reset()
    NewtonManager.request_observables({"body_parent_f"})  # already covered: accepted
    with pytest.raises(RuntimeError, match="PHYSICS_READY"):
        NewtonManager.request_observables({"contact_f"})
    with pytest.raises(RuntimeError, match="every substep"):
        NewtonManager.request_observables({"body_parent_f"}, every_substep=True)


def test_hard_reset_reallocates_soft_reset_keeps(make_sim):
    """sim.reset() builds a new container with the same kinds; sim.reset(soft=True) keeps the same object."""
    sim = make_sim(XPBDSolverCfg(), device=DEVICE, observables=("contact_f",))
    _box_scene()
    sim.reset()
    first = NewtonManager.get_observables()
    sim.step(render=False)
    sim.reset(soft=True)
    assert NewtonManager.get_observables() is first
    sim.step(render=False)
    sim.reset()
    second = NewtonManager.get_observables()
    assert second is not first and second.kinds == first.kinds
    assert second.contacts is NewtonManager.get_contacts() and second.model is NewtonManager.get_model()
    sim.step(render=False)


def test_replaced_contacts_are_rejected(make_sim):
    """Swapping in a pipeline and contacts with other capacities after allocation fails the next step."""
    sim = make_sim(XPBDSolverCfg(), device=DEVICE, observables=("contact_f",))
    _box_scene()
    sim.reset()
    sim.step(render=False)
    model = NewtonManager.get_model()
    pipeline = newton.CollisionPipeline(model, rigid_contact_max=model.rigid_contact_max + 64)
    NewtonManager._collision_pipeline = pipeline  # what a stray assignment would do
    NewtonManager._contacts = pipeline.contacts()
    with pytest.raises(RuntimeError, match="not the ones the observables were allocated with"):
        sim.step(render=False)


def test_pipeline_rebuilt_with_other_capacity_is_rejected(make_sim):
    """A new pipeline on the model with another capacity (even if unused) fails the next step: capacities froze."""
    sim = make_sim(XPBDSolverCfg(), device=DEVICE, observables=("contact_f",))
    _box_scene()
    sim.reset()
    model = NewtonManager.get_model()
    newton.CollisionPipeline(model, rigid_contact_max=model.rigid_contact_max + 64)
    with pytest.raises(RuntimeError, match="capacities on the model changed"):
        sim.step(render=False)


def test_native_mujoco_contacts_size_export_storage(make_sim):
    """With MuJoCo's own collision, contacts are sized from get_max_contact_count(), no pipeline runs."""
    sim = make_sim(MJWarpSolverCfg(use_mujoco_contacts=True), device=DEVICE, observables=("contact_f",))
    _box_scene()
    sim.reset()
    contacts = NewtonManager.get_contacts()
    solver = NewtonManager.get_solver()
    assert NewtonManager.get_collision_pipeline() is None
    assert (contacts.rigid_contact_max, contacts.soft_contact_max) == (solver.get_max_contact_count(), 0)
    assert NewtonManager.get_observables().contacts is contacts
    for _ in range(5):
        sim.step(render=False)
    assert int(contacts.rigid_contact_count.numpy()[0]) > 0


def test_failed_allocation_leaves_no_solver_to_step(make_sim):
    """After an unsupported request fails at sim.reset(), stepping raises instead of running without observables."""
    sim = make_sim(XPBDSolverCfg(), device=DEVICE, observables=("body_qdd",))
    _box_scene()
    with pytest.raises(ValueError, match="body_qdd"):
        sim.reset()
    assert NewtonManager.get_solver() is None
    with pytest.raises(RuntimeError, match="before the solver exists"):
        NewtonManager.step()


def test_unknown_kind_rejected_at_request_listing_known(make_sim):
    """request_observables({"foo"}) raises ValueError at request time, listing the known kinds."""
    make_sim(XPBDSolverCfg(), device=DEVICE)
    with pytest.raises(ValueError, match=r"Unknown solver observable kind\(s\) \['foo'\].*'body_qdd'"):
        NewtonManager.request_observables({"foo"})


def test_unknown_kind_in_cfg_rejected_at_context_creation(make_sim):
    """NewtonCfg(observables=("foo",)) is rejected as unknown when the simulation context starts."""
    with pytest.raises(ValueError, match="Unknown solver observable kind"):
        make_sim(XPBDSolverCfg(), device=DEVICE, observables=("foo",))


def test_known_unsupported_kind_reported_as_unsupported(make_sim):
    """A known kind the solver does not produce (XPBD, body_qdd) passes the request and fails at sim.reset()."""
    sim = make_sim(XPBDSolverCfg(), device=DEVICE)
    NewtonManager.request_observables({"body_qdd"})
    _box_scene()
    with pytest.raises(ValueError, match=r"does not support solver observable\(s\) \['body_qdd'\] \(known"):
        sim.reset()
