"""Drake's system introspection and cache control, spelled in snake_case: Graphviz
fragments in Drake's layout, SystemVisitor, system pathnames, context-wide and per-entry
cache control, CacheEntry queries, and the construction check of a subclass's
``__init__``."""

import re

import numpy as np
import pytest

from merganser.framework import (Adder, CacheEntryValue, ContextBase, DiagramBuilder, Gain,
                                 LeafSystem, PassThrough, SystemBase, SystemVisitor,
                                 ValueProducer, Value)


def _fan_out_diagram():
    builder = DiagramBuilder()
    adder = builder.add_named_system("adder", Adder(3, 1))
    builder.export_output(adder.get_output_port(), "sum")
    builder.export_input(adder.get_input_port(0), "in0")
    builder.export_input(adder.get_input_port(1), "in1")
    builder.connect_input("in0", adder.get_input_port(2))
    return builder.build(), adder


def test_leaf_graphviz_fragment_names_ports_and_header_as_drake():
    adder = Adder(2, 3)
    adder.set_name("add")
    fragment = adder.get_graphviz_fragment()
    node = fragment.input_ports[0].split(":")[0]
    assert fragment.input_ports == [f"{node}:u0", f"{node}:u1"]
    assert fragment.output_ports == [f"{node}:y0"]
    text = "".join(fragment.fragments)
    assert "<B>Adder</B>" in text and "name=add" in text
    assert '<TD PORT="u1" BORDER="1" >u1</TD>' in text
    # one output against two inputs: the output cell spans both rows
    assert '<TD PORT="y0" BORDER="1" ROWSPAN="2">sum</TD>' in text
    dot = adder.get_graphviz_string()
    assert dot.startswith("digraph _") and dot.endswith("}\n") and text in dot


def test_split_option_draws_inputs_and_outputs_as_two_nodes():
    fragment = Adder(2, 1).get_graphviz_fragment(options={"split": "I/O"})
    text = "".join(fragment.fragments)
    assert fragment.input_ports[0].split(":")[0].endswith("in")
    assert fragment.output_ports[0].split(":")[0].endswith("out")
    assert text.count("(split)") == 2


def test_diagram_graphviz_draws_fan_out_edges_between_port_ids():
    diagram, adder = _fan_out_diagram()
    dot = diagram.get_graphviz_string()
    fragment = diagram.get_graphviz_fragment()
    leaf = adder.get_graphviz_fragment()
    dnode = fragment.input_ports[0].split(":")[0]
    # diagram input 0 feeds adder inputs 0 and 2, input 1 feeds adder input 1
    assert f"{dnode}:0:e -> {leaf.input_ports[0]}:w [color=blue];" in dot
    assert f"{dnode}:0:e -> {leaf.input_ports[2]}:w [color=blue];" in dot
    assert f"{dnode}:1:e -> {leaf.input_ports[1]}:w [color=blue];" in dot
    assert f"{leaf.output_ports[0]}:e -> {fragment.output_ports[0]}:w [color=green];" in dot
    assert len(fragment.input_ports) == 2 and len(fragment.output_ports) == 1
    assert "".join(fragment.fragments) in dot
    # options reach a subsystem through "<its name>/<key>"
    split = diagram.get_graphviz_string(options={"adder/split": "I/O"})
    assert split.count("(split)") == 2 and dot.count("(split)") == 0
    # depth 0: the diagram is drawn as one node, no subsystem inside
    assert "subgraph" not in diagram.get_graphviz_string(max_depth=0)
    with pytest.raises(ValueError):
        diagram.get_graphviz_string(max_depth=-1)


def test_graphviz_override_adds_header_lines():
    class Labelled(PassThrough):
        def do_get_graphviz_fragment(self, params):
            params.header_lines += ["answer=42"]
            return super().do_get_graphviz_fragment(params)

    assert "answer=42" in Labelled(1).get_graphviz_string()
    builder = DiagramBuilder()
    builder.add_system(Labelled(1))
    assert "answer=42" in builder.build().get_graphviz_string()


def test_system_visitor_visits_leaves_and_diagrams():
    inner = DiagramBuilder()
    inner.add_named_system("g", Gain(2.0, 1))
    inner_diagram = inner.build()
    inner_diagram.set_name("inner")
    outer = DiagramBuilder()
    outer.add_named_system("a", Adder(2, 1))
    outer.add_system(inner_diagram)
    top = outer.build()

    class Collect(SystemVisitor):
        def __init__(self):
            self.leaves, self.diagrams = [], []

        def visit_system(self, system):
            self.leaves.append(system.get_name())

        def visit_diagram(self, diagram):
            self.diagrams.append(diagram)
            for s in diagram.get_systems():
                s.accept(self)

    v = Collect()
    top.accept(v)
    assert v.leaves == ["a", "g"]
    assert v.diagrams == [top, inner_diagram]
    with pytest.raises(NotImplementedError):
        Gain(1.0, 1).accept(SystemVisitor())


def test_system_pathname_and_name():
    diagram, adder = _fan_out_diagram()
    assert adder.get_system_pathname() == f"::{diagram.get_name()}::adder"
    assert Adder(1, 1).get_system_name() == "_"
    assert Adder(1, 1).get_system_pathname() == "::_"
    assert isinstance(adder, SystemBase) and isinstance(diagram.create_default_context(),
                                                        ContextBase)


class Counting(LeafSystem):
    """y = 2 u, counting the output computations, with one cache entry u + 1."""

    def __init__(self):
        super().__init__()
        self.calls = 0
        self.u = self.declare_vector_input_port("u", 1)
        self.declare_vector_output_port("y", 1, self._calc, {self.input_port_ticket(0)})
        self.entry = self.declare_cache_entry(
            "u plus one", ValueProducer(allocate=lambda: Value(np.zeros(1)), calc=self._plus),
            prerequisites_of_calc={self.input_port_ticket(0)})

    def _calc(self, context, output):
        self.calls += 1
        output.set_value(2.0 * self.u.eval(context))

    def _plus(self, context, value):
        value.set_value(self.u.eval(context) + 1.0)


def _counting():
    system = Counting()
    ctx = system.create_default_context()
    system.u.fix_value(ctx, [3.0])
    return system, ctx


def test_disable_caching_recomputes_every_evaluation_with_equal_results():
    system, ctx = _counting()
    y = system.get_output_port()
    assert y.eval(ctx)[0] == 6.0 and y.eval(ctx)[0] == 6.0
    assert system.calls == 1
    ctx.disable_caching()
    assert y.eval(ctx)[0] == 6.0 and y.eval(ctx)[0] == 6.0
    assert system.calls == 3
    ctx.enable_caching()
    y.eval(ctx)
    y.eval(ctx)
    assert system.calls == 4
    ctx.set_all_cache_entries_out_of_date()
    y.eval(ctx)
    assert system.calls == 5


def test_frozen_cache_serves_current_values_and_refuses_recomputation():
    system, ctx = _counting()
    y = system.get_output_port()
    y.eval(ctx)
    ctx.freeze_cache()
    assert ctx.is_cache_frozen()
    assert y.eval(ctx)[0] == 6.0            # still current
    system.u.fix_value(ctx, [4.0])          # invalidates y
    with pytest.raises(RuntimeError, match="frozen"):
        y.eval(ctx)
    ctx.unfreeze_cache()
    assert not ctx.is_cache_frozen()
    assert y.eval(ctx)[0] == 8.0


def test_cache_entry_queries_and_per_context_disabling():
    system, ctx = _counting()
    entry = system.entry
    assert entry.prerequisites() == {system.input_port_ticket(0)}
    assert not entry.has_default_prerequisites()
    assert system.get_cache_entry(entry.cache_index()) is entry
    value = entry.get_cache_entry_value(ctx)
    assert isinstance(value, CacheEntryValue) and value is entry.get_mutable_cache_entry_value(ctx)
    assert entry.is_out_of_date(ctx)
    with pytest.raises(RuntimeError, match="out of date"):
        value.get_value_or_throw()
    np.testing.assert_array_equal(entry.eval(ctx), [4.0])
    np.testing.assert_array_equal(value.get_value_or_throw(), [4.0])
    assert entry.eval_abstract(ctx).get_value() is entry.eval(ctx)
    entry.disable_caching(ctx)
    assert entry.is_cache_entry_disabled(ctx) and entry.is_out_of_date(ctx)
    entry.eval(ctx)
    assert entry.is_out_of_date(ctx)        # disabled: never marked current
    entry.enable_caching(ctx)
    entry.eval(ctx)
    assert not entry.is_out_of_date(ctx)


def test_caching_disabled_by_default_applies_to_new_contexts():
    system = Counting()
    port = system.get_output_port()
    assert not port.cache_entry().is_disabled_by_default()
    port.disable_caching_by_default()
    assert port.cache_entry().is_disabled_by_default()
    ctx = system.create_default_context()
    system.u.fix_value(ctx, [1.0])
    port.eval(ctx)
    port.eval(ctx)
    assert system.calls == 2
    assert port.cache_entry().is_cache_entry_disabled(ctx)


def test_forgetting_the_base_init_fails_at_construction():
    class Oops(LeafSystem):
        def __init__(self):
            pass

    with pytest.raises(TypeError, match=re.escape("Oops.__init__ must call LeafSystem.__init__")):
        Oops()


class Forced(LeafSystem):
    """Forced discrete update x ← x + u and forced unrestricted update x ← 2 x."""

    def __init__(self):
        super().__init__()
        self.u = self.declare_vector_input_port("u", 1)
        self.declare_discrete_state([1.0])
        self.declare_forced_discrete_update_event(
            lambda ctx, xd: xd.set_value([ctx.get_discrete_state(0)[0] + self.u.eval(ctx)[0]]))
        self.declare_forced_unrestricted_update_event(
            lambda ctx, state: state.get_mutable_discrete_state().set_value(
                [2.0 * ctx.get_discrete_state(0)[0]]))


def test_calc_forced_updates_write_the_holder_and_leave_the_context():
    system = Forced()
    ctx = system.create_default_context()
    system.u.fix_value(ctx, [0.5])
    values = system.allocate_discrete_variables()
    system.calc_forced_discrete_variable_update(ctx, values)
    assert values.get_value(0)[0] == 1.5 and ctx.get_discrete_state(0)[0] == 1.0
    state = ctx.clone().get_mutable_state()
    system.calc_forced_unrestricted_update(ctx, state)
    assert state.get_discrete_state(0)[0] == 2.0 and ctx.get_discrete_state(0)[0] == 1.0
    # in a diagram, the discrete groups are the leaves'
    builder = DiagramBuilder()
    leaf = builder.add_system(Forced())
    builder.export_input(leaf.u)
    diagram = builder.build()
    dctx = diagram.create_default_context()
    diagram.get_input_port().fix_value(dctx, [3.0])
    values = diagram.allocate_discrete_variables()
    diagram.calc_forced_discrete_variable_update(dctx, values)
    assert values.get_value(0)[0] == 4.0


def test_fix_input_ports_from_copies_values_port_by_port():
    source, target = Counting(), Counting()
    sctx = source.create_default_context()
    tctx = target.create_default_context()
    target.fix_input_ports_from(source, sctx, tctx)     # nothing fixed in sctx
    assert not target.u.has_value(tctx)
    source.u.fix_value(sctx, [2.5])
    target.fix_input_ports_from(source, sctx, tctx)
    assert target.get_output_port().eval(tctx)[0] == 5.0
    with pytest.raises(RuntimeError):
        target.fix_input_ports_from(source, tctx, sctx)   # contexts swapped


def test_feedthrough_validation_and_port_descriptions():
    adder = Adder(2, 1)
    adder.set_name("add")
    assert adder.has_any_direct_feedthrough()
    assert not Forced().has_any_direct_feedthrough()
    adder.validate_context(adder.create_default_context())
    with pytest.raises(RuntimeError, match="::add"):
        adder.validate_context(Forced().create_default_context())
    assert adder.get_input_port(1).get_full_description() == "InputPort[1] (u1) of System ::add (Adder)"
    assert adder.get_output_port().get_full_description() == "OutputPort[0] (sum) of System ::add (Adder)"


def test_implicit_residual_is_proposed_minus_explicit_derivatives():
    class Decay(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_continuous_state(2)

        def do_calc_time_derivatives(self, context, derivatives):
            derivatives.set_value(-3.0 * context.get_continuous_state_vector())

    system = Decay()
    ctx = system.create_default_context()
    ctx.set_continuous_state([1.0, -2.0])
    residual = system.allocate_implicit_time_derivatives_residual()
    assert system.implicit_time_derivatives_residual_size() == 2
    system.calc_implicit_time_derivatives_residual(ctx, [0.5, 0.5], residual)
    np.testing.assert_array_equal(residual, [0.5 + 3.0, 0.5 - 6.0])
    assert system.eval_kinetic_energy(ctx) == 0.0 and system.eval_potential_energy(ctx) == 0.0


def test_port_getters_take_pydrakes_warn_deprecated_keyword():
    adder = Adder(2, 1)
    assert adder.get_input_port(1, warn_deprecated=False) is adder.get_input_port(1)
    assert adder.get_output_port(0, warn_deprecated=False) is adder.get_output_port()
