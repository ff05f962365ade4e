"""Body and root state of Newton assets: derived quantities computed on read, cached per state stamp.

Every state-derived buffer is a :class:`~isaaclab.utils.buffers.TimestampedBuffer` holding a persistent
:class:`~isaaclab.utils.warp.ProxyArray`. A read compares the buffer's timestamp with
:meth:`NewtonManager.get_state_stamp` (which changes on every physics step, state write, reset and FK); only a
stale buffer is recomputed, from the quantities it depends on (themselves cached). A quantity nobody reads is
never computed, and one read twice between state changes is computed once.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import warp as wp
from isaaclab.utils.buffers import TimestampedBuffer
from isaaclab.utils.math import quat_apply
from isaaclab.utils.warp import ProxyArray

from ..physics import NewtonManager
from .binding import ArticulationBinding, torch_view
from .root_frame import ROOT_FRAME_FIELDS, compute_root_frame

_GRAVITY_DIR = (0.0, 0.0, -1.0)

# Derived quantities shared by the per-body ("body_") and root ("root_") scopes: suffix -> (dtype, doc, compute).
# ``g(suffix)`` reads another quantity of the same scope; ``com_b`` is the scope's CoM offset in the body frame.
_Compute = Callable[[Callable[[str], torch.Tensor], torch.Tensor], torch.Tensor]
_FRAME_FIELDS: dict[str, tuple[type | None, str, _Compute]] = {
    "link_pos_w": (wp.vec3f, "body frame origin, world frame [m]", lambda g, c: g("link_pose_w")[..., :3]),
    "link_quat_w": (wp.quatf, "body orientation, world frame (x, y, z, w)", lambda g, c: g("link_pose_w")[..., 3:]),
    "com_lin_vel_w": (wp.vec3f, "CoM linear velocity, world frame [m/s]", lambda g, c: g("com_vel_w")[..., :3]),
    "com_ang_vel_w": (wp.vec3f, "angular velocity, world frame [rad/s]", lambda g, c: g("com_vel_w")[..., 3:]),
    "link_ang_vel_w": (wp.vec3f, "angular velocity, world frame [rad/s]", lambda g, c: g("com_vel_w")[..., 3:]),
    "com_quat_w": (wp.quatf, "CoM frame orientation (body-aligned), world frame", lambda g, c: g("link_quat_w")),
    "com_pos_w": (
        wp.vec3f,
        "center of mass, world frame [m]",
        lambda g, c: g("link_pos_w") + quat_apply(g("link_quat_w"), c),
    ),
    "com_pose_w": (
        wp.transformf,
        "CoM pose, world frame (pos [m], quat xyzw)",
        lambda g, c: torch.cat((g("com_pos_w"), g("link_quat_w")), -1),
    ),
    "link_lin_vel_w": (
        wp.vec3f,
        "linear velocity of the body frame origin, world frame [m/s]",
        lambda g, c: g("com_lin_vel_w") - torch.cross(g("com_ang_vel_w"), g("com_pos_w") - g("link_pos_w"), dim=-1),
    ),
    "link_vel_w": (
        wp.spatial_vectorf,
        "twist of the body frame origin, world frame (lin [m/s], ang [rad/s])",
        lambda g, c: torch.cat((g("link_lin_vel_w"), g("com_ang_vel_w")), -1),
    ),
    "link_state_w": (
        None,
        "body frame pose (7) and origin twist (6), trailing axis 13",
        lambda g, c: torch.cat((g("link_pose_w"), g("link_vel_w")), -1),
    ),
    "com_state_w": (
        None,
        "CoM pose (7) and CoM twist (6), trailing axis 13",
        lambda g, c: torch.cat((g("com_pose_w"), g("com_vel_w")), -1),
    ),
    "state_w": (
        None,
        "body frame pose (7) and CoM twist (6), trailing axis 13",
        lambda g, c: torch.cat((g("link_pose_w"), g("com_vel_w")), -1),
    ),
}
_SOURCES = {
    "link_pose_w": (wp.transformf, "body frame pose, world frame (pos [m], quat xyzw)", "body_q"),
    "com_vel_w": (wp.spatial_vectorf, "CoM twist, world frame (lin [m/s], ang [rad/s])", "body_qd"),
}
_ROOT_BODY_FRAME = {
    "root_link_lin_vel_b": ("root_link_lin_vel_w", "Linear velocity of the root body frame origin, root frame [m/s]."),
    "root_link_ang_vel_b": ("root_link_ang_vel_w", "Angular velocity of the root, root frame [rad/s]."),
    "root_com_lin_vel_b": ("root_com_lin_vel_w", "Root center-of-mass linear velocity, root frame [m/s]."),
    "root_com_ang_vel_b": ("root_com_ang_vel_w", "Root angular velocity, root frame [rad/s]."),
}


def _lazy_property(name: str, doc: str) -> property:
    def getter(self) -> ProxyArray:
        return self._read(name)

    getter.__name__ = name
    getter.__doc__ = doc
    return property(getter)


class NewtonBodyDataMixin:
    """Per-env body and root quantities of one asset, computed on read from the manager's current state.

    Body velocities in Newton's ``State.body_qd`` are center-of-mass twists in the world frame; origin twists are
    ``v_origin = v_com - w x (R c)`` with ``c`` the body-frame CoM. Accelerations follow core's convention: the
    finite difference of the velocity between two reads (over the simulation time between them).
    """

    _root_frame_fields: tuple[str, ...] = ROOT_FRAME_FIELDS
    """The root buffers this data class computes with the root-frame kernel (a subclass may define some otherwise)."""

    def _init_body_buffers(self, binding: ArticulationBinding, device: str) -> None:
        self._binding = binding
        self._num_instances = binding.num_instances
        self._num_bodies = len(binding.body_names)
        self._views: dict[int, tuple[wp.array, torch.Tensor]] = {}
        self._lazy: dict[str, tuple[TimestampedBuffer, Callable[[], torch.Tensor | None], torch.Tensor]] = {}
        self._static: dict[str, ProxyArray] = {}
        body_shape = (self._num_instances, self._num_bodies)
        for suffix, (dtype, _, attr) in _SOURCES.items():
            self._add_gather(f"body_{suffix}", body_shape, dtype, attr, binding.body_indices)
        for suffix, (dtype, _, fn) in _FRAME_FIELDS.items():
            self._add_lazy(f"body_{suffix}", body_shape, dtype, self._body_field_compute(fn))
        root_dtypes = {f"root_{k}": v[0] for k, v in {**_SOURCES, **_FRAME_FIELDS}.items()}
        root_dtypes |= dict.fromkeys(_ROOT_BODY_FRAME, wp.vec3f) | {"projected_gravity_b": wp.vec3f}
        root_dtypes["heading_w"] = wp.float32
        self._root_dtypes = root_dtypes
        for name in self._root_frame_fields:  # one kernel computes all of them (see root_frame.py)
            self._add_lazy(name, (self._num_instances,), root_dtypes[name], self._root_frame)
        self._add_lazy("body_inertia", (self._num_instances, self._num_bodies, 9), wp.float32, self._inertia_w)
        self._add_lazy(
            "body_com_acc_w",
            (self._num_instances, self._num_bodies),
            wp.spatial_vectorf,
            self._difference("body_com_vel_w"),
        )
        self._add_lazy(
            "body_com_lin_acc_w",
            (self._num_instances, self._num_bodies),
            wp.vec3f,
            lambda: self._dependency("body_com_acc_w")[..., :3],
        )
        self._add_lazy(
            "body_com_ang_acc_w",
            (self._num_instances, self._num_bodies),
            wp.vec3f,
            lambda: self._dependency("body_com_acc_w")[..., 3:],
        )
        for name, dtype in (("default_root_pose", wp.transformf), ("default_root_vel", wp.spatial_vectorf)):
            self._static[name] = ProxyArray(wp.zeros((self._num_instances,), dtype=dtype, device=device))
        self._static["default_root_state"] = ProxyArray(
            wp.zeros((self._num_instances, 13), dtype=wp.float32, device=device)
        )
        gravity = torch.tensor(NewtonManager.get_gravity(), dtype=torch.float32)
        norm = torch.linalg.norm(gravity)
        direction = gravity / norm if norm > 0 else torch.tensor(_GRAVITY_DIR)
        self._static["GRAVITY_VEC_W"] = ProxyArray(
            wp.array(direction.repeat(self._num_instances, 1).numpy(), dtype=wp.vec3f, device=device)
        )
        forward = torch.tensor([[1.0, 0.0, 0.0]]).repeat(self._num_instances, 1)
        self._static["FORWARD_VEC_B"] = ProxyArray(wp.array(forward.numpy(), dtype=wp.vec3f, device=device))
        self._static["body_mass"] = ProxyArray(
            wp.zeros((self._num_instances, self._num_bodies), dtype=wp.float32, device=device)
        )
        self._static["body_com_pose_b"] = ProxyArray(
            wp.zeros((self._num_instances, self._num_bodies), dtype=wp.transformf, device=device)
        )
        self._static["body_com_pos_b"] = ProxyArray(
            wp.zeros((self._num_instances, self._num_bodies), dtype=wp.vec3f, device=device)
        )
        self._static["body_com_quat_b"] = ProxyArray(
            wp.zeros((self._num_instances, self._num_bodies), dtype=wp.quatf, device=device)
        )
        self.read_body_properties()
        self._root_frame_args: dict | None = None  # kernel arguments, bound on the first root read

    # -- lazy machinery ------------------------------------------------------------------------------

    def _add_lazy(self, name: str, shape: tuple, dtype, compute: Callable[[], torch.Tensor | None]) -> None:
        """Register a lazy buffer recomputed by ``compute`` when stale.

        ``compute`` returns the new value, or ``None`` when it wrote the buffer itself or the last value stands.
        """
        device = self._binding.device
        array = wp.zeros((*shape, 13), dtype=wp.float32, device=device) if dtype is None else None
        if array is None:
            array = wp.zeros(shape, dtype=dtype, device=device)
        # the torch view is kept next to the buffer: internal reads skip ProxyArray.torch (and its quatf check)
        self._lazy[name] = (TimestampedBuffer(data=ProxyArray(array), timestamp=-1), compute, wp.to_torch(array))

    def _read(self, name: str) -> ProxyArray:
        """Return the buffer ``name``, recomputing it first if the state changed since it was computed."""
        NewtonManager.update_kinematics()  # applies queued resets/FK; a no-op when nothing is queued
        self._refresh(name)
        return self._lazy[name][0].data

    def _refresh(self, name: str) -> torch.Tensor:
        """Recompute the lazy buffer ``name`` if stale (queued kinematics already applied); its torch view."""
        buf, compute, tensor = self._lazy[name]
        stamp = NewtonManager.get_state_stamp()
        if buf.timestamp != stamp:
            value = compute()
            if value is not None:
                tensor.copy_(value)
            buf.timestamp = stamp
        return tensor

    def _dependency(self, name: str) -> torch.Tensor:
        """Current value of a lazy or static quantity as a torch tensor, inside a compute (kinematics applied)."""
        static = self._static.get(name)
        if static is not None:
            return static.torch
        return self._refresh(name)

    def _view(self, array: wp.array) -> torch.Tensor:
        """Cached zero-copy torch view of a manager array."""
        cached = self._views.get(id(array))
        if cached is None or cached[0] is not array:
            cached = (array, torch_view(array))
            self._views[id(array)] = cached
        return cached[1]

    def _add_gather(self, name: str, shape: tuple, dtype, attr: str, rows: torch.Tensor) -> None:
        """A lazy buffer holding ``State.<attr>`` at ``rows``: a strided view of the state where the rows allow.

        Where ``rows`` (num_instances, k) is an affine grid (``rows[i, j] = rows[0, 0] + i * s_i + j * s_j``, one
        asset laid out the same way in every world), the buffer is a zero-copy strided view of the manager's state
        array: nothing runs on a read. Otherwise it is a persistent buffer gathered on a stale read (one
        ``index_select``). The manager keeps ``State`` objects and their arrays for the model's lifetime (substeps
        swap an even number of times or copy back), so a view stays current.
        """
        source = getattr(NewtonManager.get_state_0(), attr)
        strides = _affine_strides(rows)
        if strides is not None:
            array = _strided_view(source, int(rows.reshape(-1)[0]), shape, strides)

            def check() -> None:
                if getattr(NewtonManager.get_state_0(), attr) is not source:
                    raise RuntimeError(
                        f"State.{attr} was replaced after {type(self).__name__} bound its view of it; the Newton"
                        " manager keeps its State arrays while the model lives (rebuild the asset for a new model)."
                    )

            self._lazy[name] = (TimestampedBuffer(data=ProxyArray(array), timestamp=-1), check, wp.to_torch(array))
            return
        index = rows.reshape(-1).contiguous()

        def compute() -> None:
            torch.index_select(self._view(getattr(NewtonManager.get_state_0(), attr)), 0, index, out=out)

        self._add_lazy(name, shape, dtype, compute)
        tensor = self._lazy[name][2]
        out = tensor.view(-1, *tensor.shape[rows.dim() :])

    def _body_field_compute(self, fn: _Compute) -> Callable[[], torch.Tensor]:
        return lambda: fn(lambda suffix: self._dependency(f"body_{suffix}"), self._static["body_com_pos_b"].torch)

    def _root_frame(self) -> None:
        """Compute every root-frame buffer at once and mark them all current."""
        args = self._root_frame_args
        if args is None:
            com_b = self._static["body_com_pos_b"].torch[:, 0]  # persistent: read_body_properties copies into it
            owned = self._root_frame_fields
            out = {  # the kernel writes scratch for the names a subclass defines otherwise
                name: self._lazy[name][0].data.warp
                if name in owned
                else wp.zeros(self._num_instances, dtype=self._root_dtypes[name], device=self._binding.device)
                for name in ROOT_FRAME_FIELDS
            }
            args = self._root_frame_args = {
                "root_body": wp.from_torch(self._binding.root_body.to(torch.int32).contiguous(), dtype=wp.int32),
                "com_b": wp.from_torch(com_b, dtype=wp.vec3f),
                "gravity_dir": self._static["GRAVITY_VEC_W"].warp,
                "forward_b": self._static["FORWARD_VEC_B"].warp,
                "out": out,
                "owned": owned,
            }
        state = NewtonManager.get_state_0()
        compute_root_frame(
            state.body_q,
            state.body_qd,
            args["root_body"],
            com_b=args["com_b"],
            gravity_dir=args["gravity_dir"],
            forward_b=args["forward_b"],
            out=args["out"],
        )
        stamp = NewtonManager.get_state_stamp()
        for name in args["owned"]:
            self._lazy[name][0].timestamp = stamp

    def _inertia_w(self) -> torch.Tensor:
        from isaaclab.utils.math import matrix_from_quat

        rot = matrix_from_quat(self._dependency("body_link_quat_w"))
        return (rot @ self._inertia_b @ rot.transpose(-1, -2)).reshape(self._num_instances, self._num_bodies, 9)

    def _difference(self, velocity: str) -> Callable[[], torch.Tensor | None]:
        """Finite difference of ``velocity`` between two reads (core's convention for accelerations)."""
        memory: dict[str, object] = {}

        def stamp(now: float) -> None:
            memory["time"] = now
            clocks = NewtonManager.recording_clocks()
            if clocks is not None:  # inside a recorded env step: keep the read time true across its replays
                clocks.add(memory, "time")

        def compute() -> torch.Tensor | None:
            now = NewtonManager.get_simulation_time()
            vel = self._dependency(velocity)
            if "prev" not in memory:
                memory["prev"] = vel.clone()
                stamp(now)
                return torch.zeros_like(vel)
            dt = now - memory["time"]
            if dt <= 0.0:
                return None  # same simulation time as the last read: keep the last difference
            acc = (vel - memory["prev"]) / dt
            memory["prev"].copy_(vel)
            stamp(now)
            return acc

        return compute

    # -- properties -----------------------------------------------------------------------------------

    def _tensor(self, name: str) -> torch.Tensor:
        """Current value of a lazy or static quantity as a torch tensor (applies queued kinematics first)."""
        if name not in self._static:
            NewtonManager.update_kinematics()
        return self._dependency(name)

    def read_body_properties(self) -> None:
        """Copy masses [kg], inertias [kg m^2] (about the CoM, body frame) and CoM offsets [m] from the model."""
        model = NewtonManager.get_model()
        bodies = self._binding.body_indices
        self._static["body_mass"].torch.copy_(torch_view(model.body_mass)[bodies])
        self._inertia_b = (
            torch_view(model.body_inertia)[bodies].reshape(self._num_instances, self._num_bodies, 3, 3).clone()
        )
        com = torch_view(model.body_com)[bodies]
        self._static["body_com_pos_b"].torch.copy_(com)
        identity = torch.zeros((*com.shape[:-1], 4), device=com.device)
        identity[..., 3] = 1.0
        self._static["body_com_quat_b"].torch.copy_(identity)
        self._static["body_com_pose_b"].torch.copy_(torch.cat((com, identity), -1))
        NewtonManager.note_state_write()

    def set_default_root_state(self, pose: torch.Tensor, vel: torch.Tensor) -> None:
        """Set the default root pose (7) and center-of-mass twist (6) relative to the env origin."""
        self._static["default_root_pose"].torch[:] = pose
        self._static["default_root_vel"].torch[:] = vel
        self._static["default_root_state"].torch[:] = torch.cat((pose, vel), -1)

    def _reset_pose(self, from_link: bool = True) -> None:
        """Mark pose-derived buffers stale."""
        NewtonManager.note_state_write()

    def _reset_velocity(self, from_com: bool = True) -> None:
        """Mark velocity-derived buffers stale."""
        NewtonManager.note_state_write()

    @property
    def GRAVITY_VEC_W(self) -> ProxyArray:  # noqa: N802 - core's name
        """Unit direction of the simulation's gravity in the world frame, per env, shape (N, 3)."""
        return self._static["GRAVITY_VEC_W"]

    @property
    def FORWARD_VEC_B(self) -> ProxyArray:  # noqa: N802 - core's name
        """Forward axis (+x) of the root body frame, per env, shape (N, 3)."""
        return self._static["FORWARD_VEC_B"]

    @property
    def default_root_pose(self) -> ProxyArray:
        """Default root pose relative to the env origin, (x, y, z [m], qx, qy, qz, qw)."""
        return self._static["default_root_pose"]

    @property
    def default_root_vel(self) -> ProxyArray:
        """Default root center-of-mass twist (linear [m/s], angular [rad/s])."""
        return self._static["default_root_vel"]

    @property
    def default_root_state(self) -> ProxyArray:
        """Default root pose (7) and twist (6), shape (N, 13)."""
        return self._static["default_root_state"]

    @property
    def body_mass(self) -> ProxyArray:
        """Body masses [kg], shape (num_instances, num_bodies)."""
        return self._static["body_mass"]

    @property
    def body_com_pose_b(self) -> ProxyArray:
        """Center-of-mass frames in the body frames (pos [m], identity quaternion)."""
        return self._static["body_com_pose_b"]

    @property
    def body_com_pos_b(self) -> ProxyArray:
        """Centers of mass in the body frames [m]."""
        return self._static["body_com_pos_b"]

    @property
    def body_com_quat_b(self) -> ProxyArray:
        """Orientation of the CoM frames in the body frames: identity (Newton's inertia is body-aligned)."""
        return self._static["body_com_quat_b"]


def _affine_strides(rows: torch.Tensor) -> tuple[int, int] | None:
    """Strides ``(s_i, s_j)`` with ``rows[i, j] == rows[0, 0] + i * s_i + j * s_j`` for every entry, else ``None``.

    Strides are non-negative (a view of the state array); a single row or column takes the other axis' stride as
    its own, so shapes ``(N, 1)`` and ``(1, K)`` are views too.
    """
    if rows.dim() != 2 or rows.numel() == 0:
        return None
    grid = rows.detach().to("cpu", torch.int64)
    n, k = grid.shape
    s_i = int(grid[1, 0] - grid[0, 0]) if n > 1 else k
    s_j = int(grid[0, 1] - grid[0, 0]) if k > 1 else 1
    if s_i < 0 or s_j < 0:
        return None
    expected = grid[0, 0] + torch.arange(n)[:, None] * s_i + torch.arange(k)[None, :] * s_j
    return (s_i, s_j) if torch.equal(grid, expected) else None


def _strided_view(source: wp.array, first: int, shape: tuple, strides: tuple[int, int]) -> wp.array:
    """A 2-D view of the 1-D array ``source`` starting at element ``first`` with element strides ``strides``."""
    item = wp.types.type_size_in_bytes(source.dtype)
    view = wp.array(
        ptr=source.ptr + first * item,
        dtype=source.dtype,
        shape=shape,
        strides=(strides[0] * item, strides[1] * item),
        device=source.device,
    )
    view._ref = source  # the view owns no memory: keep the state array alive with it
    return view


def _install_properties() -> None:
    for scope, what in (("body", "Per body, shape (N, B)"), ("root", "Root body, shape (N,)")):
        for suffix, (_, doc, _) in {**_SOURCES, **_FRAME_FIELDS}.items():
            text = f"{what}: {doc}."
            setattr(NewtonBodyDataMixin, f"{scope}_{suffix}", _lazy_property(f"{scope}_{suffix}", text))
    for name, (_, doc) in _ROOT_BODY_FRAME.items():
        setattr(NewtonBodyDataMixin, name, _lazy_property(name, doc))
    for name, doc in (
        ("projected_gravity_b", "Unit gravity direction (:attr:`GRAVITY_VEC_W`) in the root frame, shape (N, 3)."),
        ("heading_w", "Yaw of the root's x axis (:attr:`FORWARD_VEC_B`) in the world frame [rad], shape (N,)."),
        ("body_inertia", "Body inertias about the CoM in the world frame [kg m^2], flattened 3x3, (N, B, 9)."),
        ("body_com_acc_w", "CoM accelerations (lin [m/s^2], ang [rad/s^2]): velocity difference between reads."),
        ("body_com_lin_acc_w", "CoM linear accelerations [m/s^2] (velocity difference between reads)."),
        ("body_com_ang_acc_w", "Angular accelerations [rad/s^2] (velocity difference between reads)."),
    ):
        setattr(NewtonBodyDataMixin, name, _lazy_property(name, doc))


_install_properties()
