"""framework: systems, ports, contexts, diagrams, simulation (Drake's systems framework).

Knows nothing of robots; usable on its own for any dynamical system.
"""

from .cache import Tickets
from .context import Context, DiagramContext, LeafContext
from .diagram import Diagram
from .diagram_builder import DiagramBuilder
from .errors import (ContextError, DiagramBuildError, NonFiniteStateError, PortError,
                     SimulationError)
from .events import (DiscreteUpdateEvent, EventStatus, PublishEvent, TriggerType,
                     UnrestrictedUpdateEvent, WitnessFunction, WitnessFunctionDirection)
from .leaf_system import CacheEntry, ContinuousStateDerivatives, LeafSystem
from .ports import InputPort, OutputPort
from .simulate import SimulationResult
from .simulator import DiscreteValues, Simulator, SimulatorStatus, State
from .system import System
from .value import AbstractValue, BasicVector, Value

__all__ = [
    "AbstractValue", "BasicVector", "CacheEntry", "Context", "ContextError",
    "ContinuousStateDerivatives", "Diagram", "DiagramBuildError", "DiagramBuilder",
    "DiagramContext", "DiscreteUpdateEvent", "DiscreteValues", "EventStatus", "InputPort",
    "LeafContext", "LeafSystem", "NonFiniteStateError", "OutputPort", "PortError",
    "PublishEvent", "SimulationError", "SimulationResult", "Simulator", "SimulatorStatus",
    "State", "System", "Tickets", "TriggerType", "UnrestrictedUpdateEvent", "Value",
    "WitnessFunction", "WitnessFunctionDirection",
]
