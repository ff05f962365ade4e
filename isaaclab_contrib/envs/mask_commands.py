"""Mask forms of command terms: resampling on time-out and episode resets by a bool env mask, on the device.

Core's :meth:`~isaaclab.managers.CommandTerm.compute` turns the envs whose resampling time ran out into indices
with ``nonzero`` (a host sync on CUDA), and :meth:`~isaaclab.managers.CommandTerm.reset` takes the reset envs'
indices. The forms here do the same for the envs set in a mask: every env draws, the draw is kept where the mask
is set (``torch.where``), and the episode metrics are logged as 0-d device tensors updated in place (the mean over
the masked envs; on steps where none reset they keep their last values, as core's log does).

A command term class has a mask form when :func:`command_mask_form` finds one: the class's own ``mask_form``
attribute (a :class:`CommandMaskForm` subclass) or this module's form of a core term
(:class:`~isaaclab.envs.mdp.UniformVelocityCommand`, :class:`~isaaclab.envs.mdp.UniformPoseCommand`).
:class:`CommandMaskForm` serves everything core's base class
does (metrics, counters, resampling times); a form adds the term's own resampling in
:meth:`CommandMaskForm.resample_command` and its episode bookkeeping in :meth:`CommandMaskForm.finish_episode`.
"""

from __future__ import annotations

from typing import Any

import isaaclab.envs.mdp as mdp
import isaaclab.utils.math as math_utils
import torch


class CommandMaskForm:
    """The mask form of one command term: :meth:`reset` and :meth:`compute` take a bool env mask, never indices.

    Args:
        term: The command term (an instance of the class this form serves).
    """

    def __init__(self, term: Any):
        self.term = term
        self._metric_buffers = dict(term.metrics)
        """The term's metric tensors at construction, kept for the env's life (see :meth:`keep_metrics_in_place`)."""
        self._means = {name: torch.zeros((), dtype=torch.float32, device=term.device) for name in term.metrics}
        self.log: dict[str, torch.Tensor] = dict(self._means)
        """Logged metric means (0-d device tensors updated in place), by metric name."""
        self.env_log: dict[str, torch.Tensor] = {}
        """Values the term logs under names of its own (not ``Metrics/<term>/...``), 0-d and updated in place."""

    def reset(self, env_mask: torch.Tensor) -> None:
        """Log and clear the metrics of the envs set in ``env_mask``, zero their counters and resample them."""
        self.finish_episode(env_mask)
        count = env_mask.sum()
        for name, value in self.term.metrics.items():
            mean = torch.where(env_mask, value, 0.0).sum() / count.clamp_min(1)
            self._means[name].copy_(torch.where(count > 0, mean, self._means[name]))
            value.masked_fill_(env_mask, 0.0)
        self.term.command_counter.masked_fill_(env_mask, 0)
        self.resample(env_mask)

    def compute(self, dt: float) -> None:
        """One step of the term: metrics, time left counted down by ``dt`` [s], resampling where it ran out."""
        term = self.term
        term._update_metrics()
        self.keep_metrics_in_place()
        term.time_left -= dt
        self.resample(term.time_left <= 0.0)
        term._update_command()

    def keep_metrics_in_place(self) -> None:
        """Copy metrics the term assigned as new tensors into its original ones and put those back in ``metrics``.

        Core's pose commands assign fresh tensors in ``_update_metrics``. A recorded step replays the addresses it
        was recorded with: the reset that logs the metrics would read the tensor of the step before the recording
        (freed once replaced, its memory reused) while the replayed update writes a tensor nothing reads.
        """
        metrics = self.term.metrics
        for name, buffer in self._metric_buffers.items():
            if metrics[name] is not buffer:
                buffer.copy_(metrics[name])
                metrics[name] = buffer

    def resample(self, env_mask: torch.Tensor) -> None:
        """New resampling times and commands for the envs set in ``env_mask``, their counters advanced."""
        term = self.term
        lower, upper = term.cfg.resampling_time_range
        time_left = torch.rand_like(term.time_left) * (upper - lower) + lower
        term.time_left.copy_(torch.where(env_mask, time_left, term.time_left))
        self.resample_command(env_mask)
        term.command_counter += env_mask

    def resample_command(self, env_mask: torch.Tensor) -> None:
        """Draw the term's command for the envs set in ``env_mask`` (a form's own part)."""
        raise NotImplementedError(f"{type(self).__name__} must implement resample_command(env_mask).")

    def finish_episode(self, env_mask: torch.Tensor) -> None:
        """The term's episode bookkeeping before its metrics are logged (none by default)."""


class UniformVelocityCommandMask(CommandMaskForm):
    """Mask form of :class:`~isaaclab.envs.mdp.UniformVelocityCommand`: uniform SE(2) velocity commands.

    Resampling draws the linear and yaw velocities, the heading target and whether an env tracks a heading or
    stands, each uniform as in core. The episode's mean tracking errors become its metrics and its success flag is
    logged as ``Metrics/success_rate`` (both as core's reset does).
    """

    def __init__(self, term: Any):
        super().__init__(term)
        # the share of reset envs whose mean errors were under both thresholds, logged under a name shared by tasks
        self.env_log["Metrics/success_rate"] = self.log.pop("success_rate")
        ranges = term.cfg.ranges
        bounds = [ranges.lin_vel_x, ranges.lin_vel_y, ranges.ang_vel_z]
        self._bounds = torch.tensor(bounds, dtype=torch.float32, device=term.device)

    def finish_episode(self, env_mask: torch.Tensor) -> None:
        term = self.term
        steps = term._step_count.clamp_min(1.0)
        error_xy, error_yaw = term._error_xy_sum / steps, term._error_yaw_sum / steps
        success = (error_xy < term.cfg.vel_xy_success_threshold) & (error_yaw < term.cfg.vel_yaw_success_threshold)
        metrics = term.metrics
        metrics["error_vel_xy"].copy_(torch.where(env_mask, error_xy, metrics["error_vel_xy"]))
        metrics["error_vel_yaw"].copy_(torch.where(env_mask, error_yaw, metrics["error_vel_yaw"]))
        metrics["success_rate"].copy_(torch.where(env_mask, success.float(), metrics["success_rate"]))
        for total in (term._error_xy_sum, term._error_yaw_sum, term._step_count):
            total.masked_fill_(env_mask, 0.0)

    def resample_command(self, env_mask: torch.Tensor) -> None:
        term, cfg = self.term, self.term.cfg
        draw = torch.rand_like(term.vel_command_b)
        command = self._bounds[:, 0] + draw * (self._bounds[:, 1] - self._bounds[:, 0])
        term.vel_command_b.copy_(torch.where(env_mask[:, None], command, term.vel_command_b))
        flags = torch.rand((term.num_envs, 3), device=term.device)
        if cfg.heading_command:
            lower, upper = cfg.ranges.heading
            heading = lower + flags[:, 0] * (upper - lower)
            term.heading_target.copy_(torch.where(env_mask, heading, term.heading_target))
            heading_env = flags[:, 1] <= cfg.rel_heading_envs
            term.is_heading_env.copy_(torch.where(env_mask, heading_env, term.is_heading_env))
        standing = flags[:, 2] <= cfg.rel_standing_envs
        term.is_standing_env.copy_(torch.where(env_mask, standing, term.is_standing_env))


class UniformPoseCommandMask(CommandMaskForm):
    """Mask form of :class:`~isaaclab.envs.mdp.UniformPoseCommand`: uniform poses in the robot's root frame.

    Resampling draws the position uniformly in the configured box and the orientation from uniform roll, pitch
    and yaw (made unique where the cfg asks), as core does. Where the cfg sets success thresholds, the episode's
    sticky success flag is logged as ``Metrics/success_rate`` (the mean over the reset envs) and cleared.
    """

    def __init__(self, term: Any):
        super().__init__(term)
        ranges = term.cfg.ranges
        bounds = [ranges.pos_x, ranges.pos_y, ranges.pos_z, ranges.roll, ranges.pitch, ranges.yaw]
        self._bounds = torch.tensor(bounds, dtype=torch.float32, device=term.device)
        if term._track_success:
            self._success_rate = torch.zeros((), dtype=torch.float32, device=term.device)
            self.env_log["Metrics/success_rate"] = self._success_rate

    def finish_episode(self, env_mask: torch.Tensor) -> None:
        term = self.term
        if term._track_success:
            count = env_mask.sum()
            rate = (term._succeeded & env_mask).sum() / count.clamp_min(1)
            self._success_rate.copy_(torch.where(count > 0, rate, self._success_rate))
            term._succeeded.masked_fill_(env_mask, False)

    def resample_command(self, env_mask: torch.Tensor) -> None:
        term = self.term
        draw = self._bounds[:, 0] + torch.rand((term.num_envs, 6), device=term.device) * (
            self._bounds[:, 1] - self._bounds[:, 0]
        )
        quat = math_utils.quat_from_euler_xyz(draw[:, 3], draw[:, 4], draw[:, 5])
        if term.cfg.make_quat_unique:
            quat = math_utils.quat_unique(quat)
        pose = torch.cat([draw[:, :3], quat], dim=-1)
        term.pose_command_b.copy_(torch.where(env_mask[:, None], pose, term.pose_command_b))


_FORMS: dict[type, type[CommandMaskForm]] = {
    mdp.UniformVelocityCommand: UniformVelocityCommandMask,
    mdp.UniformPoseCommand: UniformPoseCommandMask,
}
"""Core's command term classes with a mask form here."""


def command_mask_form(term: Any) -> type[CommandMaskForm] | None:
    """The mask form class of the command term ``term``, or ``None`` where there is none.

    A term class of your own declares its form as its ``mask_form`` attribute (a :class:`CommandMaskForm` subclass);
    a subclass of a core term is served by the core term's form only if it declares it.
    """
    return getattr(type(term), "mask_form", None) or _FORMS.get(type(term))


class MaskedCommands:
    """The command manager's reset and compute by mask, with one :class:`CommandMaskForm` per term.

    Args:
        commands: The env's command manager (every term with a mask form, see :func:`command_mask_form`).
    """

    def __init__(self, commands: Any):
        self._forms = {name: command_mask_form(term)(term) for name, term in commands._terms.items()}
        self.log: dict[str, torch.Tensor] = {
            f"Metrics/{name}/{metric}": value
            for name, form in self._forms.items()
            for metric, value in form.log.items()
        }
        """The logged metric means (``Metrics/<term>/<metric>``, 0-d device tensors updated in place)."""
        for form in self._forms.values():
            self.log |= form.env_log

    def reset(self, env_mask: torch.Tensor) -> None:
        """Reset every term for the envs set in ``env_mask``."""
        for form in self._forms.values():
            form.reset(env_mask)

    def compute(self, dt: float) -> None:
        """One step of every term (``dt``: the env step [s])."""
        for form in self._forms.values():
            form.compute(dt)


def command_terms_mask_reason(commands: Any) -> str | None:
    """The first command term of ``commands`` (a command manager) without a mask form, as a sentence, or ``None``."""
    for name, term in commands._terms.items():
        if command_mask_form(term) is None:
            return f"command term '{name}' ({type(term).__name__}) has no mask form (see mask_commands)"
    return None
