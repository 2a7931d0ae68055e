"""Force density fields (Drake's ForceDensityField / GravityForceField, issue 18): the
gravity field's density ρ g per reference volume, a user subclass's evaluation, clones and
copies, and the refusals."""

import copy

import numpy as np
import pytest

from merganser.multibody import (
    ForceDensityField, ForceDensityField_, ForceDensityType, GravityForceField,
    GravityForceField_, MultibodyPlant,
)


@pytest.fixture(scope="module")
def context():
    plant = MultibodyPlant(time_step=0.0)
    plant.finalize()
    return plant.create_default_context()


def test_gravity_field_is_rho_g_per_reference_volume(context):
    assert GravityForceField_[float] is GravityForceField
    field = GravityForceField(gravity_vector=[0.0, 0.0, -9.81], mass_density=1200.0)
    assert field.density_type() is ForceDensityType.kPerReferenceVolume
    assert not field.has_parent_system()
    # uniform: the same density everywhere, 1200 kg/m³ × 9.81 m/s² = 11772 N/m³ down
    for p in ([0.0, 0.0, 0.0], [3.0, -2.0, 7.5]):
        np.testing.assert_array_equal(field.evaluate_at(context, p), [0.0, 0.0, -11772.0])
    for other in (field.clone(), copy.copy(field), copy.deepcopy(field)):
        assert type(other) is GravityForceField and other is not field
        np.testing.assert_array_equal(other.evaluate_at(context, [1, 2, 3]), [0, 0, -11772.0])
    with pytest.raises(RuntimeError, match="not owned by any system"):
        field.parent_system_or_throw()
    with pytest.raises(ValueError, match="gravity_vector must be 3 finite values"):
        GravityForceField([0.0, 1.0], 1.0)
    with pytest.raises(ValueError, match=r"evaluate_at: p_WQ must have shape \(3,\)"):
        field.evaluate_at(context, [1.0, 2.0])


def test_user_field_overrides_evaluation_and_clone(context):
    class Radial(ForceDensityField):
        def __init__(self, scale):
            super().__init__()
            self.scale = scale

        def do_evaluate_at(self, context, p_WQ):
            return self.scale * p_WQ

        def do_clone(self):
            return Radial(self.scale)

    assert ForceDensityField_[float] is ForceDensityField
    field = Radial(2.0)
    assert field.density_type() is ForceDensityType.kPerCurrentVolume   # Drake's default
    for f in (field, field.clone(), copy.copy(field), copy.deepcopy(field)):
        np.testing.assert_array_equal(f.evaluate_at(context, [1.0, 2.0, 3.0]), [2.0, 4.0, 6.0])

    class Incomplete(ForceDensityField):
        pass

    with pytest.raises(NotImplementedError, match="Incomplete must override do_evaluate_at"):
        Incomplete().evaluate_at(context, [0, 0, 0])
    with pytest.raises(NotImplementedError, match="must override do_clone"):
        Incomplete().clone()
    with pytest.raises(TypeError, match="density_type must be a ForceDensityType"):
        ForceDensityField("per_current_volume")
