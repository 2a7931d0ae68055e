"""DiagramBuilder as pydrake has it (Drake's documented behaviour, snake_case)."""

import numpy as np
import pytest

from merganser.framework import (Adder, ConstantVectorSource, Diagram, DiagramBuildError,
                                 DiagramBuilder, Gain, PassThrough, Simulator)
from merganser.framework.vector_log_sink import VectorLogSink


def _chain():
    """source -> gain -> pass, gain input also feeds a second gain."""
    builder = DiagramBuilder()
    source = builder.add_named_system("source", ConstantVectorSource([2.0]))
    gain = builder.add_named_system("gain", Gain(k=3.0, size=1))
    through = builder.add_named_system("pass", PassThrough(vector_size=1))
    builder.connect(source.get_output_port(), gain.get_input_port())
    builder.connect(gain.get_output_port(), through.get_input_port())
    return builder, source, gain, through


def test_empty_until_a_system_is_added():
    builder = DiagramBuilder()
    assert builder.empty()
    builder.add_system(Gain(k=1.0))
    assert not builder.empty()


def test_connection_map_maps_inputs_to_their_sources():
    builder, source, gain, through = _chain()
    assert builder.connection_map() == {(gain, 0): (source, 0), (through, 0): (gain, 0)}


def test_get_mutable_systems_lists_the_systems_in_order():
    builder, source, gain, through = _chain()
    systems = builder.get_mutable_systems()
    assert systems == [source, gain, through] and systems[1] is gain
    assert builder.get_mutable_subsystem_by_name("gain") is gain


def test_is_connected_or_exported():
    builder, source, gain, through = _chain()
    adder = builder.add_named_system("adder", Adder(num_inputs=2, size=1))
    builder.export_input(adder.get_input_port(0), "u")
    assert builder.is_connected_or_exported(gain.get_input_port())
    assert builder.is_connected_or_exported(adder.get_input_port(0))
    assert not builder.is_connected_or_exported(adder.get_input_port(1))


def test_disconnect_removes_exactly_that_connection():
    builder, source, gain, through = _chain()
    builder.disconnect(gain.get_output_port(), through.get_input_port())
    assert builder.connection_map() == {(gain, 0): (source, 0)}
    assert not builder.is_connected_or_exported(through.get_input_port())
    with pytest.raises(DiagramBuildError, match="output port 'y' of system 'gain' is not "
                                                "connected to input port 'u' of system 'pass'"):
        builder.disconnect(gain.get_output_port(), through.get_input_port())
    builder.connect(source.get_output_port(), through.get_input_port())   # free again


def test_connect_to_same_follows_a_connection_or_an_export():
    builder, source, gain, through = _chain()
    second = builder.add_named_system("second", Gain(k=5.0, size=1))
    assert builder.connect_to_same(gain.get_input_port(), second.get_input_port()) is True
    assert builder.connection_map()[(second, 0)] == (source, 0)

    adder = builder.add_named_system("adder", Adder(num_inputs=2, size=1))
    builder.export_input(adder.get_input_port(0), "u")
    assert builder.connect_to_same(adder.get_input_port(0), adder.get_input_port(1))
    lonely = builder.add_named_system("lonely", Gain(k=1.0, size=1))
    other = builder.add_named_system("other", Gain(k=1.0, size=1))
    assert builder.connect_to_same(lonely.get_input_port(), other.get_input_port()) is False
    assert not builder.is_connected_or_exported(other.get_input_port())
    builder.export_output(adder.get_output_port(), "sum")
    builder.export_output(second.get_output_port(), "second")
    diagram = builder.build()
    context = diagram.create_default_context()
    diagram.get_input_port(0).fix_value(context, [4.0])
    assert diagram.get_output_port(0).eval(context)[0] == 8.0     # u + u
    assert diagram.get_output_port(1).eval(context)[0] == 10.0    # 5 * source


def test_remove_system_drops_its_connections_and_renumbers_exports():
    builder = DiagramBuilder()
    a = builder.add_named_system("a", Gain(k=2.0, size=1))
    b = builder.add_named_system("b", Gain(k=3.0, size=1))
    c = builder.add_named_system("c", Gain(k=5.0, size=1))
    builder.export_input(a.get_input_port(), "ua")
    builder.export_input(b.get_input_port(), "ub")
    builder.export_input(c.get_input_port(), "uc")
    builder.export_output(a.get_output_port(), "ya")
    builder.export_output(b.get_output_port(), "yb")
    builder.export_output(c.get_output_port(), "yc")
    builder.remove_system(b)
    assert builder.get_systems() == [a, c] and not builder.has_subsystem_named("b")
    assert builder.num_input_ports() == 2 and builder.num_output_ports() == 2
    builder.add_named_system("b", Gain(k=7.0, size=1))        # the name is free again
    builder.remove_system(builder.get_subsystem_by_name("b"))
    diagram = builder.build()
    assert [diagram.get_input_port(i).get_name() for i in range(2)] == ["ua", "uc"]
    assert [diagram.get_output_port(j).get_name() for j in range(2)] == ["ya", "yc"]
    context = diagram.create_default_context()
    diagram.get_input_port(1).fix_value(context, [1.0])
    assert diagram.get_output_port(1).eval(context)[0] == 5.0


def test_remove_system_drops_connections_to_it():
    builder, source, gain, through = _chain()
    builder.remove_system(gain)
    assert builder.connection_map() == {}
    assert not builder.is_connected_or_exported(through.get_input_port())
    with pytest.raises(DiagramBuildError, match="is not in this builder"):
        builder.remove_system(gain)


class Doubler(Diagram):
    """A Diagram subclass filled by build_into."""

    def __init__(self):
        super().__init__()
        builder = DiagramBuilder()
        gain = builder.add_system(Gain(k=2.0, size=1))
        builder.export_input(gain.get_input_port(), "u")
        builder.export_output(gain.get_output_port(), "y")
        builder.build_into(self)


def test_build_into_fills_a_diagram_subclass():
    doubler = Doubler()
    assert isinstance(doubler, Doubler) and len(doubler.get_systems()) == 1
    context = doubler.create_default_context()
    doubler.get_input_port(0).fix_value(context, [1.5])
    assert doubler.get_output_port(0).eval(context)[0] == 3.0
    with pytest.raises(DiagramBuildError, match="already built"):
        DiagramBuilder().build_into(doubler)


def test_build_accepts_unconnected_inputs_for_fix_value_later():
    builder = DiagramBuilder()
    gain = builder.add_system(Gain(k=2.0, size=2))
    builder.export_output(gain.get_output_port(), "y")
    diagram = builder.build()
    context = diagram.create_default_context()
    gain.get_input_port().fix_value(gain.get_my_context_from_root(context), [1.0, 2.0])
    np.testing.assert_array_equal(diagram.get_output_port().eval(context), [2.0, 4.0])


def test_builder_graphviz_shows_systems_connections_and_exports():
    builder, source, gain, through = _chain()
    builder.export_output(through.get_output_port(), "out")
    dot = builder.get_graphviz_string()
    assert dot.startswith("digraph")
    for name in ("source", "gain", "pass", "out"):
        assert name in dot
    assert dot.count("->") == 3                 # two connections and one export


def test_graphviz_max_depth_collapses_nested_diagrams():
    inner = Doubler()
    inner.set_name("doubler")
    builder = DiagramBuilder()
    builder.add_system(inner)
    builder.export_input(inner.get_input_port(0), "u")
    outer = builder.build()
    full = outer.get_graphviz_string()
    collapsed = outer.get_graphviz_string(max_depth=1)
    assert "cluster" in full and "Gain" in full
    assert "Gain" not in collapsed and "doubler" in collapsed
    assert "Gain" not in DiagramBuilder().get_graphviz_string()


def test_diagram_connection_map_equals_the_builders():
    builder, source, gain, through = _chain()
    expected = builder.connection_map()
    diagram = builder.build()
    assert diagram.connection_map() == expected


def test_export_and_find_log_take_pydrakes_keywords():
    builder = DiagramBuilder()
    gain = builder.add_system(Gain(k=3.0, size=1))
    sink = builder.add_system(VectorLogSink(1))
    builder.connect(gain.get_output_port(), sink.get_input_port())
    assert builder.export_input(input=gain.get_input_port(), name="u") == 0
    assert builder.export_output(output=gain.get_output_port(), name="y") == 0
    diagram = builder.build()
    assert diagram.get_input_port(0).get_name() == "u"
    assert diagram.get_output_port(0).get_name() == "y"
    simulator = Simulator(diagram)
    context = simulator.get_mutable_context()
    diagram.get_input_port(0).fix_value(context, [2.0])
    np.testing.assert_array_equal(diagram.get_output_port(0).eval(context), [6.0])
    simulator.advance_to(0.0)
    log = sink.find_log(context=context)
    np.testing.assert_array_equal(log.data()[:, -1], [6.0])
    assert sink.find_mutable_log(context=context) is log


def test_port_getters_take_pydrakes_keywords():
    adder = Adder(2, 3)
    assert adder.get_input_port(port_index=1) is adder.get_input_port(1)
    assert adder.get_input_port(port_name="u0") is adder.get_input_port(0)
    assert adder.get_output_port(port_index=0) is adder.get_output_port()
    assert adder.has_input_port(port_name="u1") and not adder.has_output_port(port_name="u1")
    with pytest.raises(TypeError, match="get_input_port: give the port once"):
        adder.get_input_port(0, port_name="u1")
    builder = DiagramBuilder()
    builder.add_system(adder)
    builder.export_input(adder.get_input_port(0), "a")
    builder.export_input(adder.get_input_port(1), "b")
    builder.export_output(adder.get_output_port(), "sum")
    diagram = builder.build()
    assert diagram.get_input_port(port_name="b") is diagram.get_input_port(1)
    assert diagram.get_output_port(port_name="sum").get_name() == "sum"
