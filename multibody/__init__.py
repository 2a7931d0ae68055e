"""multibody: spatial algebra, the multibody tree, compiled dynamics kernels and
MultibodyPlant (Drake's multibody, the Python way).

Public names are re-exported here: ``from multibody import MultibodyPlant, SpatialInertia``.
"""

from merganser.multibody.math import *  # noqa: F401,F403
from merganser.multibody.math import __all__ as _math_all
from merganser.multibody.plant import *  # noqa: F401,F403
from merganser.multibody.plant import __all__ as _plant_all
from merganser.multibody.tree import *  # noqa: F401,F403
from merganser.multibody.tree import __all__ as _tree_all
from merganser.multibody.parsing import *  # noqa: F401,F403
from merganser.multibody.parsing import __all__ as _parsing_all
from merganser.multibody.hydrodynamics import *  # noqa: F401,F403
from merganser.multibody.hydrodynamics import __all__ as _hydro_all
from merganser.multibody.inverse_kinematics import *  # noqa: F401,F403
from merganser.multibody.inverse_kinematics import __all__ as _ik_all
from merganser.multibody.dh_chain import DhChain, add_dh_chain, dh_transform  # noqa: F401
from merganser.multibody.batched import BATCHED_INTEGRATION_SCHEMES, BatchedPlant  # noqa: F401
from merganser.multibody.contact import ContactSolverError  # noqa: F401
from merganser.multibody.plant.plant_geometry import (connect_plant_and_scene_graph,  # noqa: F401
                                               register_geometry_records)
from merganser.multibody.planning import *  # noqa: F401,F403
from merganser.multibody.planning import __all__ as _planning_all

__all__ = sorted(set(_math_all) | set(_plant_all) | set(_tree_all) | set(_parsing_all)
                 | set(_hydro_all) | set(_ik_all) | set(_planning_all)
                 | {"DhChain", "add_dh_chain", "dh_transform", "BatchedPlant",
                    "BATCHED_INTEGRATION_SCHEMES", "ContactSolverError",
                    "connect_plant_and_scene_graph", "register_geometry_records"})
