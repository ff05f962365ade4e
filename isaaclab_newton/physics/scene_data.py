"""Scene data backend publishing Newton body transforms to Isaac Lab's scene data provider."""

from __future__ import annotations

from typing import TYPE_CHECKING

from isaaclab.scene_data import SceneDataBackend, SceneDataFormat

if TYPE_CHECKING:
    from .newton_manager import NewtonManager


class NewtonSceneDataBackend(SceneDataBackend):
    """Publishes ``State.body_q`` of the manager's current state as packed transforms."""

    geometry_timestamp: int = 0

    def __init__(self, manager: type[NewtonManager]):
        self._manager = manager
        self._format = SceneDataFormat.Transform()

    @property
    def transforms_timestamp(self) -> int:
        """Advances with simulation time; the state arrays are swapped in place so pointers stay valid."""
        return int(round(self._manager.get_simulation_time() * 1e6))

    @property
    def native_transform_formats(self) -> tuple[type, ...]:
        return (SceneDataFormat.Transform,)

    @property
    def transforms(self) -> SceneDataFormat.Transform:
        state = self._manager.get_state_0()
        if state is None:
            raise RuntimeError("Scene transforms are available after sim.reset().")
        self._format.transforms = state.body_q
        return self._format

    @property
    def transform_count(self) -> int:
        model = self._manager.get_model()
        return 0 if model is None else int(model.body_count)

    @property
    def transform_paths(self) -> list[str]:
        model = self._manager.get_model()
        return [] if model is None else list(model.body_label)
