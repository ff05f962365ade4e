"""MP4 and USD rollout recordings: what they refuse."""

from __future__ import annotations

import pytest


def test_mp4_recorder_without_imageio_ffmpeg_names_the_install(monkeypatch, tmp_path):
    """Without imageio-ffmpeg the MP4 recorder refuses at construction with the command that installs it."""
    import importlib.util

    from isaaclab_contrib.app.rl.recording import Mp4RolloutRecorder

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "imageio_ffmpeg" else find_spec(name, *a)
    )
    with pytest.raises(ModuleNotFoundError, match="pip install imageio-ffmpeg"):
        Mp4RolloutRecorder(None, tmp_path)
