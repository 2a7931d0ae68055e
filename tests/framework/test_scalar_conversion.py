"""Drake's scalar-conversion surface on a float64-only framework: SystemScalarConverter,
get_system_scalar_converter, to_scalar_type[T] and TemplateSystem."""

import numpy as np
import pytest

from merganser.framework import (Adder, BasicVector, DiagramBuilder, LeafSystem, LeafSystem_,
                                 Simulator, SystemScalarConverter, TemplateSystem)


def test_converter_supports_float_only_and_no_pair():
    converter = SystemScalarConverter()
    assert SystemScalarConverter.SupportedScalars == (float,)
    assert SystemScalarConverter.SupportedConversionPairs == ()
    assert converter.empty()
    assert converter.is_convertible(float, float) is False
    with pytest.raises(TypeError, match="is_convertible: T must be a scalar type, got 3"):
        converter.is_convertible(3, float)


def test_a_system_keeps_the_converter_it_was_given():
    given = SystemScalarConverter()

    class S(LeafSystem):
        def __init__(self):
            LeafSystem.__init__(self, converter=given)
    assert S().get_system_scalar_converter() is given
    adder = Adder(2, 1)
    assert isinstance(adder.get_system_scalar_converter(), SystemScalarConverter)
    assert adder.get_system_scalar_converter() is adder.get_system_scalar_converter()
    with pytest.raises(TypeError, match="converter must be a SystemScalarConverter, got int"):
        LeafSystem(converter=1)


def test_to_scalar_type_refuses_and_maybe_is_none_on_instance_and_class():
    adder = Adder(1, 1)
    adder.set_name("sum")
    with pytest.raises(RuntimeError, match="'sum' .* already float64"):
        adder.to_scalar_type[float]()
    with pytest.raises(RuntimeError, match="cannot be converted to the scalar type AutoDiffXd"):
        Adder.to_scalar_type[type("AutoDiffXd", (), {})](adder)
    assert adder.to_scalar_type_maybe[float]() is None
    assert Adder.to_scalar_type_maybe[float](adder) is None


@TemplateSystem.define("Scale_")
def Scale_(T):
    class Impl(LeafSystem_[T]):
        def _construct(self, gain, converter=None):
            LeafSystem_[T].__init__(self, converter=converter)
            self.gain = gain
            self.declare_vector_input_port("u", BasicVector(1))
            self.declare_vector_output_port("y", BasicVector(1), self.calc)

        def _construct_copy(self, other, converter=None):
            Impl._construct(self, other.gain, converter=converter)

        def calc(self, context, output):
            output.set_value(self.gain * self.get_input_port(0).eval(context))
    return Impl


def test_template_system_builds_the_float_class_with_construct_and_copy():
    Scale = Scale_[None]
    assert Scale is Scale_[float] and Scale.__name__ == "Scale_[float]"
    assert Scale_.is_instantiation(Scale) and Scale_.get_instantiation() == (Scale, (float,))
    s = Scale(3.0)
    assert isinstance(s, LeafSystem)
    assert isinstance(s.get_system_scalar_converter(), SystemScalarConverter)
    copy = Scale(s)
    assert copy.gain == 3.0 and copy is not s
    context = copy.create_default_context()
    copy.get_input_port(0).fix_value(context, [2.0])
    np.testing.assert_array_equal(copy.get_output_port(0).eval(context), [6.0])
    assert Scale_(0.5).gain == 0.5


def test_template_system_simulates_in_a_diagram():
    builder = DiagramBuilder()
    scale = builder.add_system(Scale_[float](2.0))
    builder.export_input(scale.get_input_port(0))
    builder.export_output(scale.get_output_port(0))
    diagram = builder.build()
    simulator = Simulator(diagram)
    diagram.get_input_port(0).fix_value(simulator.get_mutable_context(), [1.5])
    simulator.advance_to(0.1)
    np.testing.assert_array_equal(
        diagram.get_output_port(0).eval(simulator.get_context()), [3.0])


def test_template_system_refuses_other_scalars_and_bad_classes():
    with pytest.raises(RuntimeError, match=r"Scale_\[.*\]: the scalar type is not in T_list"):
        Scale_[int]

    @TemplateSystem.define("Bad_")
    def Bad_(T):
        class Impl(LeafSystem_[T]):
            def __init__(self):
                LeafSystem_[T].__init__(self)
        return Impl
    with pytest.raises(TypeError, match="must define _construct"):
        Bad_[float]
    with pytest.raises(ValueError, match="conversion pair .* is not in T_list"):
        TemplateSystem("X_", T_list=[float], T_pairs=[(float, int)])
