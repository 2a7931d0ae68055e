"""framework: systems, ports, contexts, diagrams, simulation (Drake's systems framework).

Knows nothing of robots; usable on its own for any dynamical system.
"""

from .cache import CacheEntryValue, DependencyTicket, Tickets, ValueProducer
from .context import Context, ContextBase, DiagramContext, LeafContext
from .diagram import Diagram
from .diagram_builder import DiagramBuilder
from .errors import (ContextError, DiagramBuildError, NonFiniteStateError, PortError, PortTypeError,
                     SimulationError)
from .events import (DiscreteUpdateEvent, Event, EventStatus, PeriodicEventData, PublishEvent,
                     TriggerType,
                     UnrestrictedUpdateEvent, WitnessFunction, WitnessFunctionDirection)
from .leaf_system import CacheEntry, ContinuousStateDerivatives, LeafSystem
from .ports import InputPort, OutputPort, PortDataType, SystemOutput, kUseDefaultName
from .simulate import SimulationResult
from .simulator import InitializeParams, ReturnReason, Simulator, SimulatorStatus
from .simulator_print_stats import print_simulator_statistics
from .state import AbstractValues, ContinuousState, DiscreteValues, State
from .system import System, SystemBase, SystemVisitor
from .value import AbstractValue, BasicVector, Value, VectorBase
from .indices import (AbstractParameterIndex, AbstractStateIndex, CacheIndex, ContinuousStateIndex,
                      DiscreteStateIndex, InputPortIndex, NumericParameterIndex,
                      OutputPortIndex, SubsystemIndex)
from .integrators import (INTEGRATION_SCHEMES, BogackiShampine3Integrator, ExplicitEulerIntegrator,
                          ImplicitEulerIntegrator, IntegratorBase, Radau1Integrator,
                          Radau3Integrator,
                          RadauIntegrator, RungeKutta2Integrator, RungeKutta3Integrator,
                          RungeKutta5Integrator, SemiExplicitEulerIntegrator,
                          VelocityImplicitEulerIntegrator, make_integrator)
from .simulator_config import (SimulatorConfig, apply_simulator_config, extract_simulator_config,
                               get_integration_schemes, reset_integrator_from_flags)
from .barycentric import BarycentricMesh
from .bus_value import BusValue
from .random_generator import RandomGenerator
from .parameters import Parameters
from .vector_system import VectorSystem
from .subvector import Subvector, Supervector
from .primitives import (Adder, AffineSystem, BarycentricMeshSystem, BusCreator, BusSelector,
                         ConstantValueSource, ConstantVectorSource,
                         Demultiplexer, DiscreteDerivative, DiscreteTimeDelay,
                         DiscreteTimeIntegrator, FirstOrderLowPassFilter, Gain,
                         Integrator, LinearSystem, LinearTransformDensity, MatrixGain,
                         MultilayerPerceptron, Multiplexer, PassThrough, PerceptronActivationType,
                         PortSwitch, RandomDistribution,
                         RandomSource, Saturation, Selector, SelectorParams,
                         SharedPointerSystem, Sine,
                         SparseMatrixGain, StateInterpolatorWithDiscreteDerivative,
                         TrajectoryAffineSystem, TrajectoryLinearSystem, TrajectorySource,
                         WrapToSystem, ZeroOrderHold, add_random_inputs)
from .trajectories import PiecewisePolynomial, Trajectory
from .monte_carlo import (RandomSimulationResult, SampleError, monte_carlo_simulation,
                          random_simulation, sample_seed)
from .parameter_sweep import SweepResult, parameter_sweep
from .vector_log import VectorLog
from .vector_log_sink import VectorLogSink, log_vector_output
from .analysis import (InputPortSelection, OutputPortSelection, controllability_matrix,
                       Parallelism, batch_eval_time_derivatives,
                       batch_eval_unique_periodic_discrete_update,
                       DiscreteTimeApproximationSystem, discrete_time_approximation,
                       first_order_taylor_approximation, is_controllable, is_detectable,
                       is_observable, is_stabilizable, linearize, observability_matrix)

__all__ = [
    "AbstractParameterIndex", "AbstractStateIndex", "CacheIndex", "ContinuousStateIndex", "DiscreteStateIndex",
    "InputPortIndex", "NumericParameterIndex", "OutputPortIndex", "SubsystemIndex",
    "RandomSimulationResult", "SampleError", "monte_carlo_simulation", "random_simulation",
    "sample_seed", "SweepResult", "parameter_sweep",
    "INTEGRATION_SCHEMES", "IntegratorBase", "make_integrator", "SimulatorConfig",
    "apply_simulator_config", "reset_integrator_from_flags", "extract_simulator_config",
    "get_integration_schemes", "BogackiShampine3Integrator", "ExplicitEulerIntegrator",
    "ImplicitEulerIntegrator", "Radau1Integrator", "Radau3Integrator", "RadauIntegrator", "RungeKutta2Integrator",
    "RungeKutta3Integrator", "RungeKutta5Integrator", "SemiExplicitEulerIntegrator",
    "VelocityImplicitEulerIntegrator", "ReturnReason", "InitializeParams",
    "print_simulator_statistics", "Adder", "AffineSystem",
    "ConstantValueSource", "ConstantVectorSource", "Demultiplexer", "DiscreteDerivative",
    "Parallelism", "batch_eval_time_derivatives", "batch_eval_unique_periodic_discrete_update",
    "DiscreteTimeApproximationSystem", "discrete_time_approximation", "DiscreteTimeDelay",
    "DiscreteTimeIntegrator", "RandomDistribution", "Selector",
    "SelectorParams", "SparseMatrixGain", "WrapToSystem", "LinearTransformDensity",
    "SharedPointerSystem", "add_random_inputs",
    "FirstOrderLowPassFilter", "Gain", "Integrator", "LinearSystem", "MatrixGain", "Multiplexer",
    "PassThrough", "PortSwitch", "RandomSource", "Saturation", "Sine",
    "StateInterpolatorWithDiscreteDerivative",
    "TrajectorySource", "ZeroOrderHold", "PiecewisePolynomial", "Trajectory", "VectorLog",
    "VectorLogSink", "log_vector_output", "controllability_matrix",
    "first_order_taylor_approximation", "is_controllable", "is_observable", "linearize",
    "observability_matrix", "InputPortSelection", "OutputPortSelection", "is_detectable",
    "is_stabilizable",
    "AbstractValue", "BasicVector", "CacheEntry", "Context", "ContextError",
    "ContinuousStateDerivatives", "Diagram", "DiagramBuildError", "DiagramBuilder",
    "DiagramContext", "DiscreteUpdateEvent", "DiscreteValues", "EventStatus", "InputPort",
    "LeafContext", "LeafSystem", "NonFiniteStateError", "OutputPort", "PortError",
    "PublishEvent", "SimulationError", "SimulationResult", "Simulator", "SimulatorStatus",
    "State", "System", "Tickets", "DependencyTicket", "ValueProducer", "PortTypeError",
    "PortDataType", "kUseDefaultName", "TriggerType", "UnrestrictedUpdateEvent", "Value",
    "WitnessFunction", "WitnessFunctionDirection", "AbstractValues", "ContinuousState",
    "SystemOutput", "VectorBase", "CacheEntryValue", "ContextBase", "SystemBase", "SystemVisitor",
    "Event", "PeriodicEventData", "BusValue", "BusCreator", "BusSelector",
    "TrajectoryAffineSystem", "TrajectoryLinearSystem", "RandomGenerator",
    "MultilayerPerceptron", "PerceptronActivationType", "BarycentricMesh",
    "BarycentricMeshSystem", "Subvector", "Supervector",
    "Parameters", "VectorSystem",
]
