"""LeafSystem: the base class for user-written systems (Drake's LeafSystem).

Subclass it, call ``super().__init__()``, and declare ports, state, parameters and
events in ``__init__``. Override ``do_calc_time_derivatives`` for continuous dynamics.
"""

import functools

import numpy as np

from .cache import CacheEntryValue, Tickets, ValueProducer, frozen_cache_error, notify
from .cache_entry import CacheEntry
from .context import LeafContext
from .errors import PortError
from .events import (DiscreteUpdateEvent, PeriodicEventData, PublishEvent, TriggerType,
                     UnrestrictedUpdateEvent, WitnessFunction, as_direction)
from .ports import ABSTRACT, VECTOR, InputPort, LeafOutputPort, PortDataType, kUseDefaultName
from .keyword_check import lists_valid_keywords
from .scalar_conversion import SystemScalarConverter
from .state import DiscreteValues
from .system import System, _write_derivatives
from .value import BasicVector, Value, as_value, as_vector_base


class ContinuousStateDerivatives(BasicVector):
    """Where ``do_calc_time_derivatives`` writes ẋ; ``set_value(xdot)`` or
    ``get_mutable_vector().set_value(xdot)``."""

    __slots__ = ("_nq", "_nv", "_nz")

    def num_q(self):
        return self._nq

    def num_v(self):
        return self._nv

    def num_z(self):
        return self._nz

    def get_mutable_generalized_position(self):
        return BasicVector._wrap(self._data[: self._nq])

    def get_mutable_generalized_velocity(self):
        return BasicVector._wrap(self._data[self._nq: self._nq + self._nv])

    def get_mutable_misc_continuous_state(self):
        return BasicVector._wrap(self._data[self._nq + self._nv:])


class LeafSystem(System):
    """Base class for systems that declare their own ports, state and events.

    Parameters
    ----------
    converter : SystemScalarConverter, optional
        pydrake's scalar converter, returned by ``get_system_scalar_converter()`` (it
        supports no conversion: merganser computes in float64 only).
    """

    def __init__(self, converter=None):
        super().__init__()
        if converter is not None:
            if not isinstance(converter, SystemScalarConverter):
                raise TypeError(f"LeafSystem.__init__: converter must be a "
                                f"SystemScalarConverter, got {type(converter).__name__}")
            self._scalar_converter = converter
        self._nq = self._nv = self._nz = 0
        self._default_xc = np.zeros(0)
        self._xd_model = []
        self._xa_model = []
        self._p_model = []
        self._pa_model = []
        self._cache_decls = []
        self._periodic_events = []          # list of (PeriodicEventData, Event)
        self._per_step_events = []
        self._initialization_events = []
        self._forced_publish_events = []
        self._forced_discrete_events = []
        self._forced_unrestricted_events = []
        self._witnesses = []

    # ---- ports ------------------------------------------------------------------------------
    def _check_port_name(self, ports, name, fn):
        """The port's name: ``name`` checked, or Drake's default (``u{i}`` / ``y{i}``) for
        ``kUseDefaultName``."""
        if name is kUseDefaultName:
            name = f"{'u' if ports is self._input_ports else 'y'}{len(ports)}"
        if not isinstance(name, str) or not name:
            raise ValueError(f"{fn}: port name must be a non-empty str, got {name!r}")
        if any(p.get_name() == name for p in ports):
            raise ValueError(f"{fn}: system '{self._name}' already has a port named {name!r}")
        return name

    @lists_valid_keywords
    def declare_vector_input_port(self, name, size=None, *, model_vector=None, required=True,
                                  default_value=None, random_type=None):
        """Declare a vector input port of ``size`` elements (or the size of
        ``model_vector``, a BasicVector or array_like).

        ``required=False`` lets a Diagram leave it unconnected; ``default_value`` is then
        what ``eval`` returns while it is neither connected nor fixed. ``random_type`` (a
        RandomDistribution) marks a port for a random signal of that distribution, which
        ``add_random_inputs`` connects to a RandomSource.
        """
        size = _vector_size("declare_vector_input_port", size, model_vector)
        name = self._check_port_name(self._input_ports, name, "declare_vector_input_port")
        port = InputPort(self, len(self._input_ports), name, VECTOR, size,
                         required=required, default_value=default_value,
                         random_type=random_type)
        self._input_ports.append(port)
        return port

    def declare_input_port(self, name, type, size, random_type=None):
        """Declare an input port by data type (Drake's ``DeclareInputPort``):
        ``PortDataType.kVectorValued`` with ``size`` elements, or
        ``PortDataType.kAbstractValued`` (``size`` ignored, holding any object)."""
        if type == PortDataType.kVectorValued:
            return self.declare_vector_input_port(name, size, random_type=random_type)
        if type == PortDataType.kAbstractValued:
            return self.declare_abstract_input_port(name, Value[object]())
        raise TypeError(f"declare_input_port: system '{self._name}': type must be a "
                        f"PortDataType, got {type!r}")

    @lists_valid_keywords
    def declare_abstract_input_port(self, name, model_value, *, required=True):
        """Declare an abstract input port whose values look like ``model_value``."""
        name = self._check_port_name(self._input_ports, name, "declare_abstract_input_port")
        port = InputPort(self, len(self._input_ports), name, ABSTRACT, 0,
                         model_value=as_value(model_value), required=required)
        self._input_ports.append(port)
        return port

    @lists_valid_keywords
    def declare_vector_output_port(self, name, size=None, calc=None, prerequisites_of_calc=None,
                                   *, model_value=None):
        """Declare a vector output port of ``size`` elements (or the size of
        ``model_value``); ``calc(context, output)`` fills the BasicVector ``output``."""
        size = _vector_size("declare_vector_output_port", size, model_value)
        name = self._check_port_name(self._output_ports, name, "declare_vector_output_port")
        if not callable(calc):
            raise TypeError(f"declare_vector_output_port: calc for port {name!r} is not callable")
        prereqs = self._normalize_prereqs(prerequisites_of_calc, "declare_vector_output_port")
        port = LeafOutputPort(self, len(self._output_ports), name, VECTOR, size, calc,
                              functools.partial(np.zeros, size), prereqs)
        self._output_ports.append(port)
        return port

    @lists_valid_keywords
    def declare_abstract_output_port(self, name, alloc, calc, prerequisites_of_calc=None):
        """Declare an abstract output port; ``alloc()`` makes a model value, ``calc(context,
        value)`` sets it (``value.set_value(x)``)."""
        name = self._check_port_name(self._output_ports, name, "declare_abstract_output_port")
        prereqs = self._normalize_prereqs(prerequisites_of_calc, "declare_abstract_output_port")
        port = LeafOutputPort(self, len(self._output_ports), name, ABSTRACT, 0, calc, alloc, prereqs)
        self._output_ports.append(port)
        return port

    @lists_valid_keywords
    def declare_state_output_port(self, name, state_index):
        """An output port that copies a state: ``state_index`` is a discrete group index, or
        ``"continuous"`` / a ContinuousStateIndex-like 0 when the system has only continuous state.

        Never direct feedthrough.
        """
        if (isinstance(state_index, str) and state_index == "continuous") or (
                not self._xd_model and self.num_continuous_states() > 0):
            n = self.num_continuous_states()
            return self.declare_vector_output_port(name, n, _CopyState(None), [Tickets.XC])
        k = int(state_index)
        if not 0 <= k < len(self._xd_model):
            raise ValueError(
                f"declare_state_output_port: system '{self._name}' has {len(self._xd_model)} discrete "
                f"state group(s) and {self.num_continuous_states()} continuous states; state index "
                f"{state_index!r} does not name one")
        n = self._xd_model[k].size
        return self.declare_vector_output_port(name, n, _CopyState(k), [Tickets.XD])

    # ---- state and parameters --------------------------------------------------------------
    @lists_valid_keywords
    def declare_continuous_state(self, *args, num_state_variables=None, num_q=None, num_v=None,
                                 num_z=None, model_vector=None):
        """Declare the continuous state; returns its size.

        Drake's forms: ``declare_continuous_state(num_state_variables)``,
        ``(num_q, num_v, num_z)``, ``(model_vector)`` and ``(model_vector, num_q, num_v,
        num_z)``, positionally or by keyword. ``model_vector`` (array_like or BasicVector)
        gives the default values; without q/v/z sizes all of it is z.
        """
        fn = "declare_continuous_state"
        if self._nq + self._nv + self._nz:
            raise RuntimeError(f"{fn}: system '{self._name}' already declared its continuous state")
        args = list(args)
        if args and not isinstance(args[0], (int, np.integer)):
            if model_vector is not None:
                raise TypeError(f"{fn}: model_vector given twice")
            model_vector = args.pop(0)
        if len(args) == 1 and model_vector is None:
            num_state_variables = args[0]
        elif len(args) == 3:
            num_q, num_v, num_z = args
        elif args:
            raise TypeError(
                f"{fn}: expected (num_state_variables), (num_q, num_v, num_z), (model_vector) or "
                f"(model_vector, num_q, num_v, num_z); got {len(args)} size argument(s)")
        model = None
        if model_vector is not None:
            model = np.array(model_vector.get_value() if hasattr(model_vector, "get_value")
                             else model_vector, dtype=float).reshape(-1)
        sizes = (num_q, num_v, num_z)
        if any(n is not None for n in sizes):
            nq, nv, nz = (int(n or 0) for n in sizes)
        elif num_state_variables is not None:
            nq, nv, nz = 0, 0, int(num_state_variables)
        elif model is not None:
            nq, nv, nz = 0, 0, model.size
        else:
            raise TypeError(f"{fn}: give num_state_variables, num_q/num_v/num_z or model_vector")
        if model is None:
            model = np.zeros(nq + nv + nz)
        if min(nq, nv, nz) < 0 or model.size != nq + nv + nz:
            raise ValueError(
                f"{fn}: invalid sizes num_q={nq}, num_v={nv}, num_z={nz} for a model vector of "
                f"size {model.size} in system '{self._name}'")
        if nv > nq:
            raise ValueError(f"{fn}: num_v ({nv}) may not exceed num_q ({nq})")
        self._nq, self._nv, self._nz = nq, nv, nz
        self._default_xc = model
        return nq + nv + nz

    def num_continuous_states(self):
        return self._nq + self._nv + self._nz

    @lists_valid_keywords
    def declare_discrete_state(self, num_state_variables=None, *, model_vector=None, vector=None):
        """Declare a discrete state group; returns its index.

        Drake's forms: ``(num_state_variables)`` (zero-filled), ``(model_vector)`` (a
        BasicVector or array_like of initial values) or ``(vector=...)``.
        """
        given = [v for v in (num_state_variables, model_vector, vector) if v is not None]
        if len(given) != 1:
            raise TypeError(
                f"declare_discrete_state: give exactly one of num_state_variables, model_vector "
                f"or vector (system '{self._name}'), got {len(given)}")
        v = given[0]
        if isinstance(v, (int, np.integer)):
            model = np.zeros(int(v))
        else:
            model = np.array(v.get_value() if hasattr(v, "get_value") else v, dtype=float).reshape(-1)
        self._xd_model.append(model)
        return len(self._xd_model) - 1

    def num_discrete_state_groups(self):
        return len(self._xd_model)

    def num_abstract_states(self):
        return len(self._xa_model)

    def num_numeric_parameter_groups(self):
        return len(self._p_model)

    def num_abstract_parameters(self):
        return len(self._pa_model)

    @lists_valid_keywords
    def declare_abstract_state(self, model_value):
        """Declare an abstract state with default ``model_value``; returns its index."""
        self._xa_model.append(as_value(model_value))
        return len(self._xa_model) - 1

    @lists_valid_keywords
    def declare_numeric_parameter(self, model_vector):
        """Declare a numeric parameter group with default ``model_vector`` (array_like or
        BasicVector); returns its index."""
        value = model_vector
        model = np.array(value.get_value() if hasattr(value, "get_value") else value,
                         dtype=float).reshape(-1)
        self._p_model.append(model)
        return len(self._p_model) - 1

    @lists_valid_keywords
    def declare_abstract_parameter(self, model_value):
        self._pa_model.append(as_value(model_value))
        return len(self._pa_model) - 1

    @lists_valid_keywords
    def declare_cache_entry(self, description, value_producer, calc=None,
                            prerequisites_of_calc=None):
        """Declare a cached computation; returns a CacheEntry with ``eval(context)`` and
        ``ticket()``. With ``calc``, ``value_producer()`` allocates the storage and
        ``calc(context, storage)`` fills it (or returns a new value, which replaces the
        storage); without, ``value_producer(context)`` returns the value."""
        prereqs = self._normalize_prereqs(prerequisites_of_calc, "declare_cache_entry")
        if isinstance(value_producer, ValueProducer):
            if calc is not None:
                raise TypeError(f"declare_cache_entry: system '{self._name}': give calc inside "
                                f"the ValueProducer or as calc=, not both")
            value_producer, calc = _producer_alloc(value_producer), _producer_calc(value_producer)
        entry = CacheEntry(self, len(self._cache_decls), description,
                           value_producer, calc, prereqs)
        entry._default_prereqs = prerequisites_of_calc is None
        self._cache_decls.append(entry)
        return entry

    def get_cache_entry(self, index):
        """The CacheEntry declared with ``cache_index()`` == ``index``."""
        if not 0 <= int(index) < len(self._cache_decls):
            raise IndexError(f"get_cache_entry: system '{self._name}' has "
                             f"{len(self._cache_decls)} cache entries, got index {int(index)}")
        return self._cache_decls[int(index)]

    def num_cache_entries(self):
        return len(self._cache_decls)

    # ---- tickets (Drake's well-known DependencyTickets) ----------------------------------
    @staticmethod
    def nothing_ticket():
        """Depends on nothing: computed once per context."""
        return Tickets.NOTHING

    @staticmethod
    def time_ticket():
        return Tickets.TIME

    @staticmethod
    def accuracy_ticket():
        return Tickets.ACCURACY

    @staticmethod
    def q_ticket():
        """The generalized positions q of the continuous state."""
        return Tickets.Q

    @staticmethod
    def v_ticket():
        """The generalized velocities v of the continuous state."""
        return Tickets.V

    @staticmethod
    def z_ticket():
        """The miscellaneous continuous state z."""
        return Tickets.Z

    @staticmethod
    def configuration_ticket():
        """Everything a configuration may depend on (Drake's ``configuration_ticket``);
        merganser tracks it as all sources except the input ports, a safe superset."""
        return Tickets.ALL_SOURCES_EXCEPT_INPUT_PORTS

    @staticmethod
    def kinematics_ticket():
        """Configuration and velocity (Drake's ``kinematics_ticket``); tracked as all
        sources except the input ports, a safe superset."""
        return Tickets.ALL_SOURCES_EXCEPT_INPUT_PORTS

    @staticmethod
    def ke_ticket():
        """Kinetic energy (Drake's ``ke_ticket``); tracked as all sources, a safe superset."""
        return Tickets.ALL_SOURCES

    @staticmethod
    def pe_ticket():
        """Potential energy (Drake's ``pe_ticket``); tracked as all sources."""
        return Tickets.ALL_SOURCES

    @staticmethod
    def pc_ticket():
        """Conservative power (Drake's ``pc_ticket``); tracked as all sources."""
        return Tickets.ALL_SOURCES

    @staticmethod
    def pnc_ticket():
        """Non-conservative power (Drake's ``pnc_ticket``); tracked as all sources."""
        return Tickets.ALL_SOURCES

    @staticmethod
    def xc_ticket():
        """All continuous state (q, v and z)."""
        return Tickets.XC

    @staticmethod
    def xd_ticket():
        """All discrete state groups."""
        return Tickets.XD

    @staticmethod
    def xa_ticket():
        """All abstract state."""
        return Tickets.XA

    @staticmethod
    def discrete_state_ticket(index):
        """Discrete state group ``index`` alone."""
        return Tickets.discrete_state(index)

    @staticmethod
    def abstract_state_ticket(index):
        """Abstract state ``index`` alone."""
        return Tickets.abstract_state(index)

    @staticmethod
    def all_state_ticket():
        return Tickets.ALL_STATE

    @staticmethod
    def pn_ticket():
        """All numeric parameters."""
        return Tickets.PN

    @staticmethod
    def pa_ticket():
        """All abstract parameters."""
        return Tickets.PA

    @staticmethod
    def all_parameters_ticket():
        return Tickets.ALL_PARAMETERS

    @staticmethod
    def numeric_parameter_ticket(index):
        return Tickets.numeric_parameter(index)

    @staticmethod
    def abstract_parameter_ticket(index):
        return Tickets.abstract_parameter(index)

    @staticmethod
    def input_port_ticket(index):
        """Input port ``index`` (an index or the InputPort)."""
        return Tickets.input_port(index.get_index() if hasattr(index, "get_index") else index)

    @staticmethod
    def all_input_ports_ticket():
        return Tickets.ALL_INPUTS

    @staticmethod
    def all_sources_except_input_ports_ticket():
        """Time, accuracy, all state and all parameters."""
        return Tickets.ALL_SOURCES_EXCEPT_INPUT_PORTS

    @staticmethod
    def all_sources_ticket():
        """Every source: time, accuracy, state, parameters and input ports (the default)."""
        return Tickets.ALL_SOURCES

    @staticmethod
    def xcdot_ticket():
        """The cached time derivatives of the continuous state."""
        return Tickets.XCDOT

    @staticmethod
    def cache_entry_ticket(index):
        """The declared cache entry ``index`` (also ``cache_entry.ticket()``)."""
        return Tickets.cache_entry(index)

    def _normalize_prereqs(self, prereqs, fn):
        if prereqs is None:
            return [Tickets.ALL_SOURCES]
        if isinstance(prereqs, tuple) and prereqs and isinstance(prereqs[0], str):
            prereqs = [prereqs]
        out = []
        for t in prereqs:
            if isinstance(t, CacheEntry):
                t = t.ticket()
            if not (isinstance(t, tuple) and t and isinstance(t[0], str)):
                raise TypeError(f"{fn}: {t!r} is not a dependency ticket; use e.g. self.xc_ticket()")
            out.append(t)
        return out

    # ---- events -----------------------------------------------------------------------------
    def _periodic(self, fn, period_sec, offset_sec, event):
        period_sec, offset_sec = float(period_sec), float(offset_sec)
        if not period_sec > 0.0:
            raise ValueError(f"{fn}: period_sec must be > 0, got {period_sec}")
        if offset_sec < 0.0:
            raise ValueError(f"{fn}: offset_sec must be >= 0, got {offset_sec}")
        event.trigger_type = TriggerType.PERIODIC
        self._periodic_events.append((PeriodicEventData(period_sec, offset_sec), event))

    @lists_valid_keywords
    def declare_periodic_discrete_update_event(self, period_sec, offset_sec, update):
        """Every ``period_sec`` from ``offset_sec``: ``update(context, discrete_state)``."""
        self._periodic("declare_periodic_discrete_update_event", period_sec, offset_sec,
                       DiscreteUpdateEvent.from_handler(update))

    def _repeat_discrete_update(self, context, event, groups, num_updates):
        """The Simulator's plain discrete loop asks this before it applies the periodic
        discrete update `event` (one of this system's) in `context`, when nothing but
        that update happens until the boundary time (``framework.simulator``): apply up to
        `num_updates` successive updates in place to `groups` (the context's discrete
        state groups, ndarrays), each exactly as `event` would and leaving them finite,
        and return how many were applied (0: the Simulator applies the next update
        itself). A system overrides it when it can take its updates in one call (a
        discrete MultibodyPlant's contact step); the default applies none."""
        return 0

    @lists_valid_keywords
    def declare_periodic_unrestricted_update_event(self, period_sec, offset_sec, update):
        """Every ``period_sec`` from ``offset_sec``: ``update(context, state)``."""
        self._periodic("declare_periodic_unrestricted_update_event", period_sec, offset_sec,
                       UnrestrictedUpdateEvent.from_handler(update))

    @lists_valid_keywords
    def declare_periodic_publish_event(self, period_sec, offset_sec, publish):
        """Every ``period_sec`` from ``offset_sec``: ``publish(context)``."""
        self._periodic("declare_periodic_publish_event", period_sec, offset_sec,
                       PublishEvent.from_handler(publish))

    @lists_valid_keywords
    def declare_per_step_publish_event(self, publish):
        self._per_step_events.append(PublishEvent.from_handler(publish, TriggerType.PER_STEP))

    @lists_valid_keywords
    def declare_per_step_discrete_update_event(self, update):
        self._per_step_events.append(DiscreteUpdateEvent.from_handler(update, TriggerType.PER_STEP))

    @lists_valid_keywords
    def declare_per_step_unrestricted_update_event(self, update):
        self._per_step_events.append(UnrestrictedUpdateEvent.from_handler(update, TriggerType.PER_STEP))

    @lists_valid_keywords
    def declare_initialization_discrete_update_event(self, update):
        self._initialization_events.append(DiscreteUpdateEvent.from_handler(update, TriggerType.INITIALIZATION))

    @lists_valid_keywords
    def declare_initialization_unrestricted_update_event(self, update):
        self._initialization_events.append(
            UnrestrictedUpdateEvent.from_handler(update, TriggerType.INITIALIZATION))

    @lists_valid_keywords
    def declare_initialization_publish_event(self, publish):
        self._initialization_events.append(PublishEvent.from_handler(publish, TriggerType.INITIALIZATION))

    def declare_initialization_event(self, event):
        """Declare an initialization event given as an event object (Drake's
        ``DeclareInitializationEvent``): a PublishEvent, DiscreteUpdateEvent or
        UnrestrictedUpdateEvent; it is dispatched with trigger type initialization."""
        self._initialization_events.append(
            self._event_copy("declare_initialization_event", event, TriggerType.INITIALIZATION))

    def declare_per_step_event(self, event):
        """Declare a per-step event given as an event object (Drake's ``DeclarePerStepEvent``)."""
        self._per_step_events.append(
            self._event_copy("declare_per_step_event", event, TriggerType.PER_STEP))

    def declare_periodic_event(self, period_sec, offset_sec, event):
        """Declare a periodic event given as an event object (Drake's
        ``DeclarePeriodicEvent``): every ``period_sec`` from ``offset_sec``."""
        self._periodic("declare_periodic_event", period_sec, offset_sec,
                       self._event_copy("declare_periodic_event", event, TriggerType.PERIODIC))

    def _event_copy(self, fn, event, trigger_type):
        """A copy of the user's event object with the trigger type the declaration implies."""
        if not isinstance(event, (PublishEvent, DiscreteUpdateEvent, UnrestrictedUpdateEvent)):
            raise TypeError(
                f"{fn}: system '{self._name}': event must be a PublishEvent, "
                f"DiscreteUpdateEvent or UnrestrictedUpdateEvent, got {type(event).__name__}")
        return event.with_trigger_type(trigger_type)

    @lists_valid_keywords
    def declare_forced_publish_event(self, publish):
        self._forced_publish_events.append(PublishEvent.from_handler(publish, TriggerType.FORCED))

    @lists_valid_keywords
    def declare_forced_discrete_update_event(self, update):
        self._forced_discrete_events.append(DiscreteUpdateEvent.from_handler(update, TriggerType.FORCED))

    @lists_valid_keywords
    def declare_forced_unrestricted_update_event(self, update):
        self._forced_unrestricted_events.append(UnrestrictedUpdateEvent.from_handler(update, TriggerType.FORCED))

    @lists_valid_keywords
    def make_witness_function(self, description, direction_type=None, calc=None, e=None, *,
                              direction=None, event=None):
        """A witness function ``calc(context) -> float`` triggering event ``e`` (optional);
        ``direction_type`` is a WitnessFunctionDirection or its snake_case name (pydrake's
        keywords; ``direction=`` and ``event=`` are accepted too)."""
        if direction_type is None:
            direction_type = direction
        if e is None:
            e = event
        if not callable(calc):
            raise TypeError(f"make_witness_function: calc for {description!r} is not callable")
        w = WitnessFunction(self, description, as_direction(direction_type), calc, e)
        self._witnesses.append(w)
        return w

    def do_get_witness_functions(self, context):
        """Witness functions active in ``context``; default: all made by this system."""
        return list(self._witnesses)

    def get_witness_functions(self, context):
        return self.do_get_witness_functions(context)

    def get_periodic_events(self):
        return list(self._periodic_events)

    def get_unique_periodic_discrete_update_attribute(self):
        """The PeriodicEventData (period_sec(), offset_sec()) shared by every periodic
        discrete update of this system, or None when it has none or several timings
        (Drake's GetUniquePeriodicDiscreteUpdateAttribute)."""
        timings = {t for t, e in self._periodic_events if e.kind == "discrete"}
        return next(iter(timings)) if len(timings) == 1 else None

    def is_difference_equation_system(self):
        """``(True, period)`` when the system is x[n+1] = f(n, x[n], u[n]): one discrete
        state group, no continuous or abstract state, and one periodic discrete update
        timing with offset 0; ``(False, 0.0)`` otherwise (pydrake's tuple form of
        IsDifferenceEquationSystem)."""
        timing = self.get_unique_periodic_discrete_update_attribute()
        if (self.num_continuous_states() or self._xa_model or len(self._xd_model) != 1
                or timing is None or timing.offset_sec() != 0.0):
            return False, 0.0
        return True, timing.period_sec()

    def is_differential_equation_system(self):
        """True when the system has no discrete or abstract state and only vector inputs
        (Drake's IsDifferentialEquationSystem)."""
        return not (self._xd_model or self._xa_model) and all(
            p.get_data_type() == VECTOR for p in self._input_ports)

    def eval_unique_periodic_discrete_update(self, context):
        """The discrete state after this system's periodic discrete updates at ``context``
        (a new DiscreteValues; ``context`` is unchanged). Drake's
        EvalUniquePeriodicDiscreteUpdate (computed, not cached).

        Raises
        ------
        ValueError
            When the periodic discrete updates do not share one period and offset.
        """
        fn = "eval_unique_periodic_discrete_update"
        ctx = context if context._system is self else self._context_from(context, fn)
        if self.get_unique_periodic_discrete_update_attribute() is None:
            raise ValueError(f"{fn}: system '{self._name}' must have periodic discrete updates "
                             "of one single period and offset")
        values = DiscreteValues([np.array(ctx.get_discrete_state(i), dtype=float)
                                 for i in range(ctx.num_discrete_state_groups())])
        for _, event in self._periodic_events:
            if event.kind == "discrete" and event.callback is not None:
                event.callback(ctx, values)
        return values

    # ---- structure --------------------------------------------------------------------------
    def _has_feedthrough(self, input_index, output_index):
        inp = self.get_input_port(input_index)
        out = self.get_output_port(output_index)
        return self._depends_on_input(out._prerequisites, inp.get_index(), set())

    def _depends_on_input(self, prereqs, i, seen):
        for t in prereqs:
            kind = t[0]
            if kind in ("all_sources", "all_inputs"):
                return True
            if kind == "u" and t[1] == i:
                return True
            if kind == "cache" and t[1] not in seen:
                seen.add(t[1])
                if self._depends_on_input(self._cache_decls[t[1]]._prerequisites, i, seen):
                    return True
        return False

    # ---- dynamics ---------------------------------------------------------------------------
    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Optional exact linearization hook used by ``linearize``.

        Return ``(A, B, C, D)`` of this system at ``context`` with respect to its own state
        (continuous, or all discrete groups concatenated) and its vector inputs/outputs (all
        ports concatenated in port order when an index is None), or None when no exact
        linearization is available (``linearize`` then falls back to finite differences).
        See ``framework/primitives/_linearization.py``.
        """
        return None

    def do_calc_time_derivatives(self, context, derivatives):
        """Override to write ẋ into ``derivatives`` (systems with continuous state)."""
        if self.num_continuous_states():
            raise NotImplementedError(
                f"system '{self._name}' ({type(self).__name__}) declares continuous state but "
                f"does not override do_calc_time_derivatives")

    def calc_time_derivatives(self, context, derivatives):
        ctx = self._check_context(context, "calc_time_derivatives")
        holder = self._new_derivatives()
        self.do_calc_time_derivatives(ctx, holder)
        _write_derivatives(self, holder._data, derivatives)

    def _new_derivatives(self):
        holder = ContinuousStateDerivatives._wrap(np.zeros(self.num_continuous_states()))
        holder._nq, holder._nv, holder._nz = self._nq, self._nv, self._nz
        return holder

    def eval_time_derivatives(self, context):
        ctx = context if context._system is self else self._context_from(
            context, "eval_time_derivatives")
        entry = ctx.deriv_entry
        if entry.valid:
            return entry.ro
        if ctx._root.cache_frozen:
            raise frozen_cache_error(entry)
        self.do_calc_time_derivatives(ctx, ctx.deriv_holder)
        entry.valid = entry.enabled
        ctx._root.validations += 1
        return entry.ro

    def do_map_velocity_to_qdot(self, context, v):
        if self._nq != self._nv:
            raise NotImplementedError(
                f"system '{self._name}' has nq={self._nq} != nv={self._nv} and must override "
                f"do_map_velocity_to_qdot")
        return np.array(v, dtype=float)

    def do_map_qdot_to_velocity(self, context, qdot):
        if self._nq != self._nv:
            raise NotImplementedError(
                f"system '{self._name}' has nq={self._nq} != nv={self._nv} and must override "
                f"do_map_qdot_to_velocity")
        return np.array(qdot, dtype=float)

    def map_velocity_to_qdot(self, context, v):
        ctx = self._context_from(context, "map_velocity_to_qdot")
        v = np.asarray(v, dtype=float).reshape(-1)
        if v.size != self._nv:
            raise ValueError(
                f"map_velocity_to_qdot: v has size {v.size}, expected nv = {self._nv} for "
                f"system '{self._name}'")
        return self.do_map_velocity_to_qdot(ctx, v)

    def map_qdot_to_velocity(self, context, qdot):
        ctx = self._context_from(context, "map_qdot_to_velocity")
        qdot = np.asarray(qdot, dtype=float).reshape(-1)
        if qdot.size != self._nq:
            raise ValueError(
                f"map_qdot_to_velocity: qdot has size {qdot.size}, expected nq = {self._nq} for "
                f"system '{self._name}'")
        return self.do_map_qdot_to_velocity(ctx, qdot)

    # ---- context construction ---------------------------------------------------------------
    def _make_context_tree(self):
        ctx = LeafContext(self)
        ctx._xd = [m.copy() for m in self._xd_model]
        ctx._xa = [m.clone() for m in self._xa_model]
        ctx._p = [m.copy() for m in self._p_model]
        ctx._pa = [m.clone() for m in self._pa_model]
        ctx._make_trackers(len(self._xd_model), len(self._xa_model), len(self._p_model),
                           len(self._pa_model), len(self._input_ports))
        return ctx

    def _trackers_for(self, ctx, ticket):
        kind = ticket[0]
        if kind == "nothing":
            return []
        if kind in ("time", "accuracy"):
            return [getattr(ctx._root, kind + "_tracker")]
        if kind in _INDEXED_TICKETS:
            attr, what = _INDEXED_TICKETS[kind]
            trackers = getattr(ctx, attr)
            i = ticket[1]
            if not 0 <= i < len(trackers):
                raise PortError(
                    f"system '{self._name}': {what}_ticket({i}) names no {what.replace('_', ' ')}; "
                    f"the system has {len(trackers)}")
            return [trackers[i]]
        if kind == "xcdot":
            return [ctx.deriv_entry]
        return [getattr(ctx, _AGGREGATE_TICKETS[kind])]

    def _create_entries(self, ctx):
        for decl in self._cache_decls:
            storage = decl._alloc()
            holder = BasicVector._wrap(storage) if isinstance(storage, np.ndarray) else Value(storage)
            ctx.cache_entries.append(CacheEntryValue(storage, decl._description, holder))
            ctx.cache_entries[-1].enabled = not decl._disabled_by_default
        for port in self._output_ports:
            storage = port._alloc()
            if port._kind == VECTOR:
                storage = np.asarray(storage, dtype=float)
                holder = BasicVector._wrap(storage)
            else:
                holder = as_value(storage)
                storage = holder._value
            ctx.out_entries.append(CacheEntryValue(storage, f"output '{port.get_name()}'", holder))
            ctx.out_entries[-1].enabled = not port.cache_entry().is_disabled_by_default()
        holder = self._new_derivatives()
        ctx.deriv_holder = holder
        ctx.deriv_entry = CacheEntryValue(holder._data, "time derivatives", holder)
        ctx.deriv_entry.ro = as_vector_base(holder._data, False)   # has Drake's size()
        for decl, entry in zip(self._cache_decls, ctx.cache_entries):
            for t in decl._prerequisites:
                for trk in self._trackers_for(ctx, t):
                    trk.subscribe(entry)
        for port, entry in zip(self._output_ports, ctx.out_entries):
            for t in port._prerequisites:
                for trk in self._trackers_for(ctx, t):
                    trk.subscribe(entry)
        ctx.trk_sources.subscribe(ctx.deriv_entry)

    def _set_default_leaf(self, ctx):
        if self.num_continuous_states():
            ctx.set_continuous_state(self._default_xc)
        for i, m in enumerate(self._xd_model):
            ctx._xd[i][:] = m
        for i, m in enumerate(self._xa_model):
            ctx._xa[i] = m.clone()
        for i, m in enumerate(self._p_model):
            ctx._p[i][:] = m
        for i, m in enumerate(self._pa_model):
            ctx._pa[i] = m.clone()
        version = ctx._root.version
        for note in (ctx.note_xd, ctx.note_xa, ctx.note_p):
            notify(note, version)
        # Drake's override points, called only when a subclass overrides them (the model
        # values are already in place)
        if type(self).set_default_state is not LeafSystem.set_default_state:
            self.set_default_state(ctx, ctx.get_mutable_state())
        if type(self).set_default_parameters is not LeafSystem.set_default_parameters:
            self.set_default_parameters(ctx, ctx.get_mutable_parameters())
        self.set_default_state_and_parameters(ctx)

    def set_default_state(self, context, state=None):
        """Write the declared default state (model values) into ``state``, a State of this
        system (None: the context's own). Drake's SetDefaultState: override it to give
        other defaults, writing into ``state``."""
        if state is None:
            state = self._check_context(context, "set_default_state").get_mutable_state()
        if self.num_continuous_states():
            state.get_mutable_continuous_state().set_from_vector(self._default_xc)
        for i, m in enumerate(self._xd_model):
            state.get_mutable_discrete_state(i).set_value(m)
        for i, m in enumerate(self._xa_model):
            state.get_mutable_abstract_state(i).set_from(m)

    def set_default_parameters(self, context, parameters):
        """Write the declared default parameters into ``parameters`` (a Parameters of this
        system); Drake's SetDefaultParameters, an override point."""
        for i, m in enumerate(self._p_model):
            parameters.get_mutable_numeric_parameter(i).set_value(m)
        for i, m in enumerate(self._pa_model):
            parameters.get_mutable_abstract_parameter(i).set_from(m)

    def set_default_state_and_parameters(self, context):
        """merganser's hook for subclasses whose defaults are not the declared model
        values: write them into ``context`` (runs after ``set_default_state``)."""

    def _set_random_leaf(self, ctx, generator):
        self._set_default_leaf(ctx)
        self.set_random_state(ctx, ctx.get_mutable_state(), generator)
        self.set_random_parameters(ctx, ctx.get_mutable_parameters(), generator)

    def set_random_state(self, context, state, generator):
        """Override to randomize the state (Drake's SetRandomState): write into ``state``
        (this system's State in ``context``, already at its defaults) drawing from
        ``generator`` (a numpy Generator, e.g. a RandomGenerator). Default: keep them."""

    def set_random_parameters(self, context, parameters, generator):
        """Override to randomize the parameters (Drake's SetRandomParameters): write into
        ``parameters`` (a Parameters). Default: keep the defaults."""


def _producer_alloc(producer):
    """merganser's storage allocator from a ValueProducer: the object its Value holds."""
    return lambda: producer.allocate().get_value()


def _producer_calc(producer):
    """merganser's ``calc(context, storage)`` from a ValueProducer's
    ``calc(context, value)``; a ``set_value`` on the Value replaces the storage."""
    def calc(context, storage):
        value = Value(storage)
        producer.calc(context, value)
        held = value.get_value()
        return None if held is storage else held
    return calc


def _vector_size(fn, size, model):
    """The size of a vector port from ``size`` (an int or a BasicVector) or ``model``."""
    if size is None and model is None:
        raise TypeError(f"{fn}: give size or a model vector")
    if size is None:
        size = model
    if not isinstance(size, (int, np.integer)):
        size = (size.size() if isinstance(size, BasicVector) else np.asarray(size).size)
    size = int(size)
    if size < 0:
        raise ValueError(f"{fn}: size must be >= 0, got {size}")
    return size


#: indexed ticket kind -> (context tracker list, ticket name)
_INDEXED_TICKETS = {
    "xd_i": ("trk_xd", "discrete_state"),
    "xa_i": ("trk_xa", "abstract_state"),
    "p": ("trk_p", "numeric_parameter"),
    "pa": ("trk_pa", "abstract_parameter"),
    "u": ("trk_u", "input_port"),
    "cache": ("cache_entries", "cache_entry"),
}

#: aggregate ticket kind -> context tracker
_AGGREGATE_TICKETS = {
    "q": "trk_q", "v": "trk_v", "z": "trk_z", "xc": "trk_xc", "xd": "trk_xd_all",
    "xa": "trk_xa_all", "all_state": "trk_x", "pn": "trk_pn", "pa_all": "trk_pa_all",
    "all_parameters": "trk_params", "all_inputs": "trk_u_all",
    "all_sources_except_inputs": "trk_nonu", "all_sources": "trk_sources",
}


class _CopyState:
    """Picklable calc of a state output port: copies continuous state (group None) or a
    discrete group."""

    def __init__(self, group):
        self.group = group

    def __call__(self, context, output):
        if self.group is None:
            output.set_value(context.get_continuous_state_vector())
        else:
            output.set_value(context.get_discrete_state(self.group))
