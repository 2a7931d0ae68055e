"""System constraints (Drake's SystemConstraint / ExternalSystemConstraint): bounds, calc,
satisfaction checks, the disabled default constraint and clones."""

import numpy as np
import pytest

from merganser.framework import (ExternalSystemConstraint, Integrator, PassThrough,
                                 SystemConstraintBounds, SystemConstraintIndex,
                                 SystemConstraintType)


def test_bounds_are_equality_of_a_size_or_inequality_with_infinite_sides():
    eq = SystemConstraintBounds.equality(2)
    assert eq.type() == SystemConstraintType.kEquality and eq.size() == 2
    np.testing.assert_array_equal(eq.lower(), [0.0, 0.0])
    ineq = SystemConstraintBounds([0.0, -1.0], None)
    assert ineq.type() == SystemConstraintType.kInequality
    np.testing.assert_array_equal(ineq.upper(), [np.inf, np.inf])
    assert SystemConstraintBounds(None, [2.0]).lower()[0] == -np.inf
    assert SystemConstraintBounds().size() == 0
    with pytest.raises(ValueError, match="lower must be <= upper"):
        SystemConstraintBounds([1.0], [0.0])
    with pytest.raises(ValueError, match="equal lower and upper bounds must be 0"):
        SystemConstraintBounds([1.0], [1.0])
    with pytest.raises(ValueError, match="upper has size 1, expected 2"):
        SystemConstraintBounds([0.0, 0.0], [1.0])


def test_external_constraint_evaluates_on_the_systems_context():
    system = Integrator(1)
    assert system.num_constraints() == 0
    index = system.add_external_constraint(ExternalSystemConstraint(
        "x at most 1", SystemConstraintBounds(None, [1.0]),
        lambda s, context: context.get_continuous_state_vector().copy_to_vector()))
    assert index == 0 and isinstance(index, SystemConstraintIndex)
    assert system.num_constraints() == 1
    constraint = system.get_constraint(index)
    assert constraint.description() == "x at most 1" and constraint.get_system() is system
    assert not constraint.is_equality_constraint()
    context = system.create_default_context()
    context.set_continuous_state([0.5])
    np.testing.assert_array_equal(constraint.calc(context), [0.5])
    assert system.check_system_constraints_satisfied(context, 0.0)
    context.set_continuous_state([1.05])
    assert not system.check_system_constraints_satisfied(context, 0.01)
    assert system.check_system_constraints_satisfied(context, 0.1)


def test_equality_constraint_uses_the_tolerance_on_the_absolute_value():
    system = Integrator(1)
    system.add_external_constraint(ExternalSystemConstraint(
        "x is zero", SystemConstraintBounds.equality(1),
        lambda s, context: context.get_continuous_state_vector().copy_to_vector()))
    context = system.create_default_context()
    context.set_continuous_state([-1e-3])
    assert not system.check_system_constraints_satisfied(context, 0.0)
    assert system.check_system_constraints_satisfied(context, 1e-3)


def test_default_external_constraint_is_added_disabled_and_clones_keep_it():
    system = PassThrough(1)
    system.add_external_constraint(ExternalSystemConstraint())
    constraint = system.get_constraint(0)
    assert constraint.description() == "empty (disabled for this scalar type)"
    assert constraint.size() == 0
    clone = system.clone()
    assert clone.num_constraints() == 1
    assert clone.get_constraint(0).get_system() is clone
    assert clone.check_system_constraints_satisfied(clone.create_default_context(), 0.0)


def test_bad_constraint_input_raises_naming_the_call():
    system = Integrator(1)
    with pytest.raises(TypeError, match="constraint must be an ExternalSystemConstraint, got int"):
        system.add_external_constraint(3)
    with pytest.raises(IndexError, match="constraint index 0 is out of range; there are 0"):
        system.get_constraint(0)
    system.add_external_constraint(ExternalSystemConstraint(
        "wrong size", SystemConstraintBounds.equality(2), lambda s, context: [0.0]))
    with pytest.raises(ValueError, match="'wrong size' gave 1 values, expected 2"):
        system.get_constraint(0).calc(system.create_default_context())
    with pytest.raises(ValueError, match="tol must be >= 0"):
        system.get_constraint(0).check_satisfied(system.create_default_context(), -1.0)
