"""Frame views of the Newton backend (core's ``FrameView`` dispatches here)."""

from .newton_site_frame_view import NewtonSiteFrameView

__all__ = ["NewtonSiteFrameView"]
