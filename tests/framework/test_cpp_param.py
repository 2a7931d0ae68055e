"""pydrake's cpp_param generics (List, Dict, Optional, Union) and Value of a generic:
the abstract-port pattern ``Value[List[T]]``."""

import ctypes
import typing

import numpy as np
import pytest

from merganser.framework import Dict, LeafSystem, List, Optional, Union, Value
from merganser.framework.cpp_param import get_param_canonical


def test_generics_are_pythons_own_with_canonical_parameters():
    assert List[float] == list[float]
    assert List[np.double] == list[float]
    assert Dict[str, ctypes.c_int32] == dict[str, int]
    assert Optional[int] == typing.Optional[int]
    assert Union[int, str] == typing.Union[int, str]
    assert get_param_canonical((np.double, ctypes.c_uint8, str)) == (float, np.uint8, str)


def test_generic_refuses_the_wrong_number_of_parameters():
    with pytest.raises(RuntimeError, match=r"Dict\[\]: expected exactly 2 type parameter\(s\), got 1"):
        Dict[str]
    with pytest.raises(RuntimeError, match="List.*got 2"):
        List[int, float]


def test_value_of_a_list_holds_an_empty_list_and_checks_the_container():
    cls = Value[List[float]]
    assert cls is Value[list[float]]
    assert cls.__name__ == "Value[list[float]]"
    v = cls()
    assert v.get_value() == []
    assert isinstance(v, cls)
    assert isinstance(Value([1.0, 2.0]), cls)
    assert not isinstance(Value("text"), cls)
    assert Value[Dict[str, int]]().get_value() == {}


def test_value_of_an_optional_holds_none_and_accepts_either():
    cls = Value[Optional[str]]
    assert cls().get_value() is None
    assert isinstance(Value("a"), cls) and isinstance(Value(None), cls)
    assert not isinstance(Value(3), cls)
    assert Value[Union[int, str]]().get_value() == 0


def test_abstract_port_of_a_list_value_carries_the_list():
    class Source(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_abstract_output_port(
                "items", lambda: Value[List[float]](), self.calc)

        def calc(self, context, output):
            output.set_value([1.5, 2.5])

    source = Source()
    assert source.get_output_port(0).eval(source.create_default_context()) == [1.5, 2.5]
