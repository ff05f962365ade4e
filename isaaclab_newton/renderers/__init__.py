"""Renderer configurations of the Newton backend for Isaac Lab camera sensors."""

from .newton_warp_renderer_cfg import NewtonWarpRendererCfg

__all__ = ["NewtonWarpRendererCfg"]
