"""pydrake.math's scalar functions: Python's values on floats, C's values where Python
raises, and kept out of the framework's ``import *``."""

import math

import numpy as np
import pytest

from merganser.framework.math import scalar_functions as sf


@pytest.mark.parametrize("name, reference", [
    ("log", math.log), ("abs", math.fabs), ("exp", math.exp), ("sqrt", math.sqrt),
    ("sin", math.sin), ("cos", math.cos), ("tan", math.tan), ("asin", math.asin),
    ("acos", math.acos), ("atan", math.atan), ("sinh", math.sinh), ("cosh", math.cosh),
    ("tanh", math.tanh), ("ceil", math.ceil), ("floor", math.floor),
    ("arcsin", math.asin), ("arccos", math.acos), ("arctan", math.atan),
])
def test_unary_functions_equal_pythons_and_return_floats(name, reference):
    for x in (0.1, -0.7, 2.5):
        if name in ("log", "sqrt") and x < 0 or name in ("asin", "acos", "arcsin",
                                                          "arccos") and x > 1:
            continue
        value = getattr(sf, name)(x)
        assert type(value) is float
        assert value == reference(x)


def test_binary_functions_and_isnan():
    assert sf.min(0.1, 0.2) == 0.1 and sf.max(0.1, 0.2) == 0.2
    assert sf.pow(0.1, 0.2) == 0.1 ** 0.2
    assert sf.atan2(0.1, 0.2) == math.atan2(0.1, 0.2) == sf.arctan2(y=0.1, x=0.2)
    assert sf.isnan(float("nan")) is True and sf.isnan(0.1) is False
    np.testing.assert_allclose(sf.inv([[2.0, 1.0], [0.0, 4.0]]) @ [[2.0, 1.0], [0.0, 4.0]],
                               np.eye(2), rtol=0, atol=1e-15)


def test_domain_errors_and_overflow_give_cs_values_instead_of_raising():
    assert math.isnan(sf.log(-1.0)) and sf.log(0.0) == -math.inf
    assert math.isnan(sf.sqrt(-4.0)) and math.isnan(sf.acos(2.0))
    assert sf.exp(1000.0) == math.inf and sf.cosh(1000.0) == math.inf
    assert math.isnan(sf.pow(-8.0, 1.0 / 3.0)) and sf.pow(10.0, 400.0) == math.inf
    assert sf.ceil(0.2) == 1.0 and type(sf.ceil(0.2)) is float


def test_bad_arguments_name_the_function():
    with pytest.raises(TypeError, match="log: x must be a float, got str"):
        sf.log("one")
    with pytest.raises(TypeError, match="atan2: y must be a float"):
        sf.atan2(None, 1.0)
    with pytest.raises(ValueError, match="inv: X must be a square matrix, got shape \\(2, 3\\)"):
        sf.inv(np.zeros((2, 3)))


def test_builtins_are_not_shadowed_by_import_star_but_pydrake_spelling_has_them():
    namespace = {}
    exec("from merganser.framework import *", namespace)
    assert "abs" not in namespace and "min" not in namespace and "log" not in namespace
    from merganser import framework
    assert framework.log is sf.log and framework.max is sf.max
    namespace = {}
    exec("from merganser.pydrake_spelling import *", namespace)
    assert namespace["isnan"] is sf.isnan and namespace["atan2"] is sf.atan2
