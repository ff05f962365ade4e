"""Where train and play run: the device parse_args resolves, one GPU per rank under --distributed."""

from __future__ import annotations

import pytest

from isaaclab_contrib.app.rl import cli


def _parse_distributed(monkeypatch, *argv: str, local_rank: int = 1, gpus: int = 2):
    """train.py's arguments with --distributed as torchrun launches rank ``local_rank`` on a host of ``gpus`` GPUs."""
    monkeypatch.setenv("LOCAL_RANK", str(local_rank))
    monkeypatch.setenv("RANK", str(local_rank))
    monkeypatch.setenv("WORLD_SIZE", str(gpus))
    monkeypatch.setattr(cli, "cuda_device_count", lambda: gpus)
    return cli.parse_train_args(["--task", "Isaac-Cartpole-Direct-v0", "--distributed", *argv])


def test_each_rank_runs_on_its_own_gpu(monkeypatch):
    """Under torchrun, rank 1 of 2 runs on cuda:1 and is told it writes no logs."""
    args, placement = _parse_distributed(monkeypatch)
    assert args.device == placement.device == "cuda:1"
    assert (placement.rank, placement.world_size, placement.writes_logs) == (1, 2, False)


def test_distributed_refuses_another_device(monkeypatch):
    """--distributed with a --device other than the rank's GPU names the flag to drop."""
    monkeypatch.setattr("isaaclab_contrib.app.devices.cuda_device_count", lambda: 2)  # --device cuda:0 parses here
    with pytest.raises(SystemExit, match=r"puts rank 1 on cuda:1; drop --device cuda:0"):
        _parse_distributed(monkeypatch, "--device", "cuda:0")


def test_distributed_without_cuda_is_refused(monkeypatch):
    """--distributed on a machine without CUDA says it needs GPUs."""
    with pytest.raises(SystemExit, match="no CUDA here"):
        _parse_distributed(monkeypatch, gpus=0)


def test_single_process_runs_on_the_device_given(monkeypatch):
    """Without --distributed the run is rank 0 of 1 on --device, and writes the logs."""
    monkeypatch.delenv("LOCAL_RANK", raising=False)
    args, placement = cli.parse_train_args(["--task", "Isaac-Cartpole-Direct-v0", "--device", "cpu"])
    assert placement == cli.Placement(device="cpu") and placement.writes_logs
