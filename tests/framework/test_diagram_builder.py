"""DiagramBuilder checks: each misuse raises with a message that names the parts involved."""

import pytest

from merganser.framework import DiagramBuildError, DiagramBuilder, LeafSystem, PortError, Simulator


class Block(LeafSystem):
    """u (size n) -> y (size m), direct feedthrough unless ``feedthrough`` is False."""

    def __init__(self, n=1, m=1, feedthrough=True, name=None):
        super().__init__()
        if name:
            self.set_name(name)
        self.declare_vector_input_port("u", n)
        prereqs = None if feedthrough else [self.nothing_ticket()]
        self.declare_vector_output_port("y", m, lambda c, o: o.set_value([0.0] * m), prereqs)


def test_connect_size_mismatch_names_both_systems_ports_and_sizes():
    builder = DiagramBuilder()
    a = builder.add_system(Block(1, 4, name="plant"))
    b = builder.add_system(Block(2, 1, name="pid"))
    with pytest.raises(DiagramBuildError,
                       match="output port 'y' of system 'plant' has size 4 but input port 'u' "
                             "of system 'pid' has size 2"):
        builder.connect(a.get_output_port(), b.get_input_port())


def test_algebraic_loop_is_listed_port_by_port():
    builder = DiagramBuilder()
    a = builder.add_system(Block(name="a"))
    b = builder.add_system(Block(name="b"))
    builder.connect(a.get_output_port(), b.get_input_port())
    builder.connect(b.get_output_port(), a.get_input_port())
    with pytest.raises(DiagramBuildError, match="algebraic loop") as info:
        builder.build()
    message = str(info.value)
    assert "a.output[y]" in message and "b.input[u]" in message
    assert "b.output[y]" in message and "a.input[u]" in message


def test_loop_through_a_non_feedthrough_system_builds():
    builder = DiagramBuilder()
    a = builder.add_system(Block(name="a"))
    b = builder.add_system(Block(feedthrough=False, name="b"))
    builder.connect(a.get_output_port(), b.get_input_port())
    builder.connect(b.get_output_port(), a.get_input_port())
    diagram = builder.build()
    assert len(diagram.get_systems()) == 2


def test_unconnected_required_input_builds_but_the_simulator_names_it():
    builder = DiagramBuilder()
    builder.add_system(Block(name="lonely"))
    diagram = builder.build()          # Drake builds it: the input may be fixed later
    with pytest.raises(PortError, match="input port 'u' of system 'lonely'"):
        Simulator(diagram).initialize()


def test_exported_input_satisfies_the_requirement_and_feeds_through():
    builder = DiagramBuilder()
    a = builder.add_system(Block(name="a"))
    builder.export_input(a.get_input_port(), "u")
    builder.export_output(a.get_output_port(), "y")
    diagram = builder.build()
    assert diagram.has_direct_feedthrough(0, 0)


def test_duplicate_names_raise():
    builder = DiagramBuilder()
    builder.add_system(Block(name="same"))
    with pytest.raises(DiagramBuildError, match="a system named 'same' is already in this builder"):
        builder.add_system(Block(name="same"))
    with pytest.raises(DiagramBuildError, match="'same' is already in this builder"):
        builder.add_named_system("same", Block())


def test_builder_cannot_be_reused():
    builder = DiagramBuilder()
    a = builder.add_system(Block(name="a"))
    builder.export_input(a.get_input_port())
    builder.build()
    assert builder.already_built()
    with pytest.raises(DiagramBuildError, match="may only be used once"):
        builder.add_system(Block())
    with pytest.raises(DiagramBuildError, match="may only be used once"):
        builder.build()


def test_system_in_two_diagrams_is_refused():
    builder = DiagramBuilder()
    a = builder.add_system(Block(name="a"))
    builder.export_input(a.get_input_port())
    builder.build()
    with pytest.raises(DiagramBuildError, match="already belongs to diagram"):
        DiagramBuilder().add_system(a)


def test_input_connected_twice_raises():
    builder = DiagramBuilder()
    a = builder.add_system(Block(name="a"))
    b = builder.add_system(Block(name="b"))
    c = builder.add_system(Block(name="c", feedthrough=False))
    builder.connect(a.get_output_port(), c.get_input_port())
    with pytest.raises(DiagramBuildError, match="already connected"):
        builder.connect(b.get_output_port(), c.get_input_port())


def test_unknown_port_name_lists_valid_names():
    a = Block(name="a")
    with pytest.raises(ValueError, match="no input port named 'x'; valid names: 'u'"):
        a.get_input_port("x")


def test_nested_diagram_evaluates_through_exports():
    inner_builder = DiagramBuilder()
    g = inner_builder.add_system(Block(name="g"))
    inner_builder.export_input(g.get_input_port(), "in")
    inner_builder.export_output(g.get_output_port(), "out")
    inner = inner_builder.build("inner")

    class Const(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_vector_output_port("y", 1, lambda c, o: o.set_value([7.0]))

    class Echo(LeafSystem):
        def __init__(self):
            super().__init__()
            self.u = self.declare_vector_input_port("u", 1)
            self.declare_vector_output_port("y", 1, lambda c, o: o.set_value(2 * self.u.eval(c)))

    outer_builder = DiagramBuilder()
    src = outer_builder.add_system(Const())
    outer_builder.add_system(inner)
    echo = outer_builder.add_system(Echo())
    outer_builder.connect(src.get_output_port(), inner.get_input_port("in"))
    outer_builder.connect(inner.get_output_port("out"), echo.get_input_port())
    outer_builder.export_output(echo.get_output_port(), "y")
    outer = outer_builder.build()
    ctx = outer.create_default_context()
    assert outer.get_output_port("y").eval(ctx)[0] == 0.0
    assert g.get_input_port().eval(g.get_my_context_from_root(ctx))[0] == 7.0
    dot = outer.get_graphviz_string()
    assert "cluster" in dot and "inner" in dot and "->" in dot
