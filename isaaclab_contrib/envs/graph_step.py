"""Whole env steps replayed from one CUDA graph: actions, decimation, rewards, dones, mask reset and observations.

On CUDA the per-step cost of a direct task is mostly host time: Python issuing a few hundred small kernels per
``env.step()``. :class:`GraphStepMixin` records one whole ``env.step()`` (everything core's
:meth:`~isaaclab.envs.DirectRLEnv.step` does, with the sync-free mask reset of :class:`.mask_reset.MaskResetMixin`)
into a :class:`~isaaclab_newton.physics.graph.TorchWarpGraph` and replays it for every later step: the action is
copied into a persistent input buffer, the graph runs, and the host bookkeeping of the step (step counters,
simulation time) is advanced in Python.

How a step is run:

- the first step in a new graph state runs eagerly (every kernel loaded, lazy buffers created), the next one is
  recorded and replayed; before every replay, what was written since the last step (asset writes, an index reset)
  has its queued forward kinematics and world resets applied, as an eager step would do first; the graph state
  is what the recorded step branches on in Python (which wrench composers are active), and a change records the
  step again;
- state a step carries to the next one by rebinding an attribute (``self.potentials = ...`` in Isaac Lab's
  locomotion task, a tensor in ``extras``) is carried by the graph itself: at the end of the recorded step, the
  new tensor is copied into the one the step read at its start, which the mixin keeps alive with the graph (not
  when that one is a view of the simulation state, such as asset data: it is current by itself);
- what a step returns has core's semantics: the observations and the reward are new tensors on every step (copies
  of the graph's buffers, or groups made after the replay, :meth:`GraphStepMixin._observations_made_after_step`:
  learners such as rsl-rl keep the observation of one step while they take the next), the
  termination and time-out tensors are the env's persistent buffers, rewritten by every step as in core;
  ``extras["log"]`` is a new dict of copies on every step (the mask reset updates its logged values in place; an
  index reset between steps, which puts core's own log dict in ``extras``, does not stop the replays' logging);
- Python values the step reads (configuration fields such as reward scales or reset ranges) are those of the
  recording, and the carried copies above are the graph's own: after changing such a value, or editing carried task
  state outside ``env.step()``, call :meth:`GraphStepMixin.discard_step_graph` (``env.reset()`` does).

Steps run eagerly (core's path, nothing recorded) on CPU, without ``NewtonCfg.use_cuda_graph``, where the mask
reset does not apply, while rendering or recording video, with interval events the env does not run by mask
(:attr:`~.mask_reset.MaskResetMixin.interval_events_by_mask`: core's timers branch on the host), with
``NewtonCfg.debug_mode``, with actuator groups whose compute binds new state tensors every step (core's MLP
actuator network), and when :attr:`GraphStepMixin.capture_env_step` is ``False``. A reset requested from a UI
control runs that step eagerly and records the graph again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import torch

from isaaclab_newton.physics import NewtonManager
from isaaclab_newton.physics.graph import ReplayedClocks, TorchWarpGraph

from .mask_reset import MaskResetMixin

_CARRY_DEPTH = 3
"""How deep carried tensors are looked for in dict attributes (``extras["log"][name]`` is depth 3)."""

_RETURNED = frozenset({"obs_buf", "reward_buf"})
"""Attributes core's step rebinds without reading them and returns: never carried, the caller may still hold them."""


class GraphStepMixin(MaskResetMixin):
    """A :class:`.mask_reset.MaskResetMixin` whose whole ``env.step()`` replays from one CUDA graph on CUDA.

    Put it first in the bases (``class Env(GraphStepMixin, UpstreamEnv)``) and implement the mask reset hooks
    :meth:`_write_masked_sim_state` and :meth:`_reset_masked_task`; both then run inside the recorded step, so
    :meth:`_reset_masked_task` must not synchronize with the host either.
    """

    capture_env_step: bool = True
    """On CUDA (with ``NewtonCfg.use_cuda_graph``), replay whole env steps from a CUDA graph."""

    def __init__(self, cfg, render_mode: str | None = None, **kwargs):
        super().__init__(cfg, render_mode, **kwargs)
        self._step_action: torch.Tensor | None = None
        self._step_graph: TorchWarpGraph | None = None
        self._step_graph_key: tuple[bool, ...] | None = None
        self._step_warm_key: tuple[bool, ...] | None = None
        self._step_outputs: tuple | None = None
        self._step_log: dict | None = None
        self._step_carried: tuple[torch.Tensor, ...] = ()
        self._step_clocks: ReplayedClocks | None = None
        self._step_recordings = 0
        self._rebinding_actuators = _actuators_rebinding_state(self.scene)

    def step_graph_unavailable_reason(self) -> str | None:
        """Why ``env.step()`` runs eagerly instead of replaying a graph, or ``None`` when it replays one."""
        if not self.capture_env_step:
            return f"{type(self).__name__}.capture_env_step is False"
        if not super()._graph_reset_enabled():
            return "not on CUDA with NewtonCfg.use_cuda_graph (or capture_mask_reset is False)"
        reason = self.mask_reset_unavailable_reason()
        if reason is not None:
            return f"no mask reset: {reason}"
        if self.sim.is_rendering or self.video_recorders:
            return "rendering or recording video"
        if not self.interval_events_by_mask and self.cfg.events and "interval" in self.event_manager.available_modes:
            return "interval events are configured (their timers branch on the host)"
        if getattr(self.cfg.sim.physics, "debug_mode", False):
            return "NewtonCfg.debug_mode reads solver state on the host after each physics step"
        return self._rebinding_actuators

    @property
    def step_graph_recorded(self) -> bool:
        """Whether a recorded env step is held: the next step with the same reset pattern replays it."""
        return self._step_graph is not None

    @property
    def step_graph_recordings(self) -> int:
        """How many times the env step has been recorded in this env's life (each recording replaces the last)."""
        return self._step_recordings

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Core's reset (every env, by index), then the step is recorded again.

        The reset edits task state that the recorded step carries in its own copies (``potentials`` of Isaac Lab's
        locomotion task), so the next step runs eagerly and the one after is recorded from the reset state.
        """
        result = super().reset(seed=seed, options=options)
        self.discard_step_graph()
        return result

    def discard_step_graph(self) -> None:
        """Drop the recorded step: the next step runs eagerly and the one after is recorded again.

        Call it after changing a Python value the step reads (a configuration field, a task attribute that is not a
        tensor), which the recorded graph would otherwise keep.
        """
        self._step_graph = None
        self._step_warm_key = None

    def _graph_reset_enabled(self) -> bool:
        """The reset's own graph is used only where whole steps are not replayed (they contain the reset)."""
        return self.step_graph_unavailable_reason() is not None and super()._graph_reset_enabled()

    def step(self, action: torch.Tensor):
        """Run one env step: replayed from the recorded graph where possible (see the module notes), else eagerly."""
        if self.step_graph_unavailable_reason() is not None:
            returned = super().step(action)
            return _with_log_copy(returned) if self._mask_reset_supported() else returned
        action = self._copy_step_action(action)
        if self.sim.consume_reset_request():
            # core resets every env on such a request, with Python branching the recorded step does not have
            self.sim.request_reset()
            self.discard_step_graph()
            return _with_log_copy(super().step(action))
        # state written since the last step (an index reset, a teleport) has its FK and world resets queued: they run
        # here, outside the graph, so that a recording starts from none and a replay's first collide sees new poses
        NewtonManager.update_kinematics()
        key = self._reset_graph_state()
        if self._step_graph is None or key != self._step_graph_key:
            if key != self._step_warm_key:
                self._step_warm_key = key
                return _with_log_copy(super().step(action))
            self._record_step(key)
        log = self._step_log
        if log is not None and self.extras.get("log") is not log:
            # an index reset since the recording (core's ``_reset_idx``) put its own dict in place: the recorded one
            # holds the logged tensors that the replays update
            self.extras["log"] = log
        self._step_graph.replay()
        self._note_replayed_step()
        obs, reward, terminated, time_out, extras = self._step_outputs
        makers = self._observations_made_after_step()
        if makers:
            copied, self.reward_buf, log = _fresh_outputs(_without(obs, makers), reward, log)
            self.obs_buf = {group: makers[group]() if group in makers else copied[group] for group in obs}
        else:
            self.obs_buf, self.reward_buf, log = _fresh_outputs(obs, reward, log)
        if log is not None:
            extras = {**extras, "log": log}
        return self.obs_buf, self.reward_buf, terminated, time_out, extras

    def _observations_made_after_step(self) -> dict[str, Callable[[], torch.Tensor]]:
        """Observation groups a replayed step makes after the replay instead of copying them out of the graph.

        Group name -> a function that returns the group's new tensor from what the replayed step left (none by
        default). A task whose observation is cheaper to make than to copy (a camera frame stack: the float stack
        is several times the size of the frames it is made from) names it here; while the step is recorded its
        ``_get_observations`` then returns a stand-in for that group, which replays never return.
        """
        return {}

    def _copy_step_action(self, action: torch.Tensor) -> torch.Tensor:
        """Copy ``action`` into the graph's persistent input buffer (made on the first step) and return that buffer.

        An action already written into the buffer (:meth:`_step_input_buffer`) is not copied again.
        """
        buffer = self._step_input_buffer(action)
        if action is not buffer:
            buffer.copy_(action)
        return buffer

    def _step_input_buffer(self, action: torch.Tensor) -> torch.Tensor:
        """The persistent buffer the recorded step reads its action from (made on the first call, shaped as ``action``).

        A wrapper that processes the action (:class:`.nonfinite.NonfiniteGuardMixin`) may write its result straight
        into it.

        Raises:
            ValueError: If ``action`` has another shape than the first step's.
        """
        if self._step_action is None:
            self._step_action = torch.zeros(action.shape, dtype=action.dtype, device=self.device)
        if action.shape != self._step_action.shape:
            raise ValueError(
                f"{type(self).__name__}.step() got actions of shape {tuple(action.shape)}; the steps so far took"
                f" {tuple(self._step_action.shape)} (num_envs, action_dim), which the recorded step reads."
            )
        return self._step_action

    def _record_step(self, key: tuple[bool, ...]) -> None:
        """Record one env step (not run: the caller replays it), with the host counters left as they were.

        The caller has applied the work queued before it (``NewtonManager.update_kinematics()``), so none is recorded.
        """
        self._step_graph = None
        counters = (self._sim_step_counter, self.common_step_counter, self.sim._physics_step_count)
        outputs: list[tuple] = []
        carried: list[torch.Tensor] = []

        def one_step() -> None:
            before = dict(_tensors(vars(self)))
            outputs.append(super(GraphStepMixin, self).step(self._step_action))
            state = _state_memory()
            for path, new in _tensors(vars(self)):
                old = before.get(path)
                if old is None or old is new or not _same_layout(old, new):
                    continue
                if _within(old, state):
                    continue  # a view of the simulation state (asset data) is current by itself: never written to
                old.copy_(new)  # the next replay reads ``old``: it must hold what this step left
                carried.append(old)

        try:
            with NewtonManager.recording_env_step() as clocks:
                self._step_graph = TorchWarpGraph(one_step, self.device)
        except RuntimeError as err:
            raise RuntimeError(
                f"The env step of {type(self).__name__} could not be recorded in a CUDA graph ({err}). Set"
                f" {type(self).__name__}.capture_env_step = False to step eagerly."
            ) from err
        finally:
            self._sim_step_counter, self.common_step_counter, self.sim._physics_step_count = counters
        self._step_graph_key = key
        self._step_recordings += 1
        self._step_outputs = outputs[0]
        self._step_log = outputs[0][4].get("log")
        self._step_clocks = clocks
        # the graph reads and writes these outside its memory pool: they must live as long as it does
        self._step_carried = tuple(carried)

    def _note_replayed_step(self) -> None:
        """The host bookkeeping of one replayed env step: step counters and simulation time."""
        decimation = self.cfg.decimation
        self._sim_step_counter += decimation
        self.common_step_counter += 1
        self.sim._physics_step_count += decimation
        NewtonManager.note_replayed_steps(decimation)
        self._step_clocks.advance(NewtonManager.get_simulation_time())


def _actuators_rebinding_state(scene) -> str | None:
    """A sentence naming the first articulation with actuator groups that rebind their state each step, or ``None``."""
    for name, articulation in scene.articulations.items():
        groups = articulation.actuator_groups_rebinding_state()
        if groups:
            return f"articulation '{name}' has actuator groups {groups} that bind new state tensors every step"
    return None


def _tensors(attrs: dict[str, Any], prefix: tuple = (), depth: int = 1) -> Iterator[tuple[tuple, torch.Tensor]]:
    """Tensors held by ``attrs`` and by dicts in it (to ``_CARRY_DEPTH`` levels), keyed by their path.

    The env's returned buffers (:data:`_RETURNED`) are left out.
    """
    for name, value in attrs.items():
        if depth == 1 and name in _RETURNED:
            continue
        if isinstance(value, torch.Tensor):
            yield (*prefix, name), value
        elif isinstance(value, dict) and depth < _CARRY_DEPTH:
            yield from _tensors(value, (*prefix, name), depth + 1)


def _fresh_outputs(obs: Any, reward: torch.Tensor, log: dict | None) -> tuple[Any, torch.Tensor, dict | None]:
    """New copies of a replayed step's observation (a tensor or nested dict of them), reward and logged tensors.

    All of them are copied by one ``torch._foreach_copy_`` (one multi-tensor kernel on CUDA) into new tensors.
    Entries of ``log`` that are not tensors are kept as they are; ``log`` is ``None`` when the step logs nothing.
    Nothing here forms a reference cycle: the copies are freed as soon as the caller drops them, not at Python's
    next cyclic garbage collection (copies of a large observation waiting for it add up to new allocator segments).
    """
    sources: list[torch.Tensor] = []
    obs_slots = _slots(obs, sources)
    reward_slot = _slots(reward, sources)
    log_slots = {name: _slots(item, sources) for name, item in (log or {}).items() if isinstance(item, torch.Tensor)}
    copies = [torch.empty_like(source) for source in sources]
    torch._foreach_copy_(copies, sources)
    fresh_log = None
    if log:
        fresh_log = {name: copies[log_slots[name]] if name in log_slots else value for name, value in log.items()}
    return _filled(obs_slots, copies), copies[reward_slot], fresh_log


def _without(obs: Any, groups: dict[str, Any]) -> dict[str, Any]:
    """``obs`` (a dict of observation groups) without ``groups``.

    Raises:
        TypeError: If ``obs`` is not a dict (only groups of a dict can be made after the step).
    """
    if not isinstance(obs, dict):
        raise TypeError(
            f"_observations_made_after_step() names groups {sorted(groups)}, but the step returns"
            f" {type(obs).__name__} observations, not a dict of groups."
        )
    return {group: value for group, value in obs.items() if group not in groups}


def _slots(value: Any, sources: list[torch.Tensor]) -> Any:
    """``value`` (a tensor or nested dict of them) with each tensor put in ``sources`` and replaced by its index."""
    if isinstance(value, dict):
        return {key: _slots(item, sources) for key, item in value.items()}
    sources.append(value)
    return len(sources) - 1


def _filled(slots: Any, copies: list[torch.Tensor]) -> Any:
    """The structure of ``slots`` (from :func:`_slots`) with each index replaced by its tensor in ``copies``."""
    if isinstance(slots, dict):
        return {key: _filled(item, copies) for key, item in slots.items()}
    return copies[slots]


def _with_log_copy(returned: tuple) -> tuple:
    """``returned`` with ``extras["log"]`` replaced by a copy of its values (one stacked copy for 0-d tensors).

    The mask reset keeps the logged episode values in persistent tensors it updates in place (and a replayed step
    rewrites every tensor of ``extras``), while learners keep each step's log: rsl-rl averages the dicts of all the
    steps of an iteration at its end. Core's own reset puts new tensors in a new dict; so does this.
    """
    obs, reward, terminated, time_out, extras = returned
    log = extras.get("log")
    if not log:
        return returned
    scalars = [name for name, value in log.items() if isinstance(value, torch.Tensor) and value.dim() == 0]
    if len({(log[name].dtype, log[name].device) for name in scalars}) != 1:
        scalars = []  # mixed kinds: each tensor is copied on its own
    copied = dict(zip(scalars, torch.stack([log[name] for name in scalars]).unbind(), strict=True)) if scalars else {}
    for name, value in log.items():
        if name not in copied:
            copied[name] = value.clone() if isinstance(value, torch.Tensor) else value
    copied = {name: copied[name] for name in log}  # the log's key order
    return obs, reward, terminated, time_out, {**extras, "log": copied}


def _state_memory() -> list[tuple[int, int]]:
    """Byte ranges ``[start, end)`` of the manager's current state arrays (what asset data views alias)."""
    state = NewtonManager.get_state_0()
    arrays = [getattr(state, name, None) for name in ("joint_q", "joint_qd", "body_q", "body_qd")] if state else []
    return [(a.ptr, a.ptr + a.capacity) for a in arrays if a is not None and a.ptr is not None]


def _within(tensor: torch.Tensor, ranges: list[tuple[int, int]]) -> bool:
    """Whether ``tensor``'s first element lies in one of the byte ``ranges``."""
    start = tensor.data_ptr()
    return any(low <= start < high for low, high in ranges)


def _same_layout(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and a.device == b.device
