"""Manager-based RL envs on Newton: sync-free mask resets and, on CUDA, whole steps replayed from one CUDA graph.

Core's :meth:`~isaaclab.envs.ManagerBasedRLEnv.step` turns the done flags into env indices with ``nonzero`` (a host
sync on CUDA) and resets those envs through the managers. :class:`ManagerMaskResetMixin` runs the same step with
the done flags kept as a bool mask: the curriculum moves the masked envs in its mask form (:mod:`.mask_curriculum`),
the scene's assets and sensors reset by mask, each reset event runs in its mask form (:mod:`.mask_events`), the
action and observation managers reset by mask (core's own terms accept one), the command terms reset and resample
in their mask forms (:mod:`.mask_commands`), interval events run by device timers (:mod:`.mask_intervals`), and the
reward and termination managers' episode logs are computed on the device for the masked envs (:mod:`.episode_log`).
Nothing is read on the host, so :class:`ManagerBasedRLEnvOnNewton` can record the whole step with
:class:`.graph_step.GraphStepMixin`.

Where a configuration holds something the mask path cannot serve, the env runs core's step unchanged and
:meth:`ManagerMaskResetMixin.mask_reset_unavailable_reason` says why: recorder terms, curriculum, command, reset or
interval event terms without a mask form, global-time interval events, reset events with
``min_step_count_between_reset``, class-based observation terms, class-based reward, termination or event terms
with their own reset, class-based curriculum terms without a mask form, observation delays, histories or modifiers,
action terms with their own reset, final observations, RTX rerenders on reset; and CPU simulations unless
:attr:`~.mask_reset.MaskResetMixin.mask_reset_on_cpu` is set (see :mod:`.mask_reset`). The manager terms are
inspected once, on the first step; terms changed after that are not looked at again.

Logged episode values (``extras["log"]``: ``Episode_Reward/<term>``, ``Episode_Termination/<term>``) are 0-d
device tensors updated in place; on steps where no env resets they keep their last values, as in core.
"""

from __future__ import annotations

import torch
from isaaclab.envs import ManagerBasedRLEnv
from isaaclab.envs.mdp.actions.binary_joint_actions import BinaryJointAction
from isaaclab.envs.mdp.actions.joint_actions import JointAction
from isaaclab.managers import ActionTerm, ManagerTermBase

from isaaclab_newton.envs.mdp.actions import NewtonInverseKinematicsAction

from .episode_log import MaskedEpisodeLog
from .graph_step import GraphStepMixin
from .mask_commands import MaskedCommands, command_terms_mask_reason
from .mask_curriculum import MaskedCurriculum, apply_host_scheduled_curriculum, curriculum_terms_mask_reason
from .mask_events import mask_event_form, run_reset_events_mask
from .mask_intervals import apply_interval_events_mask, event_terms_mask_reason, reset_event_manager_mask
from .mask_reset import MaskResetMixin
from .nonfinite import NonfiniteGuardMixin

_MASK_SAFE_ACTION_RESETS = (
    ActionTerm.reset,
    JointAction.reset,
    BinaryJointAction.reset,
    NewtonInverseKinematicsAction.reset,
)
"""Action term resets known to take a bool env mask (core's base term, joint and binary joint actions and the
Newton IK action fill by mask: ``index_fill_`` takes a bool mask); a term class of your own whose reset takes one
says so with a true ``reset_takes_mask`` attribute."""


class ManagerMaskResetMixin(MaskResetMixin):
    """Runs :meth:`~isaaclab.envs.ManagerBasedRLEnv.step` with a mask reset; core's step where that cannot serve.

    Put it before :class:`~isaaclab.envs.ManagerBasedRLEnv` in the bases.
    """

    interval_events_by_mask = True

    def __init__(self, cfg, render_mode: str | None = None, **kwargs):
        super().__init__(cfg, render_mode, **kwargs)
        self._manager_mask_reason: tuple[str | None] | None = None
        self._episode_log: MaskedEpisodeLog | None = None
        self._masked_commands: MaskedCommands | None = None
        self._masked_curriculum: MaskedCurriculum | None = None

    def mask_reset_unavailable_reason(self) -> str | None:
        """Why steps reset through core's index path instead of by mask, or ``None`` when they reset by mask."""
        reason = super().mask_reset_unavailable_reason()
        if reason is not None:
            return reason
        if self._manager_mask_reason is None:
            self._manager_mask_reason = (self._manager_terms_reason(),)
        return self._manager_mask_reason[0]

    def _manager_terms_reason(self) -> str | None:
        """The first manager term the mask path cannot serve, as a sentence, or ``None``."""
        if self.recorder_manager.active_terms:
            return "recorder_manager has terms (their hooks take env indices)"
        reason = curriculum_terms_mask_reason(self.curriculum_manager) or command_terms_mask_reason(
            self.command_manager
        )
        if reason is not None:
            return reason
        events = self.event_manager
        reason = event_terms_mask_reason(events)
        if reason is not None:
            return reason
        for term_name, term_cfg in zip(
            events.active_terms.get("reset", []), events._mode_term_cfgs.get("reset", []), strict=True
        ):
            if term_cfg.min_step_count_between_reset:
                return f"reset event '{term_name}' sets min_step_count_between_reset"
            if mask_event_form(term_cfg.func) is None:
                func = term_cfg.func
                name = getattr(func, "__name__", type(func).__name__)
                return (
                    f"reset event '{term_name}' ({name}) has no mask form (set {name}.mask_form, see"
                    " mask_events.mask_event_form)"
                )
        for term_cfg in self.reward_manager._class_term_cfgs + self.termination_manager._class_term_cfgs:
            cls = type(term_cfg.func)
            if cls.reset is not ManagerTermBase.reset:  # core's no-op reset needs no env indices
                return f"reward or termination term {cls.__name__} is a class with its own reset (it takes env indices)"
        obs = self.observation_manager
        for group in obs._group_obs_term_names:
            if (
                obs._group_obs_class_term_cfgs.get(group)
                or obs._group_obs_term_delay_buffer.get(group)
                or obs._group_obs_term_history_buffer.get(group)
            ):
                return f"observation group '{group}' has class terms, delays or histories"
        if obs._group_obs_class_instances:
            return "an observation modifier is a class (its reset takes env indices)"
        for term_name, term in self.action_manager._terms.items():
            if type(term).reset not in _MASK_SAFE_ACTION_RESETS and not getattr(term, "reset_takes_mask", False):
                return f"action term '{term_name}' ({type(term).__name__}) has its own reset"
        return None

    def step(self, action: torch.Tensor):
        """Core's step with the done envs reset by mask (core's own step where the mask path cannot serve)."""
        if not self._mask_reset_supported():
            return super().step(action)
        self.action_manager.process_action(action.to(self.device))
        is_rendering = self.sim.is_rendering
        steps_per_call = self.cfg.decimation if self._physics_handles_decimation else 1
        for _ in range(self.cfg.decimation // steps_per_call):
            self._sim_step_counter += steps_per_call
            self.action_manager.apply_action()
            self.scene.write_data_to_sim()
            self.sim.step(render=False)
            if self._sim_step_counter % self.cfg.sim.render_interval == 0 and is_rendering:
                self.sim.render(skip_app_pumping=not self.render_enabled)
            self.scene.update(dt=self.physics_dt * steps_per_call)
        self.episode_length_buf += 1
        self.common_step_counter += 1
        self.reset_buf = self.termination_manager.compute()
        self.reset_terminated = self.termination_manager.terminated
        self.reset_time_outs = self.termination_manager.time_outs
        self.reward_buf = self.reward_manager.compute(dt=self.step_dt)
        self._reset_mask.copy_(self.reset_buf)
        self._reset_masked(self._reset_mask)
        if self.sim.consume_reset_request():
            # every env not reset above is reset now and reported terminated, as core does
            manual = ~self._reset_mask
            self.reset_terminated |= manual
            self._reset_masked(manual)
        self._commands_mask().compute(dt=self.step_dt)
        if "interval" in self.event_manager.active_terms:
            apply_interval_events_mask(self, dt=self.step_dt)
        for recorder in self.video_recorders:
            recorder.step()
        self.obs_buf = self.observation_manager.compute(update_history=True)
        return self.obs_buf, self.reward_buf, self.reset_terminated, self.reset_time_outs, self.extras

    def _reset_masked_sim(self, mask: torch.Tensor) -> None:
        """The curriculum on the masked envs' last state (before their assets reset, as in core), then the reset."""
        if self._masked_curriculum is None:
            self._masked_curriculum = MaskedCurriculum(self.curriculum_manager)
        self._masked_curriculum.compute(self, mask)
        super()._reset_masked_sim(mask)

    def _write_masked_sim_state(self, mask: torch.Tensor) -> None:
        """The reset events in their mask forms, in the order core applies them (joint resets grouped)."""
        run_reset_events_mask(self, mask, self.event_manager._mode_term_cfgs.get("reset", []))

    def _commands_mask(self) -> MaskedCommands:
        """The command manager's mask form (made on first use)."""
        if self._masked_commands is None:
            self._masked_commands = MaskedCommands(self.command_manager)
        return self._masked_commands

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """Observation, action, reward, command, event and termination managers reset by mask (in core's order);
        episode sums and command metrics logged and cleared for the masked envs."""
        self.observation_manager.reset(mask)
        self.action_manager.reset(mask)
        commands = self._commands_mask()
        commands.reset(mask)
        reset_event_manager_mask(self, mask)
        rewards, terminations = self.reward_manager, self.termination_manager
        log = self._episode_log
        if log is None:
            log = self._episode_log = MaskedEpisodeLog(rewards._term_names, terminations._term_names, self.device)
        log.update(mask, rewards._episode_sum_buf, terminations._last_episode_dones, self.max_episode_length_s)
        views = log.views | commands.log | self._masked_curriculum.log
        extras_log = self.extras.setdefault("log", {})
        first = next(iter(views), None)
        if first is not None and extras_log.get(first) is not views[first]:
            extras_log.update(views)  # core's index reset (``env.reset()``) put a new log dict in place


class ManagerBasedRLEnvOnNewton(NonfiniteGuardMixin, GraphStepMixin, ManagerMaskResetMixin, ManagerBasedRLEnv):
    """Core's :class:`~isaaclab.envs.ManagerBasedRLEnv` on Newton: non-finite actions zeroed, resets by mask, and
    on CUDA whole steps replayed from one CUDA graph (see :mod:`.graph_step`)."""

    def step(self, action: torch.Tensor):
        """The step, after core's step-scheduled reward weights (``modify_reward_weight``) are applied on the host
        (a changed weight records the step again; see :func:`.mask_curriculum.apply_host_scheduled_curriculum`)."""
        if apply_host_scheduled_curriculum(self):
            self.discard_step_graph()
        return super().step(action)
