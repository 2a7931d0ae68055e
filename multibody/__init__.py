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
    ".benchmarks.acrobot": ("AcrobotParameters", "make_acrobot_plant"),
})

# The plant's compiled form registers itself with framework.compiled_diagram when the
# first diagram holding a plant is compiled (not here: it would load the plant and the
# compiled-diagram machinery with the package).
from merganser.framework.compiled_form_loaders import register_compiled_form_loader  # noqa: E402


def _load_plant_compiled_form():
    from merganser.multibody.plant import compiled_form  # noqa: F401  (registers it)


register_compiled_form_loader("merganser.multibody.plant.multibody_plant.MultibodyPlant",
                              _load_plant_compiled_form)
