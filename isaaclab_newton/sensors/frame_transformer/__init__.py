"""Frame transformer: poses of target body frames relative to a source body frame."""

from .frame_transformer import FrameTransformer
from .frame_transformer_data import FrameTransformerData

__all__ = ["FrameTransformer", "FrameTransformerData"]
