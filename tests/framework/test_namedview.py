"""namedview (pydrake's containers.namedview) and temp_directory."""

import os

import numpy as np
import pytest

from merganser.framework import namedview, temp_directory


def test_a_named_view_aliases_the_vector_it_wraps():
    State = namedview("State", ["theta", "thetadot"])
    x = np.array([0.1, 0.0])
    s = State(x)
    s.thetadot = 2.0
    assert x.tolist() == [0.1, 2.0] and s.theta == 0.1
    x[0] = -1.0
    assert s.theta == -1.0                              # reads through
    assert np.asarray(s) is x and s[:].base is x        # aliases; np.array copies
    copy = np.array(s)
    copy[0] = 5.0
    assert x[0] == -1.0
    s[:] = 3.0
    assert x.tolist() == [3.0, 3.0] and len(s) == 2 and list(s) == [3.0, 3.0]
    assert str(s) == "State(theta=3.0, thetadot=3.0)" and repr(s) == "<State(theta=3.0, thetadot=3.0)>"
    assert State.get_fields() == ("theta", "thetadot")
    zero = State.Zero()
    assert zero[:].tolist() == [0.0, 0.0] and zero[:] is not x
    with pytest.raises(AttributeError, match="State has no field 'omega'; its fields are theta, "
                                             "thetadot"):
        s.omega = 1.0
    with pytest.raises(ValueError, match="State: value must have 2 entries .* got 3"):
        State([1.0, 2.0, 3.0])


def test_field_names_are_sanitized_as_pydrake_does():
    View = namedview("View", ["1st", "q-dot", "a__b"])
    assert View.get_fields() == ("_1st", "q_dot", "a_b")
    with pytest.raises(ValueError, match="field 'q-dot' is not a valid Python identifier"):
        namedview("View", ["q-dot"], sanitize_field_names=False)
    with pytest.raises(ValueError, match="field 'a' appears twice"):
        namedview("View", ["a", "a"])
    with pytest.raises(ValueError, match="field 'get_fields' is the name of a view method"):
        namedview("View", ["get_fields"])


def test_temp_directory_is_new_and_under_test_tmpdir(tmp_path, monkeypatch):
    monkeypatch.setenv("TEST_TMPDIR", str(tmp_path))
    a, b = temp_directory(), temp_directory()
    assert a != b and os.path.dirname(a) == str(tmp_path) and os.listdir(a) == []
    monkeypatch.setenv("TEST_TMPDIR", str(tmp_path / "missing"))
    with pytest.raises(RuntimeError, match="TEST_TMPDIR=.*missing' is not a directory"):
        temp_directory()
