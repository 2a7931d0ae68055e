"""Drake's well-known dependency tickets: a cache entry recomputes exactly when one of
its prerequisites changed (Drake: SystemBase's *_ticket() and the context's trackers)."""

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, LeafSystem

TICKETS = [
    "nothing", "time", "accuracy", "q", "v", "z", "xc", "xd", "xa", "discrete_state0",
    "discrete_state1", "abstract_state0", "abstract_state1", "all_state", "pn", "pa",
    "numeric_parameter0", "numeric_parameter1", "abstract_parameter0", "all_parameters",
    "input_port0", "input_port1", "all_input_ports", "all_sources_except_input_ports",
    "all_sources", "xcdot", "cache_entry0",
]


class Probe(LeafSystem):
    """One cache entry per ticket, each counting its computations."""

    def __init__(self):
        super().__init__()
        self.declare_continuous_state(num_q=2, num_v=2, num_z=1)
        self.declare_discrete_state(2)
        self.declare_discrete_state(3)
        self.declare_abstract_state("a")
        self.declare_abstract_state("b")
        self.declare_numeric_parameter(model_vector=[1.0])
        self.declare_numeric_parameter(model_vector=[2.0, 3.0])
        self.declare_abstract_parameter("p")
        self.declare_vector_input_port(name="u0", size=1)
        self.declare_vector_input_port(name="u1", size=1)
        self.counts = {}
        self.entries = {}
        # the first entry is the target of cache_entry_ticket(0): it depends on q only
        for name in ["base"] + TICKETS:
            self.entries[name] = self.declare_cache_entry(
                name, lambda: np.zeros(1), self._counter(name),
                prerequisites_of_calc=[self._ticket(name)])

    def _ticket(self, name):
        if name == "base":
            return self.q_ticket()
        for stem in ("discrete_state", "abstract_state", "numeric_parameter",
                     "abstract_parameter", "input_port", "cache_entry"):
            if name.startswith(stem):
                return getattr(self, stem + "_ticket")(int(name[len(stem):]))
        return getattr(self, name + "_ticket")()

    def _counter(self, name):
        def calc(context, storage):
            self.counts[name] = self.counts.get(name, 0) + 1
        return calc

    def do_calc_time_derivatives(self, context, derivatives):
        derivatives.set_value(np.zeros(5))


def _recomputed(system, context, write):
    for entry in system.entries.values():
        entry.eval(context)
    before = dict(system.counts)
    write(context)
    for entry in system.entries.values():
        entry.eval(context)
    return {name for name in system.counts if system.counts[name] != before.get(name)}


SOURCES_EXCEPT_U = {"all_sources_except_input_ports", "all_sources"}
STATE = {"all_state"} | SOURCES_EXCEPT_U | {"xcdot"}
XC = {"xc"} | STATE
PARAMS = {"all_parameters"} | SOURCES_EXCEPT_U | {"xcdot"}


@pytest.mark.parametrize("write, expected", [
    (lambda c: c.set_time(1.0), {"time"} | SOURCES_EXCEPT_U | {"xcdot"}),
    (lambda c: c.set_accuracy(1e-3), {"accuracy"} | SOURCES_EXCEPT_U | {"xcdot"}),
    (lambda c: c.get_mutable_continuous_state().get_mutable_generalized_position()
     .set_value([1.0, 2.0]), {"q", "base", "cache_entry0"} | XC),
    (lambda c: c.get_mutable_continuous_state().get_mutable_generalized_velocity()
     .set_value([1.0, 2.0]), {"v"} | XC),
    (lambda c: c.get_mutable_continuous_state().get_mutable_misc_continuous_state()
     .set_value([1.0]), {"z"} | XC),
    (lambda c: c.set_continuous_state(np.arange(5.0)),
     {"q", "v", "z", "base", "cache_entry0"} | XC),
    (lambda c: c.set_discrete_state(0, [1.0, 1.0]), {"discrete_state0", "xd"} | STATE),
    (lambda c: c.set_discrete_state(1, [1.0, 1.0, 1.0]), {"discrete_state1", "xd"} | STATE),
    (lambda c: c.set_abstract_state(1, "c"), {"abstract_state1", "xa"} | STATE),
    (lambda c: c.set_numeric_parameter(1, [0.0, 0.0]), {"numeric_parameter1", "pn"} | PARAMS),
    (lambda c: c.set_abstract_parameter(0, "q"), {"abstract_parameter0", "pa"} | PARAMS),
    (lambda c: c.get_system().get_input_port(1).fix_value(c, [4.0]),
     {"input_port1", "all_input_ports", "all_sources", "xcdot"}),
])
def test_entry_recomputes_exactly_when_a_prerequisite_changed(write, expected):
    system = Probe()
    context = system.create_default_context()
    system.get_input_port(0).fix_value(context, [0.0])
    system.get_input_port(1).fix_value(context, [0.0])
    assert _recomputed(system, context, write) == expected


def test_nothing_ticket_computes_once_per_context():
    system = Probe()
    context = system.create_default_context()
    for k in range(3):
        context.set_time(k)
        system.entries["nothing"].eval(context)
    assert system.counts["nothing"] == 1
    other = system.create_default_context()
    system.entries["nothing"].eval(other)
    assert system.counts["nothing"] == 2


def test_writing_velocities_keeps_position_entry_and_its_value():
    system = Probe()
    context = system.create_default_context()
    context.get_mutable_continuous_state().get_mutable_generalized_position().set_value([3.0, 4.0])
    xc = context.get_continuous_state()
    np.testing.assert_array_equal(xc.get_generalized_position(), [3.0, 4.0])
    system.entries["q"].eval(context)
    n = system.counts["q"]
    xc_mutable = context.get_mutable_continuous_state()
    xc_mutable.get_mutable_generalized_velocity().set_value([5.0, 6.0])
    system.entries["q"].eval(context)
    assert system.counts["q"] == n
    np.testing.assert_array_equal(context.get_continuous_state_vector(), [3, 4, 5, 6, 0])


def test_tickets_in_a_diagram_follow_the_subsystem_parts():
    builder = DiagramBuilder()
    first = builder.add_system(Probe())
    second = builder.add_system(Probe())
    for system in (first, second):
        for i in range(2):
            builder.export_input(system.get_input_port(i))
    diagram = builder.build()
    root = diagram.create_default_context()
    for i in range(4):
        diagram.get_input_port(i).fix_value(root, [0.0])
    ctx2 = second.get_my_context_from_root(root)
    for system in (first, second):
        system.entries["q"].eval(root)
        system.entries["v"].eval(root)
    counts = (first.counts["q"], second.counts["q"], second.counts["v"])
    # the diagram's [q; v; z] layout: writing the second leaf's v alone
    ctx2.get_mutable_continuous_state().get_mutable_generalized_velocity().set_value([7.0, 8.0])
    for system in (first, second):
        system.entries["q"].eval(root)
        system.entries["v"].eval(root)
    assert (first.counts["q"], second.counts["q"]) == counts[:2]
    assert second.counts["v"] == counts[2] + 1
    np.testing.assert_array_equal(
        root.get_continuous_state().get_generalized_velocity(), [0, 0, 7, 8])
    # the root's q view covers both leaves' positions
    root.get_mutable_continuous_state().get_mutable_generalized_position().set_value([1, 2, 3, 4])
    np.testing.assert_array_equal(ctx2.get_continuous_state().get_generalized_position(), [3, 4])
    assert second.counts["v"] == counts[2] + 1


def test_bad_index_ticket_names_the_ticket():
    class Bad(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_discrete_state(1)
            self.declare_cache_entry("x", lambda: 0.0, lambda c, s: None,
                                     prerequisites_of_calc=[self.discrete_state_ticket(3)])

    with pytest.raises(ValueError, match=r"discrete_state_ticket\(3\)"):
        Bad().create_default_context()
