"""multibody: spatial algebra, the multibody tree, compiled dynamics kernels and
MultibodyPlant (Drake's multibody, the Python way).

Public names are re-exported here: ``from multibody import MultibodyPlant, SpatialInertia``.
"""

from multibody.math import *  # noqa: F401,F403
from multibody.math import __all__ as _math_all
from multibody.plant import *  # noqa: F401,F403
from multibody.plant import __all__ as _plant_all
from multibody.tree import *  # noqa: F401,F403
from multibody.tree import __all__ as _tree_all

__all__ = sorted(set(_math_all) | set(_plant_all) | set(_tree_all))
