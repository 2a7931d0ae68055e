"""calc_force_elements_contribution's lazy MultibodyForces (gravity the only force element):
the forces it leaves are, whenever read and whatever happens to the Context before, those
of the state and parameters at the time of the call, as Drake's eager computation.

Expected values: Drake 1.51's reference values (tests/data/reference: poses, inverse
dynamics, gravity forces), and the plant's eager path, the one a MultibodyForces subclass
takes (``EagerForces`` below: the force elements computed in Python into the arrays), bit
for bit; inverse dynamics from lazy forces at the unchanged state puts gravity into the
recursion (equal to the eager value to rounding, and bit for bit the computed-torque
path `calc_generalized_forces_for_acceleration`).
"""

import copy
import pickle
from pathlib import Path

import numpy as np
import pytest
from robot_models import damping_vector, load_reference_model

from merganser.multibody.plant import MultibodyForces, MultibodyPlant
from merganser.multibody.tree.force_elements.linear_spring_damper import LinearSpringDamper
from merganser.multibody.tree.force_elements.revolute_spring import RevoluteSpring

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference"
CASES = ("acrobot", "panda", "solo12")


class EagerForces(MultibodyForces):
    """A MultibodyForces subclass: the plant writes the force elements' forces into it at
    once (its general path), the values the lazy forces must have."""

    __slots__ = ()


def close(actual, expected, tol=1e-9):
    expected = np.asarray(expected, dtype=float)
    scale = max(1.0, float(np.max(np.abs(expected))))
    np.testing.assert_allclose(actual, expected, rtol=0.0, atol=tol * scale)


@pytest.fixture(scope="module", params=CASES)
def case(request):
    plant, instance, _ = load_reference_model(request.param)
    return plant, instance, dict(np.load(REFERENCE / f"{request.param}.npz"))


def set_state(plant, context, ref, k):
    plant.set_positions(context, ref["q"][k])
    plant.set_velocities(context, ref["v"][k])


def both(plant, context):
    """(lazy, eager) forces of the state of `context`."""
    lazy, eager = MultibodyForces(plant), EagerForces(plant)
    plant.calc_force_elements_contribution(context, lazy)
    plant.calc_force_elements_contribution(context, eager)
    return lazy, eager


def assert_same_forces(a, b):
    np.testing.assert_array_equal(a.generalized_forces(), b.generalized_forces())
    np.testing.assert_array_equal(a.body_forces(), b.body_forces())


def drake_gravity_body_forces(plant, instance, ref, k):
    """F_Bo_W (nb, 6) of gravity from Drake's poses X_WB of sample k."""
    g = plant.gravity_field().gravity_vector()
    F = np.zeros((plant.num_bodies(), 6))
    for name, X_WB in zip(ref["body_names"], ref["X_WB"][k]):
        body = plant.get_body_by_name(str(name), instance)
        m = body.default_mass()
        p_BoBcm_W = X_WB[:3, :3] @ body.default_com()
        F[body.index()] = np.concatenate([np.cross(p_BoBcm_W, m * g), m * g])
    return F


# ---- values when read --------------------------------------------------------------------
def test_lazy_forces_read_as_the_eager_ones_and_as_drakes(case):
    plant, instance, ref = case
    context = plant.create_default_context()
    D = damping_vector(plant)
    for k in range(ref["q"].shape[0]):
        set_state(plant, context, ref, k)
        lazy, eager = both(plant, context)
        assert_same_forces(lazy, eager)
        close(lazy.generalized_forces(), -D * ref["v"][k], 1e-12)
        close(lazy.body_forces(), drake_gravity_body_forces(plant, instance, ref, k))


# ---- inverse dynamics --------------------------------------------------------------------
def test_inverse_dynamics_with_lazy_forces_at_the_same_state(case):
    plant, _, ref = case
    context = plant.create_default_context()
    D = damping_vector(plant)
    for k in range(ref["q"].shape[0]):
        set_state(plant, context, ref, k)
        vdot = ref["vdot"][k]
        lazy, eager = both(plant, context)
        tau = plant.calc_inverse_dynamics(context, vdot, lazy)
        tau_eager = plant.calc_inverse_dynamics(context, vdot, eager)
        close(tau, tau_eager, 1e-12)             # gravity in the recursion: rounding
        x = np.concatenate([ref["q"][k], ref["v"][k]])
        np.testing.assert_array_equal(
            tau, plant.calc_generalized_forces_for_acceleration(context, x, vdot))
        # Drake: M v̇ + C v − τ_g + D v
        close(tau, ref["id"][k] - ref["tau_g"][k] + D * ref["v"][k])
        # a second call gives the same; the forces read afterwards are still the eager ones
        np.testing.assert_array_equal(plant.calc_inverse_dynamics(context, vdot, lazy), tau)
        assert_same_forces(lazy, eager)
        # once read, the forces are plain arrays: the eager path's bits
        np.testing.assert_array_equal(plant.calc_inverse_dynamics(context, vdot, lazy),
                                      tau_eager)


@pytest.mark.parametrize("change", ["q", "v", "q and v"])
def test_state_changed_before_inverse_dynamics_uses_the_recorded_state(case, change):
    plant, instance, ref = case
    context = plant.create_default_context()
    D = damping_vector(plant)
    k1, k2 = 2, 7
    set_state(plant, context, ref, k1)
    lazy, eager = both(plant, context)
    if "q" in change:
        plant.set_positions(context, ref["q"][k2])
    if "v" in change:
        plant.set_velocities(context, ref["v"][k2])
    vdot = ref["vdot"][k2]
    tau = plant.calc_inverse_dynamics(context, vdot, lazy)
    np.testing.assert_array_equal(tau, plant.calc_inverse_dynamics(context, vdot, eager))
    assert_same_forces(lazy, eager)
    # Drake's semantics: the forces are those of sample k1 (Drake's poses), whatever the
    # state is now
    close(lazy.body_forces(), drake_gravity_body_forces(plant, instance, ref, k1))
    close(lazy.generalized_forces(), -D * ref["v"][k1], 1e-12)
    if change == "q and v":
        # M v̇ + C v at k2 (Drake) − the generalized forces of k1's forces at k2
        close(tau, ref["id"][k2] - plant.calc_generalized_forces(context, eager))


def test_parameters_changed_before_inverse_dynamics_use_the_recorded_ones():
    plant, instance, ref = (*load_reference_model("panda")[:2],
                            dict(np.load(REFERENCE / "panda.npz")))
    context = plant.create_default_context()
    set_state(plant, context, ref, 3)
    lazy, eager = both(plant, context)
    body = plant.get_body_by_name(str(ref["body_names"][4]), instance)
    body.set_mass(context, 3.0 * body.default_mass())
    vdot = ref["vdot"][3]
    np.testing.assert_array_equal(plant.calc_inverse_dynamics(context, vdot, lazy),
                                  plant.calc_inverse_dynamics(context, vdot, eager))
    assert_same_forces(lazy, eager)
    assert lazy.body_forces()[body.index(), 5] == pytest.approx(
        body.default_mass() * plant.gravity_field().gravity_vector()[2], rel=1e-15)


def test_two_contexts(case):
    plant, _, ref = case
    c1, c2 = plant.create_default_context(), plant.create_default_context()
    set_state(plant, c1, ref, 1)
    set_state(plant, c2, ref, 5)
    lazy, eager = both(plant, c1)
    vdot = ref["vdot"][5]
    np.testing.assert_array_equal(plant.calc_inverse_dynamics(c2, vdot, lazy),
                                  plant.calc_inverse_dynamics(c2, vdot, eager))
    np.testing.assert_array_equal(plant.calc_inverse_dynamics(c1, vdot, lazy),
                                  plant.calc_inverse_dynamics(c1, vdot, eager))
    # one forces object, recomputed from another context: the latest call's state
    lazy2 = MultibodyForces(plant)
    plant.calc_force_elements_contribution(c1, lazy2)
    plant.calc_force_elements_contribution(c2, lazy2)
    _, eager2 = both(plant, c2)
    assert_same_forces(lazy2, eager2)


def test_one_forces_object_across_contexts_and_context_damping(case):
    """One MultibodyForces alternated between two contexts, calls repeated (its kernels
    are bound to the latest context), then a joint damping set in one context: every
    τ equals the eager path's."""
    plant, _, ref = case
    c1, c2 = plant.create_default_context(), plant.create_default_context()
    set_state(plant, c1, ref, 1)
    set_state(plant, c2, ref, 5)
    lazy, eager = MultibodyForces(plant), EagerForces(plant)
    vdot = ref["vdot"][3]
    pairs = ((c1, c1), (c1, c1), (c2, c2), (c2, c2), (c1, c2), (c1, c2), (c2, c1))
    for k, (fe_ctx, id_ctx) in enumerate(pairs):
        set_state(plant, fe_ctx, ref, k)        # a new state in the same context, too
        for _ in range(2):
            plant.calc_force_elements_contribution(fe_ctx, lazy)
            plant.calc_force_elements_contribution(fe_ctx, eager)
            tau = plant.calc_inverse_dynamics(id_ctx, vdot, lazy)
            tau_eager = plant.calc_inverse_dynamics(id_ctx, vdot, eager)
            if fe_ctx is id_ctx:
                close(tau, tau_eager, 1e-12)    # gravity in the recursion: rounding
            else:
                np.testing.assert_array_equal(tau, tau_eager)
            assert_same_forces(lazy, eager)
    joint = next(plant.get_joint(i) for i in plant.get_joint_indices()
                 if plant.get_joint(i).num_velocities() == 1)
    joint.set_damping_vector(c2, np.array([7.0]))
    for ctx in (c1, c2, c1):
        plant.calc_force_elements_contribution(ctx, lazy)
        plant.calc_force_elements_contribution(ctx, eager)
        assert_same_forces(lazy, eager)
        close(plant.calc_inverse_dynamics(ctx, vdot, lazy),
              plant.calc_inverse_dynamics(ctx, vdot, eager), 1e-12)
    v = plant.get_velocities(c2)[joint.velocity_start()]
    plant.calc_force_elements_contribution(c2, lazy)
    assert lazy.generalized_forces()[joint.velocity_start()] == -7.0 * v


def test_lazy_forces_of_another_plant_of_the_same_sizes():
    ref = dict(np.load(REFERENCE / "panda.npz"))
    p1, p2 = load_reference_model("panda")[0], load_reference_model("panda")[0]
    c1, c2 = p1.create_default_context(), p2.create_default_context()
    set_state(p1, c1, ref, 0)
    set_state(p2, c2, ref, 6)
    lazy, eager = both(p1, c1)
    vdot = ref["vdot"][6]
    np.testing.assert_array_equal(p2.calc_inverse_dynamics(c2, vdot, lazy),
                                  p2.calc_inverse_dynamics(c2, vdot, eager))
    assert_same_forces(lazy, eager)


# ---- forces added by the user ------------------------------------------------------------
def test_user_added_forces(case):
    plant, instance, ref = case
    context = plant.create_default_context()
    set_state(plant, context, ref, 4)
    vdot = ref["vdot"][4]
    nb = plant.num_bodies()
    F_user = np.linspace(-1.0, 1.0, 6)
    for add in ("generalized", "body", "both", "add_in_forces"):
        lazy, eager = both(plant, context)
        for forces in (lazy, eager):
            if add in ("generalized", "both"):
                forces.mutable_generalized_forces()[0] += 1.5
            if add in ("body", "both"):
                forces.mutable_body_forces()[nb - 1] += F_user
            if add == "add_in_forces":
                other = MultibodyForces(plant)
                plant.calc_force_elements_contribution(context, other)   # lazy addend
                forces.add_in_forces(other)
        assert_same_forces(lazy, eager)
        np.testing.assert_array_equal(plant.calc_inverse_dynamics(context, vdot, lazy),
                                      plant.calc_inverse_dynamics(context, vdot, eager))
    # the values of add_in_forces: Drake's gravity and damping forces, twice
    close(lazy.generalized_forces(), -2.0 * damping_vector(plant) * ref["v"][4], 1e-12)
    close(lazy.body_forces(), 2.0 * drake_gravity_body_forces(plant, instance, ref, 4))


def test_user_forces_written_into_lazy_forces_then_recomputed(case):
    plant, _, ref = case
    context = plant.create_default_context()
    set_state(plant, context, ref, 8)
    lazy, eager = both(plant, context)
    lazy.mutable_generalized_forces()[:] = 7.0
    plant.calc_force_elements_contribution(context, lazy)     # overwrites, as in Drake
    assert_same_forces(lazy, eager)


def test_set_zero_copy_and_pickle_of_lazy_forces(case):
    plant, _, ref = case
    context = plant.create_default_context()
    set_state(plant, context, ref, 9)
    vdot = ref["vdot"][9]
    for make in (copy.copy, copy.deepcopy, lambda f: pickle.loads(pickle.dumps(f))):
        lazy, eager = both(plant, context)
        assert_same_forces(make(lazy), eager)
        assert_same_forces(lazy, eager)
    lazy = MultibodyForces(plant)
    plant.calc_force_elements_contribution(context, lazy)
    lazy.set_zero()
    np.testing.assert_array_equal(
        plant.calc_inverse_dynamics(context, vdot, lazy),
        plant.calc_inverse_dynamics(context, vdot, MultibodyForces(plant)))
    close(plant.calc_inverse_dynamics(context, vdot, lazy), ref["id"][9])


def test_discrete_plant():
    ref = dict(np.load(REFERENCE / "solo12.npz"))
    plant = load_reference_model("solo12", time_step=1e-3)[0]
    context = plant.create_default_context()
    set_state(plant, context, ref, 2)
    lazy, eager = both(plant, context)
    plant.set_positions(context, ref["q"][3])
    vdot = ref["vdot"][3]
    np.testing.assert_array_equal(plant.calc_inverse_dynamics(context, vdot, lazy),
                                  plant.calc_inverse_dynamics(context, vdot, eager))


# ---- force elements other than gravity, gravity disabled ---------------------------------
def _panda_with(add):
    plant = MultibodyPlant(0.0)
    _, instance, _ = load_reference_model("panda", plant=plant)
    add(plant, instance)
    plant.finalize()
    return plant, instance


def _springs(plant, instance):
    joint = plant.get_joint_by_name("panda_joint2", instance)
    plant.add_force_element(RevoluteSpring(joint, 0.3, 12.0))
    a = plant.get_body_by_name("panda_link1", instance)
    b = plant.get_body_by_name("panda_link5", instance)
    plant.add_force_element(LinearSpringDamper(a, [0.0, 0.0, 0.1], b, [0.0, 0.05, 0.0],
                                               0.4, 50.0, 2.0))


def _no_gravity(plant, instance):
    plant.set_gravity_enabled(instance, False)


@pytest.mark.parametrize("add", [_springs, _no_gravity], ids=["springs", "gravity disabled"])
def test_with_other_force_elements_or_gravity_disabled(add):
    ref = dict(np.load(REFERENCE / "panda.npz"))
    plant, _ = _panda_with(add)
    context = plant.create_default_context()
    for k1, k2 in ((0, 0), (1, 6)):
        set_state(plant, context, ref, k1)
        lazy, eager = both(plant, context)
        set_state(plant, context, ref, k2)
        vdot = ref["vdot"][k2]
        tau = plant.calc_inverse_dynamics(context, vdot, lazy)
        np.testing.assert_array_equal(tau, plant.calc_inverse_dynamics(context, vdot, eager))
        assert_same_forces(lazy, eager)
        if k1 == k2:
            x = np.concatenate([ref["q"][k2], ref["v"][k2]])
            close(tau, plant.calc_generalized_forces_for_acceleration(context, x, vdot), 1e-12)
    if add is _no_gravity:
        assert not np.any(lazy.body_forces())
