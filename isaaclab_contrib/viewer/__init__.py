"""Live viewers: Newton's viser, GL, rerun and USD viewers drawing chosen envs between env steps."""

from ..viewer_backends import VIEWER_BACKENDS
from .live_viewer import LiveViewer
from .live_viewer_cfg import LiveViewerCfg
from .viser_recording import ViserRecording, read_viser_recording

__all__ = ["VIEWER_BACKENDS", "LiveViewer", "LiveViewerCfg", "ViserRecording", "read_viser_recording"]
