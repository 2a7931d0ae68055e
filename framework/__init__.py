"""framework: systems, ports, contexts, diagrams, simulation (Drake's systems framework).

Knows nothing of robots; usable on its own for any dynamical system.
"""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".cache": ("CacheEntryValue", "DependencyTicket", "Tickets", "ValueProducer"),
    ".context": ("Context", "ContextBase", "DiagramContext", "FixedInputPortValue", "LeafContext"),
    ".diagram": ("Diagram",),
    ".diagram_builder": ("DiagramBuilder",),
    ".errors": (
        "ContextError", "DiagramBuildError", "NonFiniteStateError", "PortError", "PortTypeError",
        "SimulationError",
    ),
    ".events": (
        "DiscreteUpdateEvent", "Event", "EventStatus", "PeriodicEventData", "PublishEvent",
        "TriggerType", "UnrestrictedUpdateEvent", "WitnessFunction", "WitnessFunctionDirection",
    ),
    ".leaf_system": ("CacheEntry", "ContinuousStateDerivatives", "LeafSystem"),
    ".ports": ("InputPort", "OutputPort", "PortDataType", "SystemOutput", "kUseDefaultName"),
    ".scalar_conversion": ("SystemScalarConverter", "TemplateSystem"),
    ".simulate": ("SimulationResult",),
    ".system_constraint": (
        "ExternalSystemConstraint", "SystemConstraint", "SystemConstraintBounds",
        "SystemConstraintType",
    ),
    ".simulator": ("InitializeParams", "ReturnReason", "Simulator", "SimulatorStatus"),
    ".simulator_print_stats": ("print_simulator_statistics",),
    ".state": ("AbstractValues", "ContinuousState", "DiscreteValues", "State"),
    ".system": ("System", "SystemBase", "SystemVisitor"),
    ".value": ("AbstractValue", "BasicVector", "Value", "VectorBase"),
    ".indices": (
        "AbstractParameterIndex", "AbstractStateIndex", "CacheIndex", "ContinuousStateIndex",
        "DiscreteStateIndex", "InputPortIndex", "NumericParameterIndex", "OutputPortIndex",
        "SubsystemIndex", "SystemConstraintIndex",
    ),
    ".integrators": (
        "BogackiShampine3Integrator", "ExplicitEulerIntegrator", "INTEGRATION_SCHEMES",
        "ImplicitEulerIntegrator", "IntegratorBase", "Radau1Integrator", "Radau3Integrator",
        "RadauIntegrator", "RungeKutta2Integrator", "RungeKutta3Integrator",
        "RungeKutta5Integrator", "SemiExplicitEulerIntegrator", "VelocityImplicitEulerIntegrator",
        "make_integrator",
    ),
    ".simulator_config": (
        "SimulatorConfig", "apply_simulator_config", "extract_simulator_config",
        "get_integration_schemes", "reset_integrator_from_flags",
    ),
    ".barycentric": ("BarycentricMesh",),
    ".bus_value": ("BusValue",),
    ".random_generator": ("RandomGenerator",),
    ".parameters": ("Parameters",),
    ".vector_system": ("VectorSystem",),
    ".subvector": ("Subvector", "Supervector"),
    ".primitives": (
        "Adder", "AffineSystem", "BarycentricMeshSystem", "BusCreator", "BusSelector",
        "ConstantValueSource", "ConstantVectorSource", "Demultiplexer", "DiscreteDerivative",
        "DiscreteTimeDelay", "DiscreteTimeIntegrator", "FirstOrderLowPassFilter", "Gain",
        "Integrator", "LinearSystem", "LinearTransformDensity", "MatrixGain",
        "MultilayerPerceptron", "Multiplexer", "PassThrough", "PerceptronActivationType",
        "PortSwitch", "RandomDistribution", "RandomSource", "Saturation", "Selector",
        "SelectorParams", "SharedPointerSystem", "Sine", "SparseMatrixGain",
        "StateInterpolatorWithDiscreteDerivative", "TrajectoryAffineSystem",
        "TrajectoryLinearSystem", "TrajectorySource", "WrapToSystem", "ZeroOrderHold",
        "add_random_inputs",
    ),
    ".trajectories": ("PiecewisePolynomial", "Trajectory"),
    ".monte_carlo": (
        "RandomSimulationResult", "SampleError", "monte_carlo_simulation", "random_simulation",
        "sample_seed",
    ),
    ".parameter_sweep": ("SweepResult", "parameter_sweep"),
    ".vector_log": ("VectorLog",),
    ".math.bspline_basis": ("BsplineBasis", "KnotVectorType"),
    ".math.lyapunov": ("real_continuous_lyapunov_equation", "real_discrete_lyapunov_equation"),
    ".math.matrix_util": (
        "extract_principal_submatrix", "is_positive_definite", "is_symmetric",
        "to_lower_triangular_columns_from_matrix",
        "to_symmetric_matrix_from_lower_triangular_columns", "vector_to_skew_symmetric",
    ),
    ".math.numerical_gradient": (
        "NumericalGradientMethod", "NumericalGradientOption", "compute_numerical_gradient",
    ),
    ".math.quadratic_form": (
        "balance_quadratic_forms", "decompose_positive_quadratic_form",
        "decompose_psd_matrix_into_x_transpose_times_x",
    ),
    ".math.riccati": (
        "continuous_algebraic_riccati_equation", "discrete_algebraic_riccati_equation",
    ),
    ".math.soft_min_max": ("soft_over_max", "soft_over_min", "soft_under_max", "soft_under_min"),
    ".math.wrap_to": ("wrap_to",),
    ".namedview": ("NamedViewBase", "namedview"),
    ".examples": "*",
    ".temp_directory": ("temp_directory",),
    ".yaml_io": (
        "YamlField", "YamlLoadError", "yaml_dump", "yaml_dump_typed", "yaml_load",
        "yaml_load_typed",
    ),
    ".vector_log_sink": ("VectorLogSink", "log_vector_output"),
    ".analysis": (
        "DiscreteTimeApproximationSystem", "InputPortSelection", "OutputPortSelection",
        "Parallelism", "batch_eval_time_derivatives",
        "batch_eval_unique_periodic_discrete_update", "controllability_matrix",
        "discrete_time_approximation", "first_order_taylor_approximation", "is_controllable",
        "is_detectable", "is_observable", "is_stabilizable", "linearize", "observability_matrix",
    ),
}, unlisted={
    # pydrake.math's C-semantics scalar functions: importable by name, kept out of
    # `import *` because abs, min, max and pow would shadow Python's built-ins
    ".math.scalar_functions": "*",
    # pydrake.common.cpp_param's generics: `List`, `Dict`, ... would shadow typing's
    ".cpp_param": ("Dict", "List", "Optional", "Union"),
})

# `System.simulate` is bound by its module (it needs the Simulator, which needs System):
# loaded with the package so that every system has it.
from merganser.framework import simulate as _simulate  # noqa: E402,F401
