"""Devices asked of the NVIDIA driver: unknown names and missing GPUs refused by name."""

from __future__ import annotations

import argparse

import pytest

from isaaclab_contrib.app import devices


def test_unknown_device_is_refused_with_the_names_to_use():
    """--device bogus names cpu and cuda:<index>."""
    with pytest.raises(argparse.ArgumentTypeError, match="use cpu, cuda or cuda:<index>"):
        devices.device_arg("bogus")


def test_cuda_without_driver_is_refused_by_name(monkeypatch):
    """cuda:0 on a machine without an NVIDIA driver says so and names --device cpu."""
    monkeypatch.setattr(devices, "cuda_device_count", lambda: None)
    with pytest.raises(argparse.ArgumentTypeError, match=r"cuda:0 needs an NVIDIA driver.*--device cpu"):
        devices.device_arg("cuda:0")


def test_missing_cuda_index_names_the_devices_there_are(monkeypatch):
    """cuda:3 on a one-GPU machine lists cuda:0."""
    monkeypatch.setattr(devices, "cuda_device_count", lambda: 1)
    with pytest.raises(argparse.ArgumentTypeError, match=r"cuda:3 does not exist.*cuda:0"):
        devices.device_arg("cuda:3")
