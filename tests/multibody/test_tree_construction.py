"""Tests of building a MultibodyTree: model instances, bodies, frames, joints, actuators,
constraints, name lookups, lifecycle guards and the context accessors of the elements."""

import warnings

import numpy as np
import pytest

from merganser.geometry import RigidTransform, RollPitchYaw, RotationMatrix
from merganser.multibody.math import InertiaValidityWarning, SpatialInertia, UnitInertia
from merganser.multibody.tree import (
    BallRpyJoint,
    ElementLookupError,
    FixedOffsetFrame,
    LinearSpringDamper,
    MultibodyTree,
    PlanarJoint,
    PrismaticJoint,
    PrismaticSpring,
    QuaternionFloatingJoint,
    RevoluteJoint,
    RevoluteSpring,
    RpyFloatingJoint,
    ScrewJoint,
    TreeLifecycleError,
    UniversalJoint,
    WeldJoint,
)
from merganser.multibody.tree.constraints import (
    BallConstraintSpec,
    CouplerConstraintSpec,
    DistanceConstraintSpec,
    WeldConstraintSpec,
)


def box(mass=1.0):
    return SpatialInertia.solid_box_with_mass(mass, 0.1, 0.2, 0.3)


def two_link_tree():
    tree = MultibodyTree()
    upper = tree.add_rigid_body("upper", box())
    lower = tree.add_rigid_body("lower", box())
    shoulder = tree.add_joint(
        RevoluteJoint("shoulder", tree.world_frame(), upper.body_frame(), [0, 1, 0])
    )
    elbow = tree.add_joint(
        RevoluteJoint("elbow", upper.body_frame(), lower.body_frame(), [0, 1, 0])
    )
    return tree, upper, lower, shoulder, elbow


class FakeContext:
    """A stand-in for the plant's Context: just q and v arrays."""

    def __init__(self, nq, nv):
        self.q = np.zeros(nq)
        self.v = np.zeros(nv)


class FakeAccessor:
    """A minimal `StateAccessor` on FakeContext, as the plant will provide."""

    def get_positions(self, context):
        return context.q.copy()

    def get_velocities(self, context):
        return context.v.copy()

    def set_positions_slice(self, context, start, values):
        context.q[start : start + len(values)] = values

    def set_velocities_slice(self, context, start, values):
        context.v[start : start + len(values)] = values

    def get_body_mass(self, context, body):
        return 42.0


# ----------------------------------------------------------------------------- instances
def test_model_instances_are_numbered_like_drake():
    tree = MultibodyTree()
    assert tree.world_model_instance() == 0 and tree.default_model_instance() == 1
    assert tree.get_model_instance_name(0) == "WorldModelInstance"
    assert tree.get_model_instance_name(1) == "DefaultModelInstance"
    assert tree.add_model_instance("robot") == 2
    assert tree.add_model_instance("table") == 3
    assert tree.num_model_instances() == 4
    assert tree.get_model_instance_by_name("table") == 3
    assert tree.has_model_instance_named("robot") and not tree.has_model_instance_named("x")


def test_duplicate_model_instance_name_raises():
    tree = MultibodyTree()
    tree.add_model_instance("robot")
    with pytest.raises(ValueError, match="model instance named 'robot' already exists"):
        tree.add_model_instance("robot")


def test_unknown_model_instance_lookup_lists_valid_names():
    tree = MultibodyTree()
    tree.add_model_instance("robot")
    with pytest.raises(ElementLookupError, match="no model instance named 'robt'.*'robot'"):
        tree.get_model_instance_by_name("robt")
    with pytest.raises(ElementLookupError, match="model_instance 7 is not a valid"):
        tree.get_model_instance_name(7)


# ----------------------------------------------------------------------------- bodies
def test_add_rigid_body_overloads_and_defaults():
    tree = MultibodyTree()
    robot = tree.add_model_instance("robot")
    a = tree.add_rigid_body("a", box(2.0))
    b = tree.add_rigid_body("b", robot, box(3.0))
    c = tree.add_rigid_body("c", robot)
    d = tree.add_rigid_body("d", model_instance=robot, M_BBo_B=box(4.0))
    assert [x.index() for x in (a, b, c, d)] == [1, 2, 3, 4]
    assert [x.model_instance() for x in (a, b, c, d)] == [1, robot, robot, robot]
    assert (a.default_mass(), b.default_mass(), c.default_mass(), d.default_mass()) == (2, 3, 0, 4)
    assert tree.world_body().name() == "world" and tree.world_body().index() == 0
    assert tree.world_frame().is_world_frame() and tree.world_frame().index() == 0
    assert a.body_frame().name() == "a" and a.body_frame().body() is a
    assert tree.get_body_indices(robot) == [2, 3, 4]
    assert tree.num_bodies() == 5 and tree.num_frames() == 5


def test_default_inertia_parameters_match_spatial_inertia():
    tree = MultibodyTree()
    M = SpatialInertia.make_from_central_inertia(2.0, [0.1, -0.2, 0.3], np.diag([0.1, 0.2, 0.25]))
    body = tree.add_rigid_body("b", M)
    p = body.default_inertia_parameters()
    np.testing.assert_allclose(p[:4], [2.0, 0.2, -0.4, 0.6])
    np.testing.assert_allclose(body.default_com(), [0.1, -0.2, 0.3])
    # I_BBo = I_cm + m (|c|² 1 - c cᵀ).
    c = np.array([0.1, -0.2, 0.3])
    I_Bo = np.diag([0.1, 0.2, 0.25]) + 2.0 * (c @ c * np.eye(3) - np.outer(c, c))
    np.testing.assert_allclose(body.default_rotational_inertia_matrix(), I_Bo, atol=1e-15)
    assert body.default_spatial_inertia() is M
    assert tree.add_rigid_body("massless").default_spatial_inertia().get_mass() == 0.0


def test_body_in_world_instance_is_rejected():
    with pytest.raises(ValueError, match="model instance 0 is reserved"):
        MultibodyTree().add_rigid_body("b", 0, box())


def test_duplicate_body_name_in_instance_raises_but_other_instance_is_fine():
    tree = MultibodyTree()
    robot = tree.add_model_instance("robot")
    tree.add_rigid_body("link", box())
    tree.add_rigid_body("link", robot, box())
    with pytest.raises(
        ValueError, match="'DefaultModelInstance' already contains a body named 'link'"
    ):
        tree.add_rigid_body("link", box())


def test_questionable_inertia_warns_and_strict_raises():
    bad = SpatialInertia(1.0, np.zeros(3), UnitInertia(1.0, 0.01, 0.01), skip_validity_check=True)
    with pytest.warns(InertiaValidityWarning, match="'wobbly'"):
        MultibodyTree().add_rigid_body("wobbly", bad)
    with pytest.raises(ValueError, match="'wobbly'.*not physically valid"):
        MultibodyTree(strict_inertia=True).add_rigid_body("wobbly", bad)


def test_valid_inertia_gives_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        MultibodyTree(strict_inertia=True).add_rigid_body("ok", box())


# ----------------------------------------------------------------------------- lookups
def test_ambiguous_name_lookup_lists_instances():
    tree = MultibodyTree()
    left, right = tree.add_model_instance("left"), tree.add_model_instance("right")
    a = tree.add_rigid_body("hand", left, box())
    b = tree.add_rigid_body("hand", right, box())
    with pytest.raises(ElementLookupError, match="2 bodies named 'hand'.*'left', 'right'"):
        tree.get_body_by_name("hand")
    assert tree.get_body_by_name("hand", left) is a
    assert tree.get_body_by_name("hand", right) is b
    assert tree.get_frame_by_name("hand", right) is b.body_frame()
    assert tree.has_body_named("hand") and tree.has_body_named("hand", left)
    assert not tree.has_body_named("hand", tree.default_model_instance())


def test_failed_lookup_lists_valid_names_truncated():
    tree = MultibodyTree()
    for i in range(30):
        tree.add_rigid_body(f"link{i}", box())
    with pytest.raises(
        ElementLookupError, match=r"no body named 'lnk'.*'link0', 'link1'.*\(11 more\)"
    ):
        tree.get_body_by_name("lnk")
    with pytest.raises(
        ElementLookupError, match="no joint named 'j' in model instance 'DefaultModel"
    ):
        tree.get_joint_by_name("j", tree.default_model_instance())


def test_lookup_by_name_finds_every_element_kind():
    tree, _upper, lower, shoulder, elbow = two_link_tree()
    frame = tree.add_frame(
        FixedOffsetFrame("tip", lower.body_frame(), RigidTransform([0, 0, -1.0]))
    )
    actuator = tree.add_joint_actuator("elbow_motor", elbow)
    assert tree.get_body_by_name("lower") is lower
    assert tree.get_joint_by_name("shoulder") is shoulder
    assert tree.get_frame_by_name("tip") is frame
    assert tree.get_joint_actuator_by_name("elbow_motor") is actuator
    assert tree.has_joint_named("elbow") and tree.has_frame_named("tip")
    assert tree.has_joint_actuator_named("elbow_motor") and not tree.has_joint_named("knee")


def test_get_by_index_out_of_range_raises():
    tree, *_ = two_link_tree()
    with pytest.raises(
        ElementLookupError, match="get_joint: index 5 is out of range; there are 2 joints"
    ):
        tree.get_joint(5)
    assert tree.get_body(2).name() == "lower"


# ----------------------------------------------------------------------------- frames
def test_fixed_offset_frame_chain_composes_pose_in_body():
    tree = MultibodyTree()
    body = tree.add_rigid_body("b", box())
    X_BP = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [1.0, 2.0, 3.0])
    X_PF = RigidTransform(RotationMatrix.make_z_rotation(0.7), [0.0, -1.0, 0.5])
    P = tree.add_frame(FixedOffsetFrame("P", body.body_frame(), X_BP))
    F = tree.add_frame(FixedOffsetFrame("F", P, X_PF))
    expected = X_BP.get_as_matrix4() @ X_PF.get_as_matrix4()
    np.testing.assert_allclose(
        F.get_fixed_pose_in_body_frame().get_as_matrix4(), expected, atol=1e-15
    )
    np.testing.assert_allclose(
        F.get_fixed_pose_in_parent_frame().get_as_matrix4(), X_PF.get_as_matrix4()
    )
    assert F.body() is body and F.parent_frame() is P and F.model_instance() == 1
    assert F.index() == 3 and tree.get_frame(3) is F
    assert F.scoped_name() == "DefaultModelInstance::F"
    assert body.body_frame().get_fixed_pose_in_body_frame().is_exactly_identity()


def test_frame_name_clashing_with_body_name_raises():
    tree = MultibodyTree()
    body = tree.add_rigid_body("b", box())
    with pytest.raises(ValueError, match="already contains a frame named 'b'"):
        tree.add_frame(FixedOffsetFrame("b", body.body_frame()))


def test_frame_on_foreign_body_raises():
    tree, other = MultibodyTree(), MultibodyTree()
    body = other.add_rigid_body("b", box())
    with pytest.raises(ValueError, match="does not belong to this plant"):
        tree.add_frame(FixedOffsetFrame("F", body.body_frame()))


# ----------------------------------------------------------------------------- joints
def test_joint_axis_is_normalized_and_zero_axis_raises():
    tree = MultibodyTree()
    body = tree.add_rigid_body("b", box())
    joint = RevoluteJoint("j", tree.world_frame(), body.body_frame(), [0, 3, 4])
    np.testing.assert_allclose(joint.revolute_axis(), [0, 0.6, 0.8])
    with pytest.raises(ValueError, match="axis must be non-zero"):
        PrismaticJoint("p", tree.world_frame(), body.body_frame(), [0, 0, 0])
    with pytest.raises(ValueError, match="axis must be non-zero"):
        ScrewJoint("s", tree.world_frame(), body.body_frame(), [0, 0, 0], 0.1)


@pytest.mark.parametrize(
    "make, type_name, pos_suffixes, vel_suffixes, q0",
    [
        (lambda n, P, C: RevoluteJoint(n, P, C, [0, 0, 1]), "revolute", ["q"], ["w"], [0]),
        (lambda n, P, C: PrismaticJoint(n, P, C, [1, 0, 0]), "prismatic", ["x"], ["v"], [0]),
        (lambda n, P, C: WeldJoint(n, P, C), "weld", [], [], []),
        (
            lambda n, P, C: BallRpyJoint(n, P, C),
            "ball_rpy",
            ["qx", "qy", "qz"],
            ["wx", "wy", "wz"],
            [0, 0, 0],
        ),
        (lambda n, P, C: UniversalJoint(n, P, C), "universal", ["qx", "qy"], ["wx", "wy"], [0, 0]),
        (
            lambda n, P, C: PlanarJoint(n, P, C),
            "planar",
            ["x", "y", "qz"],
            ["vx", "vy", "wz"],
            [0, 0, 0],
        ),
        (lambda n, P, C: ScrewJoint(n, P, C, [0, 0, 1], 0.01), "screw", ["q"], ["w"], [0]),
        (
            lambda n, P, C: QuaternionFloatingJoint(n, P, C),
            "quaternion_floating",
            ["qw", "qx", "qy", "qz", "x", "y", "z"],
            ["wx", "wy", "wz", "vx", "vy", "vz"],
            [1, 0, 0, 0, 0, 0, 0],
        ),
        (
            lambda n, P, C: RpyFloatingJoint(n, P, C),
            "rpy_floating",
            ["qx", "qy", "qz", "x", "y", "z"],
            ["wx", "wy", "wz", "vx", "vy", "vz"],
            [0] * 6,
        ),
    ],
)
def test_joint_types_have_drake_names_and_sizes(make, type_name, pos_suffixes, vel_suffixes, q0):
    tree = MultibodyTree()
    body = tree.add_rigid_body("b", box())
    joint = tree.add_joint(make("j", tree.world_frame(), body.body_frame()))
    assert joint.type_name() == type_name
    assert joint.num_positions() == len(pos_suffixes) and joint.num_velocities() == len(
        vel_suffixes
    )
    assert [joint.position_suffix(i) for i in range(joint.num_positions())] == pos_suffixes
    assert [joint.velocity_suffix(i) for i in range(joint.num_velocities())] == vel_suffixes
    np.testing.assert_array_equal(joint.get_default_positions(), q0)
    assert np.all(joint.position_lower_limits() == -np.inf)
    assert np.all(joint.velocity_upper_limits() == np.inf)
    assert joint.parent_body() is tree.world_body() and joint.child_body() is body
    assert joint.model_instance() == body.model_instance()


def test_joint_damping_per_velocity():
    tree = MultibodyTree()
    b = [tree.add_rigid_body(f"b{i}", box()) for i in range(4)]
    W = tree.world_frame()
    assert RevoluteJoint("r", W, b[0].body_frame(), [0, 0, 1], 0.5).damping() == 0.5
    planar = PlanarJoint("p", W, b[1].body_frame(), [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(planar.default_damping_vector(), [0.1, 0.2, 0.3])
    free = QuaternionFloatingJoint(
        "f", W, b[2].body_frame(), angular_damping=1.0, translational_damping=2.0
    )
    np.testing.assert_array_equal(free.default_damping_vector(), [1, 1, 1, 2, 2, 2])
    with pytest.raises(ValueError, match="damping must be finite and >= 0"):
        RevoluteJoint("bad", W, b[3].body_frame(), [0, 0, 1], -1.0)


def test_joint_position_limits_validate():
    tree = MultibodyTree()
    body = tree.add_rigid_body("b", box())
    joint = RevoluteJoint(
        "j",
        tree.world_frame(),
        body.body_frame(),
        [0, 0, 1],
        pos_lower_limit=-1.0,
        pos_upper_limit=2.0,
    )
    np.testing.assert_array_equal(joint.position_lower_limits(), [-1.0])
    joint.set_position_limits([-0.5], [0.5])
    np.testing.assert_array_equal(joint.position_upper_limits(), [0.5])
    with pytest.raises(ValueError, match="lower limits .* exceed upper limits"):
        joint.set_position_limits([1.0], [0.0])
    with pytest.raises(
        ValueError, match=r"position lower limits has shape \(2,\), expected \(1,\)"
    ):
        joint.set_position_limits([0, 0], [1, 1])


def test_joint_between_frames_of_same_body_raises():
    tree = MultibodyTree()
    body = tree.add_rigid_body("b", box())
    F = tree.add_frame(FixedOffsetFrame("F", body.body_frame()))
    with pytest.raises(ValueError, match="on the same body 'b'"):
        RevoluteJoint("j", F, body.body_frame(), [0, 0, 1])


def test_second_joint_between_same_bodies_raises():
    tree, upper, lower, _shoulder, _elbow = two_link_tree()
    with pytest.raises(ValueError, match="joint 'elbow' already connects bodies"):
        tree.add_joint(PrismaticJoint("slide", lower.body_frame(), upper.body_frame(), [1, 0, 0]))


def test_duplicate_joint_name_raises():
    tree, _upper, lower, _shoulder, _elbow = two_link_tree()
    third = tree.add_rigid_body("third", box())
    with pytest.raises(ValueError, match="already contains a joint named 'elbow'"):
        tree.add_joint(RevoluteJoint("elbow", lower.body_frame(), third.body_frame(), [1, 0, 0]))


def test_joint_with_frame_not_added_raises():
    tree = MultibodyTree()
    body = tree.add_rigid_body("b", box())
    loose = FixedOffsetFrame("loose", body.body_frame())
    other = tree.add_rigid_body("c", box())
    with pytest.raises(ValueError, match="frame_on_parent 'loose' of joint 'j' does not belong"):
        tree.add_joint(RevoluteJoint("j", loose, other.body_frame(), [0, 0, 1]))


def test_weld_frames_is_named_like_drake():
    tree = MultibodyTree()
    body = tree.add_rigid_body("base", box())
    X_FM = RigidTransform([0, 0, 0.5])
    weld = tree.weld_frames(tree.world_frame(), body.body_frame(), X_FM)
    assert weld.name() == "world_welds_to_base" and weld.type_name() == "weld"
    assert tree.get_joint_by_name("world_welds_to_base") is weld
    np.testing.assert_array_equal(weld.X_FM().translation(), [0, 0, 0.5])


def test_set_default_positions_checks_size():
    _tree, _upper, _lower, shoulder, _elbow = two_link_tree()
    shoulder.set_default_angle(0.3)
    assert shoulder.get_default_angle() == 0.3
    with pytest.raises(ValueError, match=r"q has shape \(2,\), expected \(1,\)"):
        shoulder.set_default_positions([1.0, 2.0])


# ----------------------------------------------------------------------------- actuators
def test_actuators_only_on_single_dof_joints():
    tree = MultibodyTree()
    body = tree.add_rigid_body("b", box())
    ball = tree.add_joint(BallRpyJoint("ball", tree.world_frame(), body.body_frame()))
    with pytest.raises(
        ValueError, match="'ball' has 3 degrees of freedom.*single degree-of-freedom"
    ):
        tree.add_joint_actuator("motor", ball)


def test_actuator_properties_and_lifecycle():
    tree, _upper, _lower, shoulder, elbow = two_link_tree()
    motor = tree.add_joint_actuator("motor", elbow, effort_limit=5.0)
    assert motor.joint() is elbow and motor.effort_limit() == 5.0 and motor.num_inputs() == 1
    assert motor.index() == 0 and motor.model_instance() == elbow.model_instance()
    assert tree.add_joint_actuator("free_motor", shoulder).effort_limit() == np.inf
    assert tree.num_actuators() == 2 and tree.num_actuators(1) == 2
    with pytest.raises(TreeLifecycleError, match=r"input_start\(\) requires finalize\(\)"):
        motor.input_start()
    with pytest.raises(ValueError, match="already contains a actuator named 'motor'"):
        tree.add_joint_actuator("motor", shoulder)
    with pytest.raises(ValueError, match="effort_limit must be > 0"):
        tree.add_joint_actuator("weak", shoulder, effort_limit=0.0)


# ----------------------------------------------------------------------------- constraints
def test_constraint_specs_are_recorded():
    tree, upper, lower, shoulder, elbow = two_link_tree()
    i0 = tree.add_coupler_constraint(shoulder, elbow, 2.0, 0.1)
    i1 = tree.add_distance_constraint(upper, [0, 0, 1], lower, [0, 0, -1], 0.5)
    i2 = tree.add_ball_constraint(upper, [0, 0, 1], lower)
    i3 = tree.add_weld_constraint(upper, RigidTransform(), lower, RigidTransform([1.0, 0, 0]))
    assert (i0, i1, i2, i3) == (0, 1, 2, 3) and tree.num_constraints() == 4
    coupler, distance, ball, weld = tree.get_constraint_specs()
    assert coupler == CouplerConstraintSpec(shoulder.index(), elbow.index(), 2.0, 0.1)
    assert isinstance(distance, DistanceConstraintSpec) and distance.distance == 0.5
    assert distance.stiffness == np.inf and distance.body_B_index == lower.index()
    assert isinstance(ball, BallConstraintSpec) and ball.p_BQ is None
    assert isinstance(weld, WeldConstraintSpec)
    np.testing.assert_array_equal(weld.X_BQ[:3, 3], [1.0, 0, 0])


def test_constraint_arguments_are_validated():
    tree, upper, lower, _shoulder, elbow = two_link_tree()
    with pytest.raises(ValueError, match="distance must be finite and > 0"):
        tree.add_distance_constraint(upper, [0, 0, 0], lower, [0, 0, 0], 0.0)
    with pytest.raises(ValueError, match="same body 'upper'"):
        tree.add_ball_constraint(upper, [0, 0, 0], upper)
    with pytest.raises(ValueError, match="same joint 'elbow'"):
        tree.add_coupler_constraint(elbow, elbow, 1.0)


# ----------------------------------------------------------------------------- lifecycle
@pytest.mark.parametrize(
    "call, func, what",
    [
        (lambda t, b, j: t.add_model_instance("x"), "add_model_instance", "model instances"),
        (lambda t, b, j: t.add_rigid_body("x", box()), "add_rigid_body", "bodies"),
        (lambda t, b, j: t.add_frame(FixedOffsetFrame("x", b.body_frame())), "add_frame", "frames"),
        (
            lambda t, b, j: t.add_joint(
                RevoluteJoint("x", b.body_frame(), t.world_frame(), [1, 0, 0])
            ),
            "add_joint",
            "joints",
        ),
        (lambda t, b, j: t.weld_frames(t.world_frame(), b.body_frame()), "weld_frames", "joints"),
        (lambda t, b, j: t.add_joint_actuator("x", j), "add_joint_actuator", "joint actuators"),
        (
            lambda t, b, j: t.add_force_element(RevoluteSpring(j, 0.0, 1.0)),
            "add_force_element",
            "force elements",
        ),
        (
            lambda t, b, j: t.add_coupler_constraint(j, j, 1.0),
            "add_coupler_constraint",
            "constraints",
        ),
        (
            lambda t, b, j: t.add_distance_constraint(b, [0, 0, 0], t.world_body(), [0, 0, 0], 1.0),
            "add_distance_constraint",
            "constraints",
        ),
        (
            lambda t, b, j: t.add_ball_constraint(b, [0, 0, 0], t.world_body()),
            "add_ball_constraint",
            "constraints",
        ),
        (
            lambda t, b, j: t.add_weld_constraint(b, None, t.world_body(), None),
            "add_weld_constraint",
            "constraints",
        ),
        (
            lambda t, b, j: t.set_base_body_joint_type("weld"),
            "set_base_body_joint_type",
            "base body joint type choices",
        ),
    ],
)
def test_adding_after_finalize_is_not_allowed(call, func, what):
    tree, _upper, lower, _shoulder, elbow = two_link_tree()
    tree.finalize()
    message = (
        rf"{func}\(\) after finalize\(\) is not allowed; add all {what} before calling finalize\(\)"
    )
    with pytest.raises(TreeLifecycleError, match=message):
        call(tree, lower, elbow)


@pytest.mark.parametrize(
    "call, func",
    [
        (lambda t, j, b: t.num_positions(), "num_positions"),
        (lambda t, j, b: t.num_velocities(1), "num_velocities"),
        (lambda t, j, b: t.get_position_names(), "get_position_names"),
        (lambda t, j, b: t.get_state_names(), "get_velocity_names|get_position_names"),
        (lambda t, j, b: t.get_actuator_names(), "get_actuator_names"),
        (lambda t, j, b: t.make_actuation_matrix(), "make_actuation_matrix"),
        (lambda t, j, b: t.compiled_model(), "compiled_model"),
        (lambda t, j, b: t.get_default_positions(), "get_default_positions"),
        (lambda t, j, b: t.get_floating_base_bodies(), "get_floating_base_bodies"),
        (lambda t, j, b: j.position_start(), "position_start"),
        (lambda t, j, b: j.velocity_start(), "velocity_start"),
        (lambda t, j, b: b.is_floating(), "is_floating"),
        (lambda t, j, b: b.floating_positions_start(), "floating_positions_start"),
    ],
)
def test_queries_before_finalize_raise(call, func):
    tree, _upper, lower, _shoulder, elbow = two_link_tree()
    with pytest.raises(TreeLifecycleError, match=rf"({func})\(\) requires finalize\(\)"):
        call(tree, elbow, lower)


def test_finalize_twice_raises():
    tree, *_ = two_link_tree()
    tree.finalize()
    with pytest.raises(TreeLifecycleError, match="finalize.. was already called"):
        tree.finalize()


def test_joint_limits_change_after_finalize_as_in_drake():
    tree, _upper, _lower, _shoulder, elbow = two_link_tree()
    tree.finalize()
    elbow.set_position_limits([-1.0], [1.0])
    elbow.set_velocity_limits([-2.0], [3.0])
    elbow.set_acceleration_limits([-4.0], [5.0])
    start = elbow.position_start()
    assert tree.get_position_lower_limits()[start] == -1.0
    assert tree.get_position_upper_limits()[start] == 1.0
    assert (elbow.position_lower_limit(), elbow.position_upper_limit()) == (-1.0, 1.0)
    assert (elbow.velocity_lower_limit(), elbow.velocity_upper_limit()) == (-2.0, 3.0)
    assert (elbow.acceleration_lower_limit(), elbow.acceleration_upper_limit()) == (-4.0, 5.0)
    assert tree.get_velocity_upper_limits()[elbow.velocity_start()] == 3.0
    with pytest.raises(ValueError):
        elbow.set_position_limits([1.0], [0.0])


def test_element_used_before_adding_raises():
    tree = MultibodyTree()
    body = tree.add_rigid_body("b", box())
    joint = RevoluteJoint("j", tree.world_frame(), body.body_frame(), [0, 0, 1])
    with pytest.raises(TreeLifecycleError, match="joint 'j' has not been added"):
        joint.index()
    with pytest.raises(ValueError, match="joint 'j' does not belong to this plant"):
        tree.add_joint_actuator("m", joint)


# ----------------------------------------------------------------------------- force elements
def test_force_elements_are_indexed_after_gravity():
    tree, upper, lower, _shoulder, elbow = two_link_tree()
    assert tree.num_force_elements() == 1 and tree.get_force_element(0) is tree.gravity_field()
    np.testing.assert_array_equal(tree.gravity_field().gravity_vector(), [0, 0, -9.81])
    spring = tree.add_force_element(RevoluteSpring(elbow, 0.1, 3.0))
    assert spring.index() == 1 and spring.joint() is elbow
    with pytest.raises(TypeError, match="joint must be a RevoluteJoint"):
        RevoluteSpring(
            tree.add_joint(
                PrismaticJoint(
                    "p", lower.body_frame(), tree.add_rigid_body("c", box()).body_frame(), [1, 0, 0]
                )
            ),
            0.0,
            1.0,
        )
    with pytest.raises(ValueError, match="free_length must be finite and > 0"):
        LinearSpringDamper(upper, [0, 0, 0], lower, [0, 0, 0], 0.0, 1.0)
    with pytest.raises(ValueError, match="stiffness must be finite and >= 0"):
        PrismaticSpring(
            PrismaticJoint("q", upper.body_frame(), lower.body_frame(), [1, 0, 0]), 0.0, -1.0
        )


def test_gravity_can_be_disabled_per_model_instance_before_finalize():
    tree, _upper, _lower, _shoulder, _elbow = two_link_tree()
    gravity = tree.gravity_field()
    gravity.set_enabled(1, False)
    assert not gravity.is_enabled(1) and gravity.is_enabled(0)
    gravity.set_gravity_vector([0, 0, -1.62])
    np.testing.assert_array_equal(gravity.gravity_vector(), [0, 0, -1.62])
    tree.finalize()
    np.testing.assert_array_equal(gravity.enabled_node_mask(), [1, 0, 0])
    with pytest.raises(TreeLifecycleError, match="set_enabled"):
        gravity.set_enabled(1, True)


# ----------------------------------------------------------------------------- context access
def test_context_accessors_need_a_state_accessor():
    tree, upper, _lower, _shoulder, elbow = two_link_tree()
    tree.finalize()
    with pytest.raises(
        NotImplementedError,
        match=r"RevoluteJoint.get_positions\(context\) needs a MultibodyPlant.*joint .elbow.",
    ):
        elbow.get_angle(FakeContext(2, 2))
    with pytest.raises(NotImplementedError, match="set_mass"):
        upper.set_mass(FakeContext(2, 2), 1.0)


def test_joint_context_accessors_read_and_write_their_slices():
    tree = MultibodyTree()
    b = [tree.add_rigid_body(f"b{i}", box()) for i in range(6)]
    W = tree.world_frame()
    rev = tree.add_joint(RevoluteJoint("rev", W, b[0].body_frame(), [0, 0, 1]))
    pri = tree.add_joint(PrismaticJoint("pri", b[0].body_frame(), b[1].body_frame(), [1, 0, 0]))
    pla = tree.add_joint(PlanarJoint("pla", b[1].body_frame(), b[2].body_frame()))
    scr = tree.add_joint(ScrewJoint("scr", b[2].body_frame(), b[3].body_frame(), [0, 0, 1], 0.02))
    flo = tree.add_joint(QuaternionFloatingJoint("flo", b[3].body_frame(), b[4].body_frame()))
    rpy = tree.add_joint(RpyFloatingJoint("rpy", b[4].body_frame(), b[5].body_frame()))
    tree.finalize()
    tree.set_state_accessor(FakeAccessor())
    ctx = FakeContext(tree.num_positions(), tree.num_velocities())
    rev.set_angle(ctx, 0.5)
    rev.set_angular_rate(ctx, -2.0)
    pri.set_translation(ctx, 0.25)
    pla.set_pose(ctx, [1.0, 2.0], 0.3)
    pla.set_angular_velocity(ctx, 4.0)
    scr.set_translation(ctx, 0.01)  # half a revolution
    X_FM = RigidTransform(RollPitchYaw(0.1, -0.2, 0.3), [1.0, 2.0, 3.0])
    flo.set_pose(ctx, X_FM)
    flo.set_translational_velocity(ctx, [7.0, 8.0, 9.0])
    rpy.set_pose(ctx, X_FM)
    assert rev.get_angle(ctx) == 0.5 and rev.get_angular_rate(ctx) == -2.0
    assert pri.get_translation(ctx) == 0.25
    np.testing.assert_array_equal(pla.get_translation(ctx), [1.0, 2.0])
    assert pla.get_rotation(ctx) == 0.3 and pla.get_angular_velocity(ctx) == 4.0
    assert scr.get_rotation(ctx) == pytest.approx(np.pi)
    np.testing.assert_allclose(
        flo.get_pose(ctx).get_as_matrix4(), X_FM.get_as_matrix4(), atol=1e-14
    )
    np.testing.assert_allclose(rpy.get_angles(ctx), [0.1, -0.2, 0.3], atol=1e-14)
    np.testing.assert_array_equal(flo.get_translational_velocity(ctx), [7.0, 8.0, 9.0])
    # The writes went to the joints' own slices of q and v.
    assert ctx.q[rev.position_start()] == 0.5 and ctx.q[pri.position_start()] == 0.25
    np.testing.assert_array_equal(
        ctx.v[flo.velocity_start() + 3 : flo.velocity_start() + 6], [7, 8, 9]
    )
    np.testing.assert_allclose(
        ctx.q[flo.position_start() : flo.position_start() + 4],
        X_FM.rotation().to_quaternion(),
        atol=1e-15,
    )
    assert upper_mass(tree, ctx) == 42.0


def upper_mass(tree, ctx):
    return tree.get_body_by_name("b0").get_mass(ctx)


def test_quaternion_setter_normalizes_and_rejects_zero():
    tree = MultibodyTree()
    body = tree.add_rigid_body("b", box())
    joint = tree.add_joint(QuaternionFloatingJoint("f", tree.world_frame(), body.body_frame()))
    tree.finalize()
    tree.set_state_accessor(FakeAccessor())
    ctx = FakeContext(7, 6)
    joint.set_quaternion(ctx, [2.0, 0.0, 0.0, 0.0])
    np.testing.assert_array_equal(ctx.q[:4], [1, 0, 0, 0])
    with pytest.raises(ValueError, match="non-zero quaternion"):
        joint.set_quaternion(ctx, [0, 0, 0, 0])
