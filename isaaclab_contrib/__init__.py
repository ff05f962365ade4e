"""Contributions built on the Newton backend: solver coupling, custom coupled managers, tasks.

Importing the package points Isaac Lab's asset root at Newton's offline assets where the user chose none
(:func:`~isaaclab_contrib.upstream.offline_cache.point_asset_root_at_cache`): Isaac Lab reads it once, at its own
import, which the scripts' first ``isaaclab_contrib`` import precedes.
"""

from .upstream.offline_cache import point_asset_root_at_cache

point_asset_root_at_cache()
