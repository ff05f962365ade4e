"""Terrain importers for the Newton backend."""

from .terrain_importer import NewtonTerrainImporter

__all__ = ["NewtonTerrainImporter"]
