"""framework.examples: Drake's example systems written as LeafSystems (pydrake's
``pydrake.examples``), for tutorials and tests: `PendulumPlant` and `AcrobotPlant` with their named vectors."""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".acrobot_plant": ("AcrobotInput", "AcrobotParams", "AcrobotPlant", "AcrobotState"),
    ".pendulum_plant": ("PendulumInput", "PendulumParams", "PendulumPlant", "PendulumState"),
})
