"""ConfigModel: the pydantic base of the serializable configs (SimulatorConfig,
MultibodyPlantConfig, SceneGraphConfig, DefaultProximityProperties).

``str(config)`` is pydrake's form, the same as ``repr``:
``SimulatorConfig(integration_scheme='runge_kutta3', max_step_size=0.1, ...)``.
"""

from pydantic import BaseModel

__all__ = ["ConfigModel"]


class ConfigModel(BaseModel):
    """A pydantic model printed as pydrake prints its configs."""

    def __str__(self):
        return repr(self)
