"""Tests of MultibodyTree.finalize(): topology and node order, coordinates, the compiled
arrays (checked by forward kinematics against Drake's reference poses), names, errors
for loops and massless bodies, and the force elements' physics."""

import pickle
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from merganser.geometry import RigidTransform, RollPitchYaw, RotationMatrix
from merganser.multibody.kernels.tree_dynamics import TreeDynamics
from merganser.multibody.math import SpatialInertia
from merganser.multibody.tree import (
    BallRpyJoint,
    FixedOffsetFrame,
    JointType,
    LinearBushingRollPitchYaw,
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
    TopologyError,
    UniversalJoint,
    WeldJoint,
)

DATA = Path(__file__).resolve().parents[1] / "data"
MODELS = DATA / "models"


def box(mass=1.0):
    return SpatialInertia.solid_box_with_mass(mass, 0.1, 0.2, 0.3)


# ------------------------------------------------------------------ reference kinematics
def rotation_about(axis, angle):
    axis = np.asarray(axis, dtype=float)
    return RotationMatrix.make_from_angle_axis(angle, axis / np.linalg.norm(axis)).matrix()


def pose(R=None, p=(0.0, 0.0, 0.0)):
    X = np.eye(4)
    X[:3, :3] = np.eye(3) if R is None else R
    X[:3, 3] = p
    return X


def X_FM_reference(jtype, axis, pitch, q):
    """X_FM(q) of each joint type, written from the joint definitions (plain numpy)."""
    if jtype == JointType.WELD:
        return np.eye(4)
    if jtype == JointType.REVOLUTE:
        return pose(rotation_about(axis, q[0]))
    if jtype == JointType.PRISMATIC:
        return pose(p=axis * q[0])
    if jtype == JointType.BALL_RPY:
        return pose(RollPitchYaw(q).to_rotation_matrix().matrix())
    if jtype == JointType.UNIVERSAL:
        return pose(rotation_about([1, 0, 0], q[0]) @ rotation_about([0, 1, 0], q[1]))
    if jtype == JointType.PLANAR:
        return pose(rotation_about([0, 0, 1], q[2]), [q[0], q[1], 0.0])
    if jtype == JointType.SCREW:
        return pose(rotation_about(axis, q[0]), axis * pitch * q[0] / (2 * np.pi))
    if jtype == JointType.QUATERNION_FLOATING:
        return pose(RotationMatrix(q[:4] / np.linalg.norm(q[:4])).matrix(), q[4:])
    if jtype == JointType.RPY_FLOATING:
        return pose(RollPitchYaw(q[:3]).to_rotation_matrix().matrix(), q[3:])
    raise ValueError(jtype)


def forward_kinematics(model, q):
    """X_WB of every node, (nb, 4, 4), from X_PB = X_PF X_FM(q) X_MB."""
    X_WB = np.zeros((model.nb, 4, 4))
    X_WB[0] = np.eye(4)
    for k in range(1, model.nb):
        qk = q[model.q_start[k] : model.q_start[k] + model.nq_j[k]]
        X_FM = X_FM_reference(model.jtype[k], model.axis[k], model.screw_pitch[k], qk)
        X_WB[k] = X_WB[model.parent[k]] @ model.X_PF[k] @ X_FM @ model.X_MB[k]
    return X_WB


def body_poses(tree, q):
    """X_WB by body index (world excluded), (nbodies - 1, 4, 4)."""
    model = tree.compiled_model()
    X = forward_kinematics(model, q)
    return X[model.node_of_body[1:]]


# ------------------------------------------------------------------ a small URDF reader
def _floats(text, default):
    return np.array([float(x) for x in text.split()]) if text else np.array(default, dtype=float)


def _origin(element):
    origin = element.find("origin") if element is not None else None
    if origin is None:
        return RigidTransform()
    rpy = _floats(origin.get("rpy"), [0, 0, 0])
    return RigidTransform(RollPitchYaw(rpy), _floats(origin.get("xyz"), [0, 0, 0]))


def _inertia(link):
    inertial = link.find("inertial")
    if inertial is None:
        return None
    mass = float(inertial.find("mass").get("value"))
    i = inertial.find("inertia").attrib
    I_cm = np.array(
        [
            [float(i["ixx"]), float(i["ixy"]), float(i["ixz"])],
            [float(i["ixy"]), float(i["iyy"]), float(i["iyz"])],
            [float(i["ixz"]), float(i["iyz"]), float(i["izz"])],
        ]
    )
    X = _origin(inertial)
    R = X.rotation().matrix()
    if mass == 0.0:
        return None
    return SpatialInertia.make_from_central_inertia(mass, X.translation(), R @ I_cm @ R.T)


def add_urdf(tree, path, weld_root=None):
    """Links in file order, then joints in file order (as Drake's parser adds them)."""
    robot = ET.parse(path).getroot()
    instance = tree.add_model_instance(robot.get("name"))
    bodies = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for link in robot.findall("link"):
            name = link.get("name")
            bodies[name] = (
                tree.world_body()
                if name == "world"
                else tree.add_rigid_body(name, instance, _inertia(link))
            )
    for joint in robot.findall("joint"):
        name, kind = joint.get("name"), joint.get("type")
        parent = bodies[joint.find("parent").get("link")]
        child = bodies[joint.find("child").get("link")]
        F = tree.add_frame(
            FixedOffsetFrame(
                f"{name}_F", parent.body_frame(), _origin(joint), model_instance=instance
            )
        )
        axis_element = joint.find("axis")
        axis = _floats(axis_element.get("xyz") if axis_element is not None else None, [1, 0, 0])
        if kind in ("revolute", "continuous"):
            tree.add_joint(RevoluteJoint(name, F, child.body_frame(), axis))
        elif kind == "prismatic":
            tree.add_joint(PrismaticJoint(name, F, child.body_frame(), axis))
        else:
            tree.add_joint(WeldJoint(name, F, child.body_frame()))
    if weld_root is not None:
        tree.weld_frames(tree.world_frame(), bodies[weld_root].body_frame())
    return instance


def reference(name):
    return np.load(DATA / "reference" / f"{name}.npz")


# ------------------------------------------------------------------ the two classic models
def make_acrobot():
    """Drake's Acrobot.urdf by hand: base_link welded, shoulder and elbow about y."""
    tree = MultibodyTree()
    acrobot = tree.add_model_instance("Acrobot")
    base = tree.add_rigid_body("base_link", acrobot)
    upper = tree.add_rigid_body(
        "upper_link",
        acrobot,
        SpatialInertia.make_from_central_inertia(1.0, [0, 0, -0.5], np.diag([1.0, 0.083, 1.0])),
    )
    lower = tree.add_rigid_body(
        "lower_link",
        acrobot,
        SpatialInertia.make_from_central_inertia(1.0, [0, 0, -1.0], np.diag([1.0, 0.33, 1.0])),
    )
    tree.add_joint(WeldJoint("base_weld", tree.world_frame(), base.body_frame()))
    F1 = tree.add_frame(
        FixedOffsetFrame("shoulder_F", base.body_frame(), RigidTransform([0, 0.15, 0]))
    )
    F2 = tree.add_frame(
        FixedOffsetFrame("elbow_F", upper.body_frame(), RigidTransform([0, 0.1, -1.0]))
    )
    shoulder = tree.add_joint(RevoluteJoint("shoulder", F1, upper.body_frame(), [0, 1, 0], 0.1))
    elbow = tree.add_joint(RevoluteJoint("elbow", F2, lower.body_frame(), [0, 1, 0], 0.1))
    tree.add_joint_actuator("elbow", elbow)
    return tree, shoulder, elbow


def make_cart_pole():
    """Drake's cart_pole.sdf by hand: the pole's joint frame M sits 0.5 m above its origin."""
    tree = MultibodyTree()
    cart_pole = tree.add_model_instance("CartPole")
    tiny = SpatialInertia.make_from_central_inertia
    cart = tree.add_rigid_body("Cart", cart_pole, tiny(10.0, np.zeros(3), 1e-20 * np.eye(3)))
    pole = tree.add_rigid_body("Pole", cart_pole, tiny(1.0, np.zeros(3), 1e-20 * np.eye(3)))
    slider = tree.add_joint(
        PrismaticJoint("CartSlider", tree.world_frame(), cart.body_frame(), [1, 0, 0])
    )
    M = tree.add_frame(
        FixedOffsetFrame("PolePin_M", pole.body_frame(), RigidTransform([0, 0, 0.5]))
    )
    pin = tree.add_joint(RevoluteJoint("PolePin", cart.body_frame(), M, [0, -1, 0]))
    tree.add_joint_actuator("CartSlider", slider)
    return tree, slider, pin


def test_acrobot_names_and_poses_match_drake():
    tree, _shoulder, _elbow = make_acrobot()
    model = tree.finalize()
    ref = reference("acrobot")
    assert tree.get_position_names(add_model_instance_prefix=False) == list(ref["position_names"])
    assert tree.get_velocity_names(add_model_instance_prefix=False) == list(ref["velocity_names"])
    assert tree.get_position_names() == ["Acrobot_shoulder_q", "Acrobot_elbow_q"]
    assert [tree.get_body(b).name() for b in range(1, 4)] == list(ref["body_names"])
    for q, X_ref in zip(ref["q"], ref["X_WB"], strict=True):
        np.testing.assert_allclose(body_poses(tree, q), X_ref, atol=1e-12)
    np.testing.assert_array_equal(model.damping, [0.1, 0.1])
    np.testing.assert_array_equal(
        model.jtype, [JointType.WELD, JointType.WELD, JointType.REVOLUTE, JointType.REVOLUTE]
    )
    np.testing.assert_allclose(model.default_inertia[2, :4], [1.0, 0.0, 0.0, -0.5])
    # Ixx about Bo = 1 + m * 0.5²; Iyy = 0.083 + 0.25.
    np.testing.assert_allclose(model.default_inertia[2, 4:7], [1.25, 0.333, 1.0])
    np.testing.assert_array_equal(tree.make_actuation_matrix(), [[0.0], [1.0]])


def test_cart_pole_names_and_poses_match_drake():
    tree, slider, pin = make_cart_pole()
    model = tree.finalize()
    ref = reference("cart_pole")
    assert tree.get_position_names(tree.get_model_instance_by_name("CartPole")) == list(
        ref["position_names"]
    )
    assert tree.get_velocity_names(add_model_instance_prefix=False) == list(ref["velocity_names"])
    assert [tree.get_body(b).name() for b in (1, 2)] == list(ref["body_names"])
    for q, X_ref in zip(ref["q"], ref["X_WB"], strict=True):
        np.testing.assert_allclose(body_poses(tree, q), X_ref, atol=1e-12)
    # X_MB = inverse(X_BM): the pole's origin is 0.5 m below the pin.
    np.testing.assert_allclose(model.X_MB[2][:3, 3], [0, 0, -0.5])
    np.testing.assert_allclose(model.axis[2], [0, -1, 0])
    assert (slider.position_start(), pin.position_start()) == (0, 1)
    assert tree.get_actuator_names() == ["CartPole_CartSlider"]


@pytest.mark.parametrize(
    "name, path, weld_root",
    [
        ("solo12", "example-robot-data/robots/solo_description/robots/solo12.urdf", None),
        ("ur5", "example-robot-data/robots/ur_description/urdf/ur5_robot.urdf", None),
        ("panda", "example-robot-data/robots/panda_description/urdf/panda.urdf", "panda_link0"),
        ("pendulum", "drake/pendulum/Pendulum.urdf", None),
    ],
)
def test_urdf_models_names_and_poses_match_drake(name, path, weld_root):
    tree = MultibodyTree()
    instance = add_urdf(tree, MODELS / path, weld_root)
    tree.finalize()
    ref = reference(name)
    assert tree.get_position_names(instance) == list(ref["position_names"])
    assert tree.get_velocity_names(instance) == list(ref["velocity_names"])
    assert [tree.get_body(b).name() for b in tree.get_body_indices(instance)] == list(
        ref["body_names"]
    )
    for q, X_ref in zip(ref["q"], ref["X_WB"], strict=True):
        np.testing.assert_allclose(body_poses(tree, q), X_ref, atol=1e-12)


@pytest.mark.parametrize("name", ["acrobot", "cart_pole", "solo12", "panda"])
def test_compiled_inertias_give_drakes_mass_matrix(name):
    if name == "acrobot":
        tree = make_acrobot()[0]
    elif name == "cart_pole":
        tree = make_cart_pole()[0]
    else:
        tree = MultibodyTree()
        path = {
            "solo12": "example-robot-data/robots/solo_description/robots/solo12.urdf",
            "panda": "example-robot-data/robots/panda_description/urdf/panda.urdf",
        }[name]
        add_urdf(tree, MODELS / path, "panda_link0" if name == "panda" else None)
    model = tree.finalize()
    dynamics = TreeDynamics(model)
    ref = reference(name)
    for q, M in list(zip(ref["q"], ref["M"], strict=True))[:3]:
        np.testing.assert_allclose(dynamics.mass_matrix(q, model.default_inertia), M, atol=1e-10)


def test_solo_base_is_a_quaternion_floating_base_body():
    tree = MultibodyTree()
    add_urdf(tree, MODELS / "example-robot-data/robots/solo_description/robots/solo12.urdf")
    model = tree.finalize()
    base = tree.get_body_by_name("base_link")
    assert base.is_floating() and base.is_floating_base_body() and base.has_quaternion_dofs()
    assert (base.floating_positions_start(), base.floating_velocities_start()) == (0, 0)
    assert tree.get_floating_base_bodies() == {base.index()}
    joint = tree.get_joint(tree.num_joints() - 1)
    assert joint.name() == "$world_base_link" and joint.is_ephemeral()
    assert joint.type_name() == "quaternion_floating" and joint.child_body() is base
    assert model.jtype[1] == JointType.QUATERNION_FLOATING
    np.testing.assert_array_equal(tree.get_default_positions()[:7], [1, 0, 0, 0, 0, 0, 0])
    assert not tree.get_body_by_name("FL_FOOT").is_floating()


# ------------------------------------------------------------------ node order
def test_bodies_added_out_of_order_are_numbered_depth_first():
    tree = MultibodyTree()
    c = tree.add_rigid_body("c", box())  # body 1, grandchild
    b = tree.add_rigid_body("b", box())  # body 2, child of a
    a = tree.add_rigid_body("a", box())  # body 3, child of world
    d = tree.add_rigid_body("d", box())  # body 4, second child of a
    tree.add_joint(RevoluteJoint("b_c", b.body_frame(), c.body_frame(), [1, 0, 0]))
    tree.add_joint(PrismaticJoint("a_d", a.body_frame(), d.body_frame(), [0, 1, 0]))
    tree.add_joint(BallRpyJoint("a_b", a.body_frame(), b.body_frame()))
    tree.add_joint(RevoluteJoint("world_a", tree.world_frame(), a.body_frame(), [0, 0, 1]))
    model = tree.finalize()
    # a's children in joint-creation order: d (joint 1) before b (joint 2).
    assert [tree.get_body(i).name() for i in model.body_index] == ["world", "a", "d", "b", "c"]
    np.testing.assert_array_equal(model.parent, [-1, 0, 1, 1, 3])
    np.testing.assert_array_equal(model.node_of_body, [0, 4, 3, 1, 2])
    np.testing.assert_array_equal(model.q_start, [0, 0, 1, 2, 5])
    assert tree.get_position_names(add_model_instance_prefix=False) == [
        "world_a_q",
        "a_d_x",
        "a_b_qx",
        "a_b_qy",
        "a_b_qz",
        "b_c_q",
    ]
    assert tree.get_joint_by_name("b_c").velocity_start() == 5


def test_free_bodies_follow_drakes_base_body_order():
    tree = MultibodyTree()
    lone1 = tree.add_rigid_body("lone1", box())
    small_root = tree.add_rigid_body("small_root", box())
    big_root = tree.add_rigid_body("big_root", box())
    leaves = [tree.add_rigid_body(f"leaf{i}", box()) for i in range(3)]
    arm = tree.add_rigid_body("arm", box())
    tree.add_joint(
        RevoluteJoint("small", small_root.body_frame(), leaves[0].body_frame(), [1, 0, 0])
    )
    tree.add_joint(RevoluteJoint("big1", big_root.body_frame(), leaves[1].body_frame(), [1, 0, 0]))
    tree.add_joint(RevoluteJoint("big2", big_root.body_frame(), leaves[2].body_frame(), [1, 0, 0]))
    tree.add_joint(RevoluteJoint("arm", tree.world_frame(), arm.body_frame(), [1, 0, 0]))
    model = tree.finalize()
    names = [tree.get_body(i).name() for i in model.body_index]
    # World-jointed trees first, then articulated free trees (most children first), then
    # lone free bodies by index.
    assert names == ["world", "arm", "big_root", "leaf1", "leaf2", "small_root", "leaf0", "lone1"]
    ephemeral = [tree.get_joint(i).name() for i in range(4, tree.num_joints())]
    assert ephemeral == ["$world_big_root", "$world_small_root", "$world_lone1"]
    assert tree.get_floating_base_bodies() == {big_root.index(), small_root.index(), lone1.index()}


ALL_JOINTS = [
    ("rev", lambda P, C: RevoluteJoint("rev", P, C, [1, 2, 3])),
    ("pri", lambda P, C: PrismaticJoint("pri", P, C, [0, 1, 1])),
    ("ball", lambda P, C: BallRpyJoint("ball", P, C)),
    ("uni", lambda P, C: UniversalJoint("uni", P, C)),
    ("pla", lambda P, C: PlanarJoint("pla", P, C)),
    ("scr", lambda P, C: ScrewJoint("scr", P, C, [1, 0, 0], 0.05)),
    ("quat", lambda P, C: QuaternionFloatingJoint("quat", P, C)),
    ("rpy", lambda P, C: RpyFloatingJoint("rpy", P, C)),
    (
        "weld",
        lambda P, C: WeldJoint(
            "weld", P, C, RigidTransform(RollPitchYaw(0.3, 0.2, 0.1), [0, 0, 1])
        ),
    ),
]


def make_branching_tree(rng):
    """Every joint type, on a branching tree with offset frames on both sides."""
    tree = MultibodyTree()
    bodies = [tree.world_body()]
    for i, (name, make) in enumerate(ALL_JOINTS):
        body = tree.add_rigid_body(f"body_{name}", box(1.0 + i))
        parent = bodies[[0, 1, 1, 2, 0, 5, 3, 7, 8][i]]
        X_PF = RigidTransform(RollPitchYaw(*rng.uniform(-1, 1, 3)), rng.uniform(-1, 1, 3))
        X_BM = RigidTransform(RollPitchYaw(*rng.uniform(-1, 1, 3)), rng.uniform(-1, 1, 3))
        F = tree.add_frame(FixedOffsetFrame(f"F_{name}", parent.body_frame(), X_PF))
        M0 = tree.add_frame(
            FixedOffsetFrame(f"M0_{name}", body.body_frame(), RigidTransform([0, 0.2, 0]))
        )
        M = tree.add_frame(
            FixedOffsetFrame(
                f"M_{name}",
                M0,
                RigidTransform(
                    RigidTransform([0, -0.2, 0]).get_as_matrix4() @ X_BM.get_as_matrix4()
                ),
            )
        )
        tree.add_joint(make(F, M))
        bodies.append(body)
    return tree


def random_q(tree, rng):
    model = tree.compiled_model()
    q = rng.uniform(-1, 1, model.nq)
    for k in range(1, model.nb):
        if model.jtype[k] == JointType.QUATERNION_FLOATING:
            s = model.q_start[k]
            q[s : s + 4] /= np.linalg.norm(q[s : s + 4])
    return q


def test_branching_tree_with_every_joint_type_compiles():
    tree = make_branching_tree(np.random.default_rng(0))
    model = tree.finalize()
    codes = [
        JointType[t]
        for t in (
            "REVOLUTE",
            "PRISMATIC",
            "BALL_RPY",
            "UNIVERSAL",
            "PLANAR",
            "SCREW",
            "QUATERNION_FLOATING",
            "RPY_FLOATING",
            "WELD",
        )
    ]
    assert [model.jtype[model.node_of_body[b]] for b in range(1, 10)] == codes
    assert (model.nq, model.nv) == (1 + 1 + 3 + 2 + 3 + 1 + 7 + 6, 1 + 1 + 3 + 2 + 3 + 1 + 6 + 6)
    assert all(model.parent[k] < k for k in range(1, model.nb))
    np.testing.assert_allclose(model.axis[model.node_of_body[1]], np.array([1, 2, 3]) / np.sqrt(14))
    np.testing.assert_allclose(model.axis[model.node_of_body[2]], np.array([0, 1, 1]) / np.sqrt(2))
    assert model.screw_pitch[model.node_of_body[6]] == 0.05
    assert not tree.get_floating_base_bodies()  # the user's 6-dof joints are not "floating base"


def test_compiled_transforms_compose_offset_frames():
    rng = np.random.default_rng(1)
    tree = make_branching_tree(rng)
    tree.finalize()
    q = random_q(tree, rng)
    X_WB = body_poses(tree, q)
    # Rebuild each body's pose directly from the user's frames: X_WB = X_WP X_PF X_FM(q) X_MB.
    model = tree.compiled_model()
    for b in range(1, 10):
        joint = tree.get_joint(b - 1)
        X_PF = joint.frame_on_parent().get_fixed_pose_in_body_frame().get_as_matrix4()
        X_BM = joint.frame_on_child().get_fixed_pose_in_body_frame().get_as_matrix4()
        if joint.type_name() == "weld":
            X_FM = joint.X_FM().get_as_matrix4()
        else:
            k = model.node_of_body[b]
            X_FM = X_FM_reference(
                model.jtype[k],
                model.axis[k],
                model.screw_pitch[k],
                q[joint.position_start() : joint.position_start() + joint.num_positions()],
            )
        parent = joint.parent_body().index()
        X_WP = np.eye(4) if parent == 0 else X_WB[parent - 1]
        np.testing.assert_allclose(
            X_WB[b - 1], X_WP @ X_PF @ X_FM @ np.linalg.inv(X_BM), atol=1e-12
        )


def test_kernel_forward_kinematics_agrees_with_reference_composition():
    rng = np.random.default_rng(2)
    tree = make_branching_tree(rng)
    model = tree.finalize()
    dynamics = TreeDynamics(model)
    for _ in range(3):
        q = random_q(tree, rng)
        np.testing.assert_allclose(
            dynamics.forward_kinematics(q), forward_kinematics(model, q), atol=1e-12
        )


def test_finalized_tree_pickles_with_its_elements():
    tree = make_acrobot()[0]
    upper, lower = tree.get_body_by_name("upper_link"), tree.get_body_by_name("lower_link")
    tree.add_force_element(LinearSpringDamper(upper, [0, 0, 0], lower, [0, 0, 0.1], 1.0, 2.0))
    tree.finalize()
    copy = pickle.loads(pickle.dumps(tree))
    assert copy.get_position_names() == tree.get_position_names()
    assert copy.get_joint_by_name("elbow").position_start() == 1
    assert copy.get_joint_by_name("elbow").child_body() is copy.get_body_by_name("lower_link")
    np.testing.assert_array_equal(copy.compiled_model().X_PF, tree.compiled_model().X_PF)


# ------------------------------------------------------------------ base body joint types
def test_base_body_joint_type_per_model_instance():
    tree = MultibodyTree()
    a, b = tree.add_model_instance("a"), tree.add_model_instance("b")
    body_a = tree.add_rigid_body("box", a, box())
    body_b = tree.add_rigid_body("box", b, box())
    body_d = tree.add_rigid_body("box", box())
    tree.set_base_body_joint_type("rpy_floating", a)
    tree.set_base_body_joint_type("weld", b)
    tree.set_default_free_body_pose(body_b, RigidTransform([0, 0, 2.0]))
    tree.set_default_free_body_pose(body_d, RigidTransform(RollPitchYaw(0, 0, 0.5), [1.0, 0, 0]))
    model = tree.finalize()
    assert tree.get_joint_by_name("$world_box", a).type_name() == "rpy_floating"
    assert tree.get_joint_by_name("$world_box", b).type_name() == "weld"
    assert tree.get_joint_by_name("$world_box", 1).type_name() == "quaternion_floating"
    assert body_a.is_floating() and not body_a.has_quaternion_dofs() and not body_b.is_floating()
    assert (model.nq, model.nv) == (13, 12)
    assert tree.get_position_names(a) == ["box_qx", "box_qy", "box_qz", "box_x", "box_y", "box_z"]
    assert tree.get_position_names()[:2] == ["a_box_qx", "a_box_qy"]
    np.testing.assert_allclose(
        body_poses(tree, tree.get_default_positions())[body_b.index() - 1][:3, 3], [0, 0, 2.0]
    )
    q0 = tree.get_default_positions(1)
    np.testing.assert_allclose(q0, [np.cos(0.25), 0, 0, np.sin(0.25), 1.0, 0, 0], atol=1e-15)
    with pytest.raises(ValueError, match="joint_type must be one of"):
        MultibodyTree().set_base_body_joint_type("ball")
    with pytest.raises(ValueError, match="'box' is not a floating base body"):
        body_b.floating_positions_start()


def test_default_free_body_pose_after_finalize():
    tree = MultibodyTree()
    body = tree.add_rigid_body("box", box())
    tree.finalize()
    X_WB = RigidTransform(RollPitchYaw(0.3, 0.0, 0.0), [0.0, 1.0, 2.0])
    tree.set_default_free_body_pose(body, X_WB)
    assert tree.get_default_free_body_pose(body).is_nearly_equal_to(X_WB, 1e-14)
    X = body_poses(tree, tree.get_default_positions())[0]
    np.testing.assert_allclose(X, X_WB.get_as_matrix4(), atol=1e-14)


# ------------------------------------------------------------------ topology errors
def test_kinematic_loop_raises():
    tree = MultibodyTree()
    a, b, c = (tree.add_rigid_body(n, box()) for n in "abc")
    tree.add_joint(RevoluteJoint("wa", tree.world_frame(), a.body_frame(), [1, 0, 0]))
    tree.add_joint(RevoluteJoint("ab", a.body_frame(), b.body_frame(), [1, 0, 0]))
    tree.add_joint(RevoluteJoint("ac", a.body_frame(), c.body_frame(), [1, 0, 0]))
    tree.add_joint(RevoluteJoint("bc", b.body_frame(), c.body_frame(), [1, 0, 0]))
    with pytest.raises(
        TopologyError, match="kinematic loop: joint 'bc' connects bodies 'b' and 'c'"
    ):
        tree.finalize()
    assert not tree.is_finalized() and tree.num_joints() == 4


def test_reversed_joint_is_not_supported():
    tree = MultibodyTree()
    a, b = tree.add_rigid_body("a", box()), tree.add_rigid_body("b", box())
    tree.add_joint(RevoluteJoint("wa", tree.world_frame(), a.body_frame(), [1, 0, 0]))
    tree.add_joint(RevoluteJoint("ba", b.body_frame(), a.body_frame(), [1, 0, 0]))
    with pytest.raises(TopologyError, match="joint 'ba' is reversed.*not supported"):
        tree.finalize()
    tree2 = MultibodyTree()
    c = tree2.add_rigid_body("c", box())
    tree2.add_joint(RevoluteJoint("to_world", c.body_frame(), tree2.world_frame(), [1, 0, 0]))
    with pytest.raises(TopologyError, match="joint 'to_world' is reversed"):
        tree2.finalize()


def test_closed_chain_disconnected_from_world_raises():
    tree = MultibodyTree()
    a, b, c = (tree.add_rigid_body(n, box()) for n in "abc")
    tree.add_joint(RevoluteJoint("ab", a.body_frame(), b.body_frame(), [1, 0, 0]))
    tree.add_joint(RevoluteJoint("bc", b.body_frame(), c.body_frame(), [1, 0, 0]))
    tree.add_joint(RevoluteJoint("ca", c.body_frame(), a.body_frame(), [1, 0, 0]))
    with pytest.raises(
        TopologyError, match=r"kinematic loop: the joints among bodies \['a', 'b', 'c'\]"
    ):
        tree.finalize()


def test_massless_bodies_are_fine_inside_a_chain_or_welded_to_mass():
    tree = MultibodyTree()
    link = tree.add_rigid_body("massless_link")
    tip = tree.add_rigid_body("tip", box())
    sensor = tree.add_rigid_body("sensor")
    tree.add_joint(RevoluteJoint("j1", tree.world_frame(), link.body_frame(), [1, 0, 0]))
    tree.add_joint(RevoluteJoint("j2", link.body_frame(), tip.body_frame(), [1, 0, 0]))
    tree.add_joint(WeldJoint("mount", tip.body_frame(), sensor.body_frame()))
    frame = tree.add_frame(FixedOffsetFrame("frame", tree.world_frame()))
    # A massless body welded to the world is fine too.
    tree.weld_frames(frame, tree.add_rigid_body("fixture").body_frame())
    model = tree.finalize()
    assert model.nv == 2
    assert [b.name() for b in tree.get_bodies_welded_to(tip)] == ["tip", "sensor"]
    assert [b.name() for b in tree.get_bodies_welded_to(tree.world_body())] == ["world", "fixture"]


# ------------------------------------------------------------------ per-instance tables and names
def make_two_robots():
    tree = MultibodyTree()
    robots = [tree.add_model_instance(n) for n in ("left", "right")]
    joints = []
    for mi in robots:
        a = tree.add_rigid_body("a", mi, box())
        b = tree.add_rigid_body("b", mi, box())
        ja = tree.add_joint(RevoluteJoint("ja", tree.world_frame(), a.body_frame(), [0, 0, 1]))
        jb = tree.add_joint(PrismaticJoint("jb", a.body_frame(), b.body_frame(), [1, 0, 0]))
        joints.append((ja, jb))
    free = tree.add_rigid_body("ball", SpatialInertia.solid_sphere_with_mass(1.0, 0.1))
    tree.add_joint_actuator("mb", joints[1][1])
    tree.add_joint_actuator("ma", joints[0][0])
    tree.add_joint_actuator("ma", joints[1][0])
    return tree, robots, joints, free


def test_per_instance_indices_and_actuation_matrix():
    tree, (left, right), _joints, _free = make_two_robots()
    tree.finalize()
    np.testing.assert_array_equal(tree.get_position_indices(left), [0, 1])
    np.testing.assert_array_equal(tree.get_velocity_indices(right), [2, 3])
    np.testing.assert_array_equal(tree.get_position_indices(1), [4, 5, 6, 7, 8, 9, 10])
    np.testing.assert_array_equal(tree.get_velocity_indices(1), [4, 5, 6, 7, 8, 9])
    assert (
        tree.num_positions(1) == 7
        and tree.num_velocities(right) == 2
        and tree.num_positions() == 11
    )
    np.testing.assert_array_equal(tree.get_actuator_input_indices(right), [0, 2])
    B = tree.make_actuation_matrix()
    assert B.shape == (10, 3)
    expected = np.zeros((10, 3))
    expected[3, 0] = expected[0, 1] = expected[2, 2] = (
        1.0  # mb on right/jb, ma on left/ja, right/ja
    )
    np.testing.assert_array_equal(B, expected)
    assert [a.input_start() for a in (tree.get_joint_actuator(i) for i in range(3))] == [0, 1, 2]
    u = np.zeros(3)
    tree.set_actuation_in_array(right, [5.0, 6.0], u)
    np.testing.assert_array_equal(u, [5.0, 0.0, 6.0])
    np.testing.assert_array_equal(tree.get_actuation_from_array(right, u), [5.0, 6.0])
    q = np.arange(11.0)
    np.testing.assert_array_equal(tree.get_positions_from_array(right, q), [2.0, 3.0])
    with pytest.raises(
        ValueError, match=r"get_positions_from_array: q has shape \(3,\), expected \(11,\)"
    ):
        tree.get_positions_from_array(right, np.zeros(3))


def test_names_follow_drakes_prefix_and_suffix_rules():
    tree, (left, right), _joints, _free = make_two_robots()
    tree.finalize()
    assert tree.get_position_names()[:4] == ["left_ja_q", "left_jb_x", "right_ja_q", "right_jb_x"]
    assert tree.get_position_names()[4:6] == [
        "DefaultModelInstance_ball_qw",
        "DefaultModelInstance_ball_qx",
    ]
    assert tree.get_position_names(right) == ["ja_q", "jb_x"]
    assert tree.get_position_names(right, add_model_instance_prefix=True) == [
        "right_ja_q",
        "right_jb_x",
    ]
    assert tree.get_velocity_names(left, always_add_suffix=False) == ["ja", "jb"]
    assert (
        tree.get_velocity_names(1, always_add_suffix=False)[0] == "ball_wx"
    )  # multi-dof keeps suffix
    assert tree.get_state_names(right) == ["ja_q", "jb_x", "ja_w", "jb_v"]
    assert len(tree.get_state_names()) == 21
    assert tree.get_actuator_names() == ["right_mb", "left_ma", "right_ma"]
    assert tree.get_actuator_names(right) == ["mb", "ma"]


def test_floating_joint_coordinate_prefix_avoids_joint_name_clash():
    tree = MultibodyTree()
    a = tree.add_rigid_body("thing", box())
    b = tree.add_rigid_body("other", box())
    tree.add_joint(RevoluteJoint("thing", tree.world_frame(), b.body_frame(), [1, 0, 0]))
    tree.finalize()
    assert a.is_floating()
    assert tree.get_position_names(1)[1:3] == ["_thing_qw", "_thing_qx"]


def test_default_positions_round_trip():
    tree, (_left, right), joints, _free = make_two_robots()
    tree.finalize()
    q0 = tree.get_default_positions()
    np.testing.assert_array_equal(q0, [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0])
    tree.set_default_positions(right, [0.5, -0.25])
    assert joints[1][0].get_default_angle() == 0.5
    np.testing.assert_array_equal(tree.get_default_positions()[2:4], [0.5, -0.25])
    with pytest.raises(ValueError, match=r"q has shape \(2,\), expected \(11,\)"):
        tree.set_default_positions([0.0, 0.0])


def test_limits_and_damping_are_stacked_in_coordinate_order():
    tree = MultibodyTree()
    a, b = tree.add_rigid_body("a", box()), tree.add_rigid_body("b", box())
    tree.add_joint(PrismaticJoint("jb", a.body_frame(), b.body_frame(), [1, 0, 0], -0.1, 0.2, 3.0))
    tree.add_joint(
        RevoluteJoint(
            "ja",
            tree.world_frame(),
            a.body_frame(),
            [0, 0, 1],
            0.5,
            pos_lower_limit=-1.0,
            pos_upper_limit=1.0,
        )
    )
    model = tree.finalize()
    np.testing.assert_array_equal(model.q_lower, [-1.0, -0.1])
    np.testing.assert_array_equal(model.q_upper, [1.0, 0.2])
    np.testing.assert_array_equal(model.damping, [0.5, 3.0])
    np.testing.assert_array_equal(tree.get_position_lower_limits(), [-1.0, -0.1])


# ------------------------------------------------------------------ force elements
def random_motion(rng, nb):
    """Random body poses X_WB (nb, 4, 4) and spatial velocities V_WB_W (nb, 6), world at rest."""
    X = np.tile(np.eye(4), (nb, 1, 1))
    V = np.zeros((nb, 6))
    for k in range(1, nb):
        X[k, :3, :3] = RollPitchYaw(*rng.uniform(-1, 1, 3)).to_rotation_matrix().matrix()
        X[k, :3, 3] = rng.uniform(-1, 1, 3)
        V[k] = rng.normal(size=6)
    return X, V


def advance(X, V, h):
    """Poses after moving for time h with constant spatial velocities (origins move with v)."""
    Xh = X.copy()
    for k in range(1, X.shape[0]):
        w = V[k, :3]
        angle = np.linalg.norm(w) * h
        if angle != 0.0:
            Xh[k, :3, :3] = rotation_about(w, angle) @ X[k, :3, :3]
        Xh[k, :3, 3] = X[k, :3, 3] + V[k, 3:] * h
    return Xh


def two_free_bodies():
    tree = MultibodyTree()
    a = tree.add_rigid_body("a", box(2.0))
    b = tree.add_rigid_body("b", box(3.0))
    return tree, a, b


def test_prismatic_spring_force_is_minus_k_times_stretch():
    tree = MultibodyTree()
    cart = tree.add_rigid_body("cart", box(2.0))
    slider = tree.add_joint(
        PrismaticJoint("slider", tree.world_frame(), cart.body_frame(), [1, 0, 0])
    )
    spring = tree.add_force_element(PrismaticSpring(slider, nominal_position=0.3, stiffness=50.0))
    tree.finalize()
    X, V = random_motion(np.random.default_rng(3), 2)
    for x, xdot in ((0.8, 0.0), (-0.2, 1.5), (0.3, -2.0)):
        tau, F = np.zeros(1), np.zeros((2, 6))
        spring.calc_and_add_forces(X, V, np.array([x]), np.array([xdot]), tau, F)
        assert tau[0] == pytest.approx(-50.0 * (x - 0.3))
        assert not F.any()
        assert spring.calc_potential_energy(X, V, [x], [xdot]) == pytest.approx(
            25.0 * (x - 0.3) ** 2
        )
        assert spring.calc_conservative_power(X, V, [x], [xdot]) == pytest.approx(
            -50.0 * (x - 0.3) * xdot
        )
        assert spring.calc_non_conservative_power(X, V, [x], [xdot]) == 0.0


def test_revolute_spring_torque_energy_and_power():
    tree, _shoulder, elbow = make_acrobot()
    spring = tree.add_force_element(RevoluteSpring(elbow, nominal_angle=0.5, stiffness=4.0))
    tree.finalize()
    X, V = random_motion(np.random.default_rng(4), 4)
    tau = np.array([10.0, 20.0])
    q, v = np.array([1.0, -0.5]), np.array([0.0, 3.0])
    spring.calc_and_add_forces(X, V, q, v, tau, np.zeros((4, 6)))
    np.testing.assert_allclose(tau, [10.0, 20.0 + 4.0 * 1.0])  # adds -k (θ - θ₀) = +4
    assert spring.calc_potential_energy(X, V, q, v) == pytest.approx(2.0)
    assert spring.calc_conservative_power(X, V, q, v) == pytest.approx(12.0)


def test_linear_spring_damper_force_along_the_line():
    tree, a, b = two_free_bodies()
    spring = tree.add_force_element(
        LinearSpringDamper(a, [0.1, 0, 0], b, [0, 0.2, 0], 0.5, 100.0, 3.0)
    )
    tree.finalize()
    X = np.tile(np.eye(4), (3, 1, 1))
    X[2, :3, 3] = [0.1, 1.2, 0.0]  # P at (0.1, 0, 0), Q at (0.1, 1.4, 0): length 1.4
    V = np.zeros((3, 6))
    V[2, 3:] = [0.0, 2.0, 0.0]  # separating at 2 m/s
    F = np.zeros((3, 6))
    spring.calc_and_add_forces(X, V, np.zeros(14), np.zeros(12), np.zeros(12), F)
    tension = 100.0 * (1.4 - 0.5) + 3.0 * 2.0
    node_a, node_b = tree.compiled_model().node_of_body[[1, 2]]
    np.testing.assert_allclose(F[node_a, 3:], [0, tension, 0])
    np.testing.assert_allclose(F[node_b, 3:], [0, -tension, 0])
    np.testing.assert_allclose(F[node_a, :3], np.cross([0.1, 0, 0], [0, tension, 0]))
    np.testing.assert_allclose(F[node_b, :3], np.cross([0, 0.2, 0], [0, -tension, 0]), atol=1e-12)
    assert spring.calc_potential_energy(X, V, None, None) == pytest.approx(0.5 * 100 * 0.9**2)
    assert spring.calc_non_conservative_power(X, V, None, None) == pytest.approx(-3.0 * 4.0)


def test_linear_spring_damper_power_and_energy_identities():
    rng = np.random.default_rng(5)
    tree, a, b = two_free_bodies()
    spring = tree.add_force_element(
        LinearSpringDamper(a, [0.1, -0.2, 0.3], b, [0.0, 0.4, -0.1], 0.7, 80.0, 2.5)
    )
    tree.finalize()
    for _ in range(5):
        X, V = random_motion(rng, 3)
        F = np.zeros((3, 6))
        spring.calc_and_add_forces(X, V, None, None, None, F)
        Pc = spring.calc_conservative_power(X, V, None, None)
        Pnc = spring.calc_non_conservative_power(X, V, None, None)
        # The power of the spatial forces on the bodies is Pc + Pnc.
        assert np.sum(F * V) == pytest.approx(Pc + Pnc, rel=1e-10)
        # Pc = -dV/dt (central difference along the motion).
        h = 1e-6
        dVdt = (
            spring.calc_potential_energy(advance(X, V, h), V, None, None)
            - spring.calc_potential_energy(advance(X, V, -h), V, None, None)
        ) / (2 * h)
        assert Pc == pytest.approx(-dVdt, rel=1e-6)
        assert Pnc <= 0.0
        # Internal force: the net force is zero and so is the net moment about the origin.
        f_total = F[:, 3:].sum(axis=0)
        m_total = (F[:, :3] + np.cross(X[:, :3, 3], F[:, 3:])).sum(axis=0)
        np.testing.assert_allclose(f_total, 0.0, atol=1e-10)
        np.testing.assert_allclose(m_total, 0.0, atol=1e-10)


def test_linear_spring_damper_zero_length_raises():
    tree, a, b = two_free_bodies()
    spring = tree.add_force_element(LinearSpringDamper(a, [0, 0, 0], b, [0, 0, 0], 1.0, 1.0))
    tree.finalize()
    X = np.tile(np.eye(4), (3, 1, 1))
    with pytest.raises(RuntimeError, match="length of the spring became nearly zero"):
        spring.calc_potential_energy(X, np.zeros((3, 6)), None, None)


def test_gravity_forces_energy_and_power():
    rng = np.random.default_rng(6)
    tree = MultibodyTree()
    a = tree.add_rigid_body(
        "a", SpatialInertia.make_from_central_inertia(2.0, [0.1, 0.2, 0.3], np.eye(3))
    )
    tree.add_rigid_body("b", box(3.0))
    gravity = tree.gravity_field()
    tree.finalize()
    X, V = random_motion(rng, 3)
    F = np.zeros((3, 6))
    gravity.calc_and_add_forces(X, V, None, None, None, F)
    node = tree.compiled_model().node_of_body[a.index()]
    g = np.array([0, 0, -9.81])
    p_BoBcm_W = X[node, :3, :3] @ [0.1, 0.2, 0.3]
    np.testing.assert_allclose(F[node], np.concatenate([np.cross(p_BoBcm_W, 2.0 * g), 2.0 * g]))
    p_Wcm = X[node, :3, 3] + p_BoBcm_W
    expected_pe = -2.0 * g @ p_Wcm - 3.0 * g @ X[3 - node, :3, 3]
    assert gravity.calc_potential_energy(X, V, None, None) == pytest.approx(expected_pe)
    Pc = gravity.calc_conservative_power(X, V, None, None)
    assert np.sum(F * V) == pytest.approx(Pc)
    h = 1e-6
    dVdt = (
        gravity.calc_potential_energy(advance(X, V, h), V, None, None)
        - gravity.calc_potential_energy(advance(X, V, -h), V, None, None)
    ) / (2 * h)
    assert Pc == pytest.approx(-dVdt, rel=1e-6)
    # Parameters from a context override the defaults; a disabled instance feels nothing.
    params = tree.compiled_model().default_inertia.copy()
    params[node] *= 2.0
    F2 = np.zeros((3, 6))
    gravity.calc_and_add_forces(X, V, None, None, None, F2, inertia_params=params)
    np.testing.assert_allclose(F2[node], 2.0 * F[node])


@pytest.mark.parametrize(
    "name, path, weld_root",
    [
        ("solo12", "example-robot-data/robots/solo_description/robots/solo12.urdf", None),
        ("panda", "example-robot-data/robots/panda_description/urdf/panda.urdf", "panda_link0"),
        ("pendulum", "drake/pendulum/Pendulum.urdf", None),
    ],
)
def test_gravity_element_matches_drake_generalized_gravity_and_energy(name, path, weld_root):
    """τ_g = Σ_B J_WBᵀ F_Bo_W and V_g, with Drake's poses and Jacobians (reference data)."""
    tree = MultibodyTree()
    add_urdf(tree, MODELS / path, weld_root)
    model = tree.finalize()
    ref = reference(name)
    gravity = tree.gravity_field()
    samples = zip(ref["X_WB"][:3], ref["J_WB"][:3], ref["tau_g"][:3], ref["pe"][:3], strict=True)
    for X_body, J_body, tau_g, pe in samples:
        X = np.tile(np.eye(4), (model.nb, 1, 1))
        X[model.node_of_body[1:]] = X_body
        F = np.zeros((model.nb, 6))
        gravity.calc_and_add_forces(X, np.zeros((model.nb, 6)), None, None, None, F)
        tau = np.einsum("bij,bi->j", J_body, F[model.node_of_body[1:]])
        np.testing.assert_allclose(tau, tau_g, atol=1e-10)
        assert gravity.calc_potential_energy(X, None, None, None) == pytest.approx(pe, abs=1e-10)


def test_bushing_is_an_internal_force_and_matches_closed_forms():
    rng = np.random.default_rng(7)
    tree, a, b = two_free_bodies()
    A = tree.add_frame(
        FixedOffsetFrame(
            "A", a.body_frame(), RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [0.1, 0, 0])
        )
    )
    C = tree.add_frame(FixedOffsetFrame("C", b.body_frame(), RigidTransform([0, 0.1, 0])))
    k012, d012, kxyz, dxyz = (
        [10.0, 20.0, 30.0],
        [1.0, 2.0, 3.0],
        [100.0, 200.0, 300.0],
        [4.0, 5.0, 6.0],
    )
    bushing = tree.add_force_element(LinearBushingRollPitchYaw(A, C, k012, d012, kxyz, dxyz))
    torque_only = tree.add_force_element(
        LinearBushingRollPitchYaw(A, C, k012, d012, [0] * 3, [0] * 3)
    )
    tree.finalize()
    for _ in range(3):
        X, V = random_motion(rng, 3)
        F = np.zeros((3, 6))
        bushing.calc_and_add_forces(X, V, None, None, None, F)
        np.testing.assert_allclose(F[:, 3:].sum(axis=0), 0.0, atol=1e-10)
        np.testing.assert_allclose(
            (F[:, :3] + np.cross(X[:, :3, 3], F[:, 3:])).sum(axis=0), 0.0, atol=1e-10
        )
        # Torque only: its power equals the gimbal torques' power τ·q̇ = -(k q + d q̇)·q̇.
        F = np.zeros((3, 6))
        torque_only.calc_and_add_forces(X, V, None, None, None, F)
        X_WA = X[1] @ A.get_fixed_pose_in_body_frame().get_as_matrix4()
        X_WC = X[2] @ C.get_fixed_pose_in_body_frame().get_as_matrix4()
        R_AC = X_WA[:3, :3].T @ X_WC[:3, :3]
        rpy = RollPitchYaw(RotationMatrix(R_AC))
        rpy_dt = rpy.calc_rpy_dt_from_angular_velocity_in_parent(
            X_WA[:3, :3].T @ (V[2, :3] - V[1, :3])
        )
        q = rpy.vector()
        expected = -(np.dot(k012, q * rpy_dt) + np.dot(d012, rpy_dt**2))
        assert np.sum(F * V) == pytest.approx(expected, rel=1e-9)


def test_bushing_translation_only_is_a_diagonal_spring_damper():
    tree, a, b = two_free_bodies()
    bushing = tree.add_force_element(
        LinearBushingRollPitchYaw(
            a.body_frame(),
            b.body_frame(),
            [1.0] * 3,
            [1.0] * 3,
            [100.0, 200.0, 300.0],
            [4.0, 5.0, 6.0],
        )
    )
    tree.finalize()
    X = np.tile(np.eye(4), (3, 1, 1))
    X[2, :3, 3] = [0.1, -0.2, 0.3]
    V = np.zeros((3, 6))
    V[2, 3:] = [1.0, 2.0, 3.0]
    t_W, f_W, p_WBo = bushing.calc_torque_and_force(X, V)
    np.testing.assert_allclose(
        f_W, -(np.array([100, 200, 300]) * [0.1, -0.2, 0.3] + np.array([4, 5, 6]) * [1, 2, 3])
    )
    np.testing.assert_allclose(t_W, 0.0, atol=1e-15)
    np.testing.assert_allclose(p_WBo, [0.05, -0.1, 0.15])
    with pytest.raises(NotImplementedError, match="calc_potential_energy"):
        bushing.calc_potential_energy(X, V, None, None)


def test_tree_sums_force_elements():
    tree = MultibodyTree()
    cart = tree.add_rigid_body("cart", box(2.0))
    slider = tree.add_joint(
        PrismaticJoint("slider", tree.world_frame(), cart.body_frame(), [0, 0, 1])
    )
    tree.add_force_element(PrismaticSpring(slider, 0.0, 10.0))
    tree.finalize()
    X = np.tile(np.eye(4), (2, 1, 1))
    X[1, 2, 3] = 0.5
    V = np.zeros((2, 6))
    V[1, 5] = 1.0
    q, v = np.array([0.5]), np.array([1.0])
    tau, F = np.zeros(1), np.zeros((2, 6))
    tree.calc_force_elements_contribution(X, V, q, v, tau, F)
    assert tau[0] == pytest.approx(-5.0) and F[1, 5] == pytest.approx(-2.0 * 9.81)
    tau, F = np.zeros(1), np.zeros((2, 6))
    tree.calc_force_elements_contribution(X, V, q, v, tau, F, include_gravity=False)
    assert not F.any()
    assert tree.calc_potential_energy(X, V, q, v) == pytest.approx(1.25 + 2.0 * 9.81 * 0.5)
    assert tree.calc_conservative_power(X, V, q, v) == pytest.approx(-5.0 - 2.0 * 9.81)
    assert tree.calc_non_conservative_power(X, V, q, v) == 0.0
