"""Primitive systems (Drake's systems/primitives): sources, gains, sums, filters, holds.

Each primitive with a linear (or exactly differentiable) behaviour implements
``do_calc_linearization`` (the protocol in ``framework.primitives._linearization``), so
``framework.analysis.linearize`` composes diagrams of them exactly.
"""

from .adder import Adder
from .barycentric_mesh_system import BarycentricMeshSystem
from .bus_creator import BusCreator
from .bus_selector import BusSelector
from .constant_value_source import ConstantValueSource
from .constant_vector_source import ConstantVectorSource
from .demultiplexer import Demultiplexer
from .discrete_derivative import DiscreteDerivative
from .discrete_time_delay import DiscreteTimeDelay
from .discrete_time_integrator import DiscreteTimeIntegrator
from .first_order_low_pass_filter import FirstOrderLowPassFilter
from .gain import Gain
from .integrator import Integrator
from .linear_system import AffineSystem, LinearSystem
from .linear_transform_density import LinearTransformDensity
from .matrix_gain import MatrixGain
from .multilayer_perceptron import MultilayerPerceptron, PerceptronActivationType
from .multiplexer import Multiplexer
from .pass_through import PassThrough
from .port_switch import PortSwitch
from .random_source import RandomDistribution, RandomSource, add_random_inputs
from .saturation import Saturation
from .selector import Selector, SelectorParams
from .shared_pointer_system import SharedPointerSystem
from .sine import Sine
from .sparse_matrix_gain import SparseMatrixGain
from .state_interpolator import StateInterpolatorWithDiscreteDerivative
from .trajectory_affine_system import TrajectoryAffineSystem, TrajectoryLinearSystem
from .trajectory_source import TrajectorySource
from .wrap_to_system import WrapToSystem
from .zero_order_hold import ZeroOrderHold

__all__ = [
    "Adder", "AffineSystem", "BarycentricMeshSystem", "BusCreator", "BusSelector",
    "ConstantValueSource", "ConstantVectorSource", "Demultiplexer",
    "DiscreteDerivative", "DiscreteTimeDelay", "DiscreteTimeIntegrator",
    "FirstOrderLowPassFilter", "Gain", "Integrator",
    "LinearSystem", "LinearTransformDensity",
    "MatrixGain", "MultilayerPerceptron", "Multiplexer", "PerceptronActivationType", "PassThrough",
    "PortSwitch", "RandomDistribution", "RandomSource",
    "Saturation", "Selector", "SelectorParams", "SharedPointerSystem", "Sine", "SparseMatrixGain",
    "StateInterpolatorWithDiscreteDerivative", "TrajectoryAffineSystem", "TrajectoryLinearSystem",
    "TrajectorySource",
    "WrapToSystem", "ZeroOrderHold",
    "add_random_inputs",
]
