"""Reading a ``.viser`` recording back: its frames and the shape instances it draws."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import msgspec
import zstandard

SHAPES_PATH = "/model/shapes/"
"""Scene path under which Newton's viewers put the model's shape batches."""


@dataclass(frozen=True)
class ViserRecording:
    """What a ``.viser`` recording holds.

    Attributes:
        duration: Playback length [s].
        frames: Frames with a pose update of a shape (distinct message times that move a shape).
        shape_instances: Shape instances per batch name (``/model/shapes/...``), as first sent.
        messages: Messages per type name.
    """

    duration: float
    frames: int
    shape_instances: dict[str, int]
    messages: dict[str, int]


def read_viser_recording(path: str | Path) -> ViserRecording:
    """Decode the ``.viser`` file at ``path`` (viser's zstd-compressed msgpack format).

    Raises:
        FileNotFoundError: If there is no such file.
        ValueError: If the file is not a viser recording.
    """
    data = Path(path).read_bytes()
    try:
        size = int.from_bytes(data[:8], "little")
        inner = zstandard.ZstdDecompressor().decompress(data[8:], max_output_size=size)
        length = int.from_bytes(inner[:8], "little")
        payload = msgspec.msgpack.decode(inner[8 : 8 + length])
        messages = payload["messages"]
        buffer_bytes = payload["binaryBufferLengths"]
    except (zstandard.ZstdError, msgspec.DecodeError, KeyError, TypeError) as err:
        raise ValueError(f"{path} is not a viser recording: {err}") from err
    counts: dict[str, int] = {}
    instances: dict[str, int] = {}
    frame_times = set()
    for when, message in messages:
        kind = message.get("type", "")
        counts[kind] = counts.get(kind, 0) + 1
        name = message.get("name", "")
        if not name.startswith(SHAPES_PATH):
            continue
        fields = message.get("props") or message.get("updates") or {}
        positions = fields.get("batched_positions")
        if positions is None:
            continue
        frame_times.add(when)
        if kind == "BatchedMeshesMessage" and name not in instances:
            instances[name] = buffer_bytes[positions["__binary_index"]] // 12  # float32 xyz per instance
    return ViserRecording(float(payload["durationSeconds"]), len(frame_times), instances, counts)
