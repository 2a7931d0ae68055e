"""multibody: spatial algebra, the multibody tree, compiled dynamics kernels and
MultibodyPlant (Drake's multibody, the Python way).

Public names are re-exported here: ``from multibody import MultibodyPlant, SpatialInertia``.
"""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".math": "*",
    ".plant": "*",
    ".tree": "*",
    ".parsing": "*",
    ".hydrodynamics": "*",
    ".inverse_kinematics": "*",
    ".dh_chain": ("DhChain", "add_dh_chain", "dh_transform"),
    ".model_visualizer": ("ModelVisualizer",),
    ".batched": ("BATCHED_INTEGRATION_SCHEMES", "BatchedPlant"),
    ".contact": ("ContactSolverError",),
    ".plant.plant_geometry": ("connect_plant_and_scene_graph", "register_geometry_records"),
    ".planning": "*",
    ".benchmarks": "*",
})

# The plant's compiled form registers itself with framework.compiled_diagram when imported;
# it loads the plant, so it is imported here, before any module of the package, where
# the import order cannot meet a partly initialized module.
from merganser.multibody.plant import compiled_form  # noqa: E402,F401
