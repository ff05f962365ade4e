"""RSL-RL PPO runners of the manipulation tasks: upstream's for reach and drawer (loaded by file), ours for lift."""

from __future__ import annotations

from isaaclab.utils import configclass
from isaaclab_rl.rsl_rl import RslRlMLPModelCfg, RslRlOnPolicyRunnerCfg, RslRlPpoAlgorithmCfg

from ....upstream.modules import import_isaaclab_tasks_submodule, load_isaaclab_tasks_module

_hydra = import_isaaclab_tasks_submodule("utils.hydra")  # upstream's package, bare: its __init__ registers ids
_reach = load_isaaclab_tasks_module(
    "core/reach/config/franka/agents/rsl_rl_ppo_cfg.py", "_isaaclab_tasks_reach_franka_rsl_rl_ppo_cfg"
)
_cabinet = load_isaaclab_tasks_module(
    "core/cabinet/config/franka/agents/rsl_rl_ppo_cfg.py", "_isaaclab_tasks_cabinet_franka_rsl_rl_ppo_cfg"
)


@configclass
class FrankaReachPPORunnerCfg(_reach.FrankaReachPPORunnerCfg):
    """Upstream's Franka reach runner with its default presets (1000 iterations, ``reach_franka``)."""

    obs_groups = {"actor": ["policy"], "critic": ["policy"]}

    def __post_init__(self):
        super().__post_init__()
        _hydra.resolve_presets(self, self._upstream_presets())

    @staticmethod
    def _upstream_presets() -> tuple[str, ...]:
        """Upstream presets this runner resolves (none: the defaults)."""
        return ()


@configclass
class FrankaReachIKPPORunnerCfg(FrankaReachPPORunnerCfg):
    """The reach runner, logging under ``reach_franka_ik``."""

    experiment_name = "reach_franka_ik"

    def __post_init__(self):
        super().__post_init__()
        self.experiment_name = "reach_franka_ik"


@configclass
class FrankaReachHoldPPORunnerCfg(FrankaReachPPORunnerCfg):
    """Upstream's Franka reach runner with its ``hold`` preset (3000 iterations, ``reach_franka_hold``)."""

    @staticmethod
    def _upstream_presets() -> tuple[str, ...]:
        return ("hold",)


@configclass
class CabinetPPORunnerCfg(_cabinet.CabinetPPORunnerCfg):
    """Upstream's Franka drawer runner, the policy group feeding actor and critic."""

    obs_groups = {"actor": ["policy"], "critic": ["policy"]}


@configclass
class FrankaLiftCubePPORunnerCfg(RslRlOnPolicyRunnerCfg):
    """PPO for the cube lift: Isaac Lab 2's Franka cube-lift runner (24 steps, 256-128-64 ELU networks)."""

    num_steps_per_env = 24
    max_iterations = 1500
    save_interval = 50
    experiment_name = "lift_cube_franka"
    obs_groups = {"actor": ["policy"], "critic": ["policy"]}
    actor = RslRlMLPModelCfg(
        hidden_dims=[256, 128, 64],
        activation="elu",
        obs_normalization=False,
        distribution_cfg=RslRlMLPModelCfg.GaussianDistributionCfg(init_std=1.0),
    )
    critic = RslRlMLPModelCfg(hidden_dims=[256, 128, 64], activation="elu", obs_normalization=False)
    algorithm = RslRlPpoAlgorithmCfg(
        value_loss_coef=1.0,
        use_clipped_value_loss=True,
        clip_param=0.2,
        entropy_coef=0.006,
        num_learning_epochs=5,
        num_mini_batches=4,
        learning_rate=1.0e-4,
        schedule="adaptive",
        gamma=0.98,
        lam=0.95,
        desired_kl=0.01,
        max_grad_norm=1.0,
    )
