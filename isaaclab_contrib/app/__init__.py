"""What the scripts run on: their shared arguments, the env factory, console output and the rsl-rl runs.

The top layer of :mod:`isaaclab_contrib`: it may import every other package; none imports it.
"""
