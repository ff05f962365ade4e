"""Environment machinery every task of this package uses.

Recorded env steps (:mod:`.graph_step`), resets by mask (:mod:`.mask_reset`, :mod:`.mask_events`), the non-finite
guard (:mod:`.nonfinite`), episode logs (:mod:`.episode_log`), the manager-based env on Newton
(:mod:`.manager_based_env`), Warp task-term launches (:mod:`.task_terms`), reset-state sampling
(:mod:`.reset_state`) and env-count checks (:mod:`.cfg_checks`). Tasks live in :mod:`isaaclab_contrib.tasks`.
"""
