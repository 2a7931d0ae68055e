"""Primitive systems (Drake's systems/primitives): sources, gains, sums, filters, holds.

Each primitive with a linear (or exactly differentiable) behaviour implements
``do_calc_linearization`` (the protocol in ``framework.primitives._linearization``), so
``framework.analysis.linearize`` composes diagrams of them exactly.
"""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".adder": ("Adder",),
    ".barycentric_mesh_system": ("BarycentricMeshSystem",),
    ".bus_creator": ("BusCreator",),
    ".bus_selector": ("BusSelector",),
    ".constant_value_source": ("ConstantValueSource",),
    ".constant_vector_source": ("ConstantVectorSource",),
    ".demultiplexer": ("Demultiplexer",),
    ".discrete_derivative": ("DiscreteDerivative",),
    ".discrete_time_delay": ("DiscreteTimeDelay",),
    ".discrete_time_integrator": ("DiscreteTimeIntegrator",),
    ".first_order_low_pass_filter": ("FirstOrderLowPassFilter",),
    ".gain": ("Gain",),
    ".integrator": ("Integrator",),
    ".linear_system": ("AffineSystem", "LinearSystem"),
    ".linear_transform_density": ("LinearTransformDensity",),
    ".matrix_gain": ("MatrixGain",),
    ".multilayer_perceptron": ("MultilayerPerceptron", "PerceptronActivationType"),
    ".multiplexer": ("Multiplexer",),
    ".pass_through": ("PassThrough",),
    ".port_switch": ("PortSwitch",),
    ".random_source": ("RandomDistribution", "RandomSource", "add_random_inputs"),
    ".saturation": ("Saturation",),
    ".selector": ("Selector", "SelectorParams"),
    ".shared_pointer_system": ("SharedPointerSystem",),
    ".sine": ("Sine",),
    ".sparse_matrix_gain": ("SparseMatrixGain",),
    ".state_interpolator": ("StateInterpolatorWithDiscreteDerivative",),
    ".trajectory_affine_system": ("TrajectoryAffineSystem", "TrajectoryLinearSystem"),
    ".trajectory_source": ("TrajectorySource",),
    ".wrap_to_system": ("WrapToSystem",),
    ".zero_order_hold": ("ZeroOrderHold",),
})
