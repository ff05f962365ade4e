"""Running Isaac Lab's own tasks (``isaaclab_tasks``) on Newton: their ids, configs, assets and env classes.

:mod:`.modules` loads ``isaaclab_tasks`` files without its package ``__init__`` (our tasks reuse upstream's env
classes through it, so it imports nothing of ours); the rest sits above :mod:`isaaclab_contrib.tasks`:
:mod:`.registry` registers and loads upstream's cfgs, :mod:`.offline_assets` checks their USD files,
:mod:`.velocity_swap` puts our offline robots into upstream's velocity cfgs and :mod:`.graph_stepped` replaces
upstream env classes by graph-stepped forms.
"""
