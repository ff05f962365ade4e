"""Installation script for the isaaclab_newton extension (isaaclab_newton + isaaclab_contrib)."""

import pathlib
import tomllib

from setuptools import find_packages, setup

ROOT = pathlib.Path(__file__).parent
EXTENSION = tomllib.loads((ROOT / "config" / "extension.toml").read_text())["package"]

setup(
    name="isaaclab_newton_backend",
    version=EXTENSION["version"],
    description=EXTENSION["description"],
    author="isaaclab_newton developers",
    license="BSD-3-Clause",
    python_requires=">=3.12,<3.13",
    packages=find_packages(include=["isaaclab_newton*", "isaaclab_contrib*"]),
    include_package_data=True,
    install_requires=[
        "newton[sim]==1.8.0",
        "warp-lang==1.19.0",
        "torch",
        "gymnasium",
        "usd-core",
        "newton-usd-schemas",
        "viser>=1.1.1",
    ],
    zip_safe=False,
)
