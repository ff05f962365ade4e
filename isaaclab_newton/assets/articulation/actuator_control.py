"""Bridge from core's ActuatorCollection to Newton's ``Control`` and model drive gains.

The per-step command path (target setters, the implicit actuator kernel, the submission into ``Control``)
replays recorded Warp launches (:class:`~isaaclab_newton.physics.recorded_launch.RecordedLaunches`): the same
kernels with the same arrays every step, so only the first call packs their arguments (on CPU each replays a
one-launch Warp CPU graph). On CPU an index setter also copies a torch value into a staging view bound to its
recorded launch, since packing a new tensor into the launch costs more than the copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import warp as wp
from isaaclab.actuators import ActuatorCollection, actuator_kernels
from isaaclab.actuators.actuator_collection import ActuatorTargetCommand
from isaaclab.actuators.actuator_control import ArticulationActuatorControl
from isaaclab.utils.warp.launch_cache import _WarpLaunchCache

from ...physics import NewtonManager
from ...physics.recorded_launch import RecordedLaunches

if TYPE_CHECKING:
    from isaaclab.actuators.actuator_base_cfg import ActuatorBaseCfg

    from .articulation import Articulation


@wp.kernel(enable_backward=False)
def _submit_kernel(
    position: wp.array2d(dtype=wp.float32),
    velocity: wp.array2d(dtype=wp.float32),
    effort: wp.array2d(dtype=wp.float32),
    coords: wp.array2d(dtype=wp.int32),
    dofs: wp.array2d(dtype=wp.int32),
    target_q: wp.array(dtype=wp.float32),
    target_qd: wp.array(dtype=wp.float32),
    joint_f: wp.array(dtype=wp.float32),
):
    env, joint = wp.tid()
    target_q[coords[env, joint]] = position[env, joint]
    dof = dofs[env, joint]
    target_qd[dof] = velocity[env, joint]
    joint_f[dof] = effort[env, joint]


class NewtonArticulationActuatorControl(ArticulationActuatorControl):
    """Submit processed actuator commands into ``Control``.

    Implicit (PD) groups run inside the solver: their gains live in ``Model.joint_target_ke/kd`` and their
    position/velocity targets go to ``Control.joint_target_q/qd``. Efforts of explicit groups and feed-forward
    efforts go to ``Control.joint_f`` [N or N m]. Explicit actuator models are computed eagerly by the
    collection (in torch) before submission.
    """

    def __init__(self, articulation: Articulation):
        super().__init__(articulation)
        self.launches = RecordedLaunches(articulation.device)
        """Recorded launches of the articulation's command path."""
        bind = articulation._binding
        self._coords = wp.from_torch(bind.coord_indices.to(torch.int32).contiguous(), dtype=wp.int32)
        self._dofs = wp.from_torch(bind.dof_indices.to(torch.int32).contiguous(), dtype=wp.int32)

    @property
    def num_fixed_tendons(self) -> int:
        """Fixed tendons that take a joint motor's place: none (core's coverage check subtracts this count).

        Newton's fixed tendons (MuJoCo's) couple and limit joints passively; a joint they couple is covered by an
        actuator group of its own (a zero-gain group for a passive joint).
        """
        return 0

    def submit_commands(self, collection: ActuatorCollection) -> None:
        """Copy processed targets and efforts of every env and joint into Newton's ``Control``.

        Args:
            collection: The collection holding processed command buffers.
        """
        control = NewtonManager.get_control()
        out = collection.output_command
        args = (
            out.position.warp,
            out.velocity.warp,
            out.effort.warp,
            self._coords,
            self._dofs,
            control.joint_target_q,
            control.joint_target_qd,
            control.joint_f,
        )
        self.launches.launch(_submit_kernel, self._coords.shape, args)


class NewtonActuatorCollection(ActuatorCollection):
    """Core's actuator collection with the per-step launches recorded once and replayed, on every device.

    Core records its implicit actuator launch on CUDA only; here it is recorded on CPU too, and the index target
    setters (``target_command.set_*_index``, which the deprecated ``Articulation.set_joint_*_target_index``
    forward to) replay a recorded write instead of packing a new launch per call. Results are unchanged: the
    same kernels run on the same arrays.

    Args:
        actuator_cfgs: Actuator group configurations.
        control: The Newton control bridge.
        debug_value_resolution: Whether to log actuator value resolution.
    """

    def __init__(
        self,
        actuator_cfgs: dict[str, ActuatorBaseCfg],
        control: NewtonArticulationActuatorControl,
        *,
        debug_value_resolution: bool = False,
    ):
        super().__init__(actuator_cfgs, control, debug_value_resolution=debug_value_resolution)
        self._launch_cache = _RecordingLaunchCache(control.launches)
        self._target_command = NewtonActuatorTargetCommand(self, control)

    def compute(self, dt: float = 0.0) -> None:
        """Compute processed commands and telemetry from the current joint state.

        Core's implicit kernel reads the joint-state buffers it was built with; on Newton those are computed on
        read, so they are made current first (core reads them only after its launch, which left the telemetry
        one physics step behind inside the decimation loop).

        Args:
            dt: Physics step size [s].
        """
        _ = self._control.joint_pos, self._control.joint_vel
        super().compute(dt)


class _RecordingLaunchCache(_WarpLaunchCache):
    """Core's launch-cache interface over :class:`RecordedLaunches` (records on CPU as well as CUDA)."""

    def __init__(self, launches: RecordedLaunches):
        self._launches = launches

    def launch(self, key: object, kernel: wp.Kernel, *, dim, inputs, outputs) -> None:
        self._launches.launch(kernel, tuple(dim), (*inputs, *outputs))

    def clear(self, key: object | None = None) -> None:
        self._launches.clear()


class NewtonActuatorTargetCommand(ActuatorTargetCommand):
    """Core's target command whose index setters replay a recorded write launch (same kernel, same checks).

    Args:
        collection: The owning collection.
        control: The Newton control bridge (index resolution, shape checks, recorded launches).
    """

    def __init__(self, collection: ActuatorCollection, control: NewtonArticulationActuatorControl):
        super().__init__(collection)
        self._control = control
        self._write_kernels: dict[tuple, wp.Kernel] = {}
        self._staging: _StagingViews | None = None
        if wp.get_device(collection.device).is_cpu:
            self._staging = _StagingViews(collection.num_instances, collection.num_joints, collection.device)

    def set_position_index(self, *, value, joint_ids=None, env_ids=None, full_data: bool = False) -> None:
        """Set desired positions [m or rad] by index (see :meth:`ActuatorTargetCommand.set_position_index`)."""
        self._write_index("position", self.position.warp, value, env_ids, joint_ids, full_data)

    def set_velocity_index(self, *, value, joint_ids=None, env_ids=None, full_data: bool = False) -> None:
        """Set desired velocities [m/s or rad/s] by index (see :meth:`ActuatorTargetCommand.set_velocity_index`)."""
        self._write_index("velocity", self.velocity.warp, value, env_ids, joint_ids, full_data)

    def set_effort_index(self, *, value, joint_ids=None, env_ids=None, full_data: bool = False) -> None:
        """Set effort commands [N or N m] by index (see :meth:`ActuatorTargetCommand.set_effort_index`)."""
        self._write_index("effort", self.effort.warp, value, env_ids, joint_ids, full_data)

    def _write_index(self, command: str, target: wp.array, value, env_ids, joint_ids, full_data: bool) -> None:
        control, collection = self._control, self._collection
        env_ids = control.resolve_env_ids(env_ids)
        joint_ids = control.resolve_joint_ids(joint_ids)
        rows, cols = env_ids.shape[0], joint_ids.shape[0]
        shape = (collection.num_instances, collection.num_joints) if full_data else (rows, cols)
        control.assert_shape_and_dtype(value, shape, wp.float32, "target")
        selector_dtypes = (env_ids.dtype, joint_ids.dtype)
        kernel = self._write_kernels.get(selector_dtypes)
        if kernel is None:
            kernel = actuator_kernels.write_2d_float_with_indices_kernel(env_ids, joint_ids)
            self._write_kernels[selector_dtypes] = kernel
        if self._staging is not None and _stageable(value, shape):
            # packing a new torch tensor into the launch costs more on CPU than copying it into a bound buffer
            staged_t, staged = self._staging.view(shape)
            staged_t.copy_(value)
            control.launches.launch(kernel, (rows, cols), (staged, env_ids, joint_ids, full_data, target))
        else:
            control.launches.launch(kernel, (rows, cols), (value, env_ids, joint_ids, full_data, target), fresh=(0,))
        control.stage_user_command(command, collection, env_ids, joint_ids, None, None)


def _stageable(value, shape: tuple[int, int]) -> bool:
    """Whether ``value`` can be copied into a staging view of ``shape``: a host torch tensor of exactly that shape."""
    return type(value) is torch.Tensor and value.device.type == "cpu" and value.shape == shape


class _StagingViews:
    """Host staging buffer of a command's shape for the index setters on CPU, with its views cached per shape.

    The index setters copy a torch value into a view of one ``(num_envs, num_joints)`` buffer and replay the
    write launch recorded with that view, instead of binding the caller's tensor to the launch on every call.

    Args:
        num_envs: Rows of the buffer.
        num_joints: Columns of the buffer.
        device: The (CPU) device.
        capacity: Number of cached views; the oldest is dropped first.
    """

    def __init__(self, num_envs: int, num_joints: int, device: str, *, capacity: int = 16):
        self._buffer = torch.zeros((num_envs, num_joints), dtype=torch.float32, device=device)
        self._capacity = capacity
        self._views: dict[tuple[int, int], tuple[torch.Tensor, wp.array]] = {}

    def view(self, shape: tuple[int, int]) -> tuple[torch.Tensor, wp.array]:
        """The leading ``shape`` block of the buffer, as a torch tensor and a Warp array over the same memory."""
        cached = self._views.get(shape)
        if cached is None:
            block = self._buffer[: shape[0], : shape[1]]
            cached = (block, wp.from_torch(block, dtype=wp.float32))
            if len(self._views) >= self._capacity:
                self._views.pop(next(iter(self._views)))
            self._views[shape] = cached
        return cached
