"""PPO settings (rsl-rl) that balance the cartpole, from 64 CPU envs to thousands of GPU envs."""

from __future__ import annotations

from isaaclab.utils import configclass
from isaaclab_rl.rsl_rl import RslRlMLPModelCfg, RslRlOnPolicyRunnerCfg, RslRlPpoAlgorithmCfg


@configclass
class CartpolePPORunnerCfg(RslRlOnPolicyRunnerCfg):
    """Small MLPs; 32 steps per env and iteration so 64 envs collect enough samples per update."""

    num_steps_per_env = 32
    max_iterations = 150
    save_interval = 50
    experiment_name = "cartpole"
    obs_groups = {"actor": ["policy"], "critic": ["policy"]}
    actor = RslRlMLPModelCfg(
        hidden_dims=[32, 32],
        activation="elu",
        distribution_cfg=RslRlMLPModelCfg.GaussianDistributionCfg(init_std=1.0),
    )
    critic = RslRlMLPModelCfg(hidden_dims=[32, 32], activation="elu")
    algorithm = RslRlPpoAlgorithmCfg(
        value_loss_coef=1.0,
        use_clipped_value_loss=True,
        clip_param=0.2,
        entropy_coef=0.005,
        num_learning_epochs=5,
        num_mini_batches=4,
        learning_rate=1.0e-3,
        schedule="adaptive",
        gamma=0.99,
        lam=0.95,
        desired_kl=0.01,
        max_grad_norm=1.0,
    )


@configclass
class CartpoleDirectPPORunnerCfg(CartpolePPORunnerCfg):
    """The direct-workflow cartpole logs under its own experiment name."""

    experiment_name = "cartpole_direct"
