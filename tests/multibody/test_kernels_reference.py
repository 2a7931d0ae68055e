"""Kernels against Drake's reference values, closed forms and the model/facade contracts.

The acrobot and the cart-pole are built by hand from their model files (values copied
from ``tests/data/models/drake/acrobot/Acrobot.urdf`` and ``cart_pole/cart_pole.sdf``);
the Panda, UR5, Solo12 and pendulum are read from their URDFs by a minimal reader in this
file. All are compared with the values Drake 1.51 computed (``tests/data/reference``).
"""

import pathlib
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from merganser.multibody.kernels import DynamicsArgumentError, TreeDynamics
from merganser.multibody.tree.compiled_model import (
    CompiledModel, CompiledModelError, JointType, make_compiled_model,
)

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
G = np.array([0.0, 0.0, -9.81])
W, R_, P_ = JointType.WELD, JointType.REVOLUTE, JointType.PRISMATIC


def translation(xyz):
    X = np.eye(4)
    X[:3, 3] = xyz
    return X


def inertia_row(m, p_BoBcm_B, I_BcmBcm, R_BC=np.eye(3)):
    """[m, m c, I about Bo] from the mass, the COM and the central inertia (in frame C)."""
    c = np.asarray(p_BoBcm_B, dtype=float)
    I_c = R_BC @ np.asarray(I_BcmBcm, dtype=float) @ R_BC.T
    I_o = I_c + m * (c @ c * np.eye(3) - np.outer(c, c))
    return np.array([m, *(m * c), I_o[0, 0], I_o[1, 1], I_o[2, 2], I_o[0, 1], I_o[0, 2],
                     I_o[1, 2]])


def acrobot_model():
    """Acrobot.urdf: world -(weld)- base_link -(shoulder, y)- upper_link -(elbow, y)-
    lower_link; joint origins (0, 0.15, 0) and (0, 0.1, -1)."""
    return make_compiled_model(
        parent=[-1, 0, 1, 2], jtype=[W, W, R_, R_],
        X_PF=np.stack([np.eye(4), np.eye(4), translation([0, 0.15, 0]),
                       translation([0, 0.1, -1])]),
        axis=[[0, 0, 0], [0, 0, 0], [0, 1, 0], [0, 1, 0]],
        default_inertia=np.stack([
            np.zeros(10), np.zeros(10),
            inertia_row(1.0, [0, 0, -0.5], np.diag([1.0, 0.083, 1.0])),
            inertia_row(1.0, [0, 0, -1.0], np.diag([1.0, 0.33, 1.0]))]),
        node_names=["world", "base_link", "upper_link", "lower_link"])


def cart_pole_model():
    """cart_pole.sdf: world -(CartSlider, x)- Cart -(PolePin, -y)- Pole.

    The PolePin frame sits 0.5 m above the pole's origin (its pose in the Pole frame), at
    the cart's origin: X_PF = identity, X_MB = translation (0, 0, -0.5).
    """
    return make_compiled_model(
        parent=[-1, 0, 1], jtype=[W, P_, R_],
        X_MB=np.stack([np.eye(4), np.eye(4), translation([0, 0, -0.5])]),
        axis=[[0, 0, 0], [1, 0, 0], [0, -1, 0]],
        default_inertia=np.stack([np.zeros(10),
                                  inertia_row(10.0, [0, 0, 0], 1e-20 * np.eye(3)),
                                  inertia_row(1.0, [0, 0, 0], 1e-20 * np.eye(3))]),
        node_names=["world", "Cart", "Pole"])


# ----------------------------------------------------------------- minimal URDF reader
def _rpy(r, p, y):
    return Rotation.from_euler("xyz", [r, p, y]).as_matrix()


def _origin(elem):
    X = np.eye(4)
    o = None if elem is None else elem.find("origin")
    if o is not None:
        X[:3, :3] = _rpy(*map(float, o.get("rpy", "0 0 0").split()))
        X[:3, 3] = list(map(float, o.get("xyz", "0 0 0").split()))
    return X


def _link_inertia(link):
    inertial = link.find("inertial")
    if inertial is None:
        return np.zeros(10)
    X = _origin(inertial)
    a = {k: float(v) for k, v in inertial.find("inertia").attrib.items()}
    I_c = np.array([[a["ixx"], a["ixy"], a["ixz"]], [a["ixy"], a["iyy"], a["iyz"]],
                    [a["ixz"], a["iyz"], a["izz"]]])
    return inertia_row(float(inertial.find("mass").get("value")), X[:3, 3], I_c, X[:3, :3])


def urdf_model(path, base):
    """Compile a URDF tree; `base` is "world" (the URDF has a world link), "weld" or
    "free" (quaternion floating) for the root link."""
    robot = ET.parse(path).getroot()
    links = {ln.get("name"): ln for ln in robot.findall("link")}
    joints = robot.findall("joint")
    children = {}
    for j in joints:
        children.setdefault(j.find("parent").get("link"), []).append(j)
    kinds = {"revolute": R_, "continuous": R_, "prismatic": P_, "fixed": W}
    names, parent, jtype, X_PF, axis, inertia = ["world"], [-1], [W], [np.eye(4)], \
        [np.zeros(3)], [np.zeros(10)]

    def add(name, p, jt, X, ax):
        names.append(name)
        parent.append(p)
        jtype.append(jt)
        X_PF.append(X)
        axis.append(ax)
        inertia.append(_link_inertia(links[name]))

    def visit(link, node):
        for j in children.get(link, []):
            ax = j.find("axis")
            kind = kinds[j.get("type")]
            a = (np.array(list(map(float, ax.get("xyz").split()))) if ax is not None
                 else np.array([1.0, 0, 0])) if kind != W else np.zeros(3)
            add(j.find("child").get("link"), node, kind, _origin(j), a)
            visit(names[-1], len(names) - 1)

    if base == "world":
        visit("world", 0)
    else:
        child_links = {j.find("child").get("link") for j in joints}
        root = next(n for n in links if n not in child_links)
        add(root, 0, JointType.QUATERNION_FLOATING if base == "free" else W, np.eye(4),
            np.zeros(3))
        visit(root, 1)
    model = make_compiled_model(parent, jtype, X_PF=np.stack(X_PF), axis=np.stack(axis),
                                default_inertia=np.stack(inertia), node_names=names)
    return model, names


# ----------------------------------------------------------------- Drake references
def _check_against_reference(model, names, reference, atol):
    """Both layouts: welded bodies merged into their composite nodes, and not."""
    for merge_welded in (True, False):
        _check_layout_against_reference(model, names, reference, atol, merge_welded)


def _check_layout_against_reference(model, names, reference, atol, merge_welded):
    d = np.load(DATA / "reference" / f"{reference}.npz")
    nodes = [names.index(b) for b in d["body_names"]]
    td = TreeDynamics(model, merge_welded=merge_welded)
    I10 = model.default_inertia
    for i in range(len(d["q"])):
        q, v, vd, tau = d["q"][i], d["v"][i], d["vdot"][i], d["tau"][i]
        scale = max(1.0, np.abs(d["M"][i]).max())
        np.testing.assert_allclose(td.mass_matrix(q, I10), d["M"][i], atol=atol * scale)
        np.testing.assert_allclose(td.bias_term(q, v, I10), d["Cv"][i], atol=atol * scale)
        np.testing.assert_allclose(td.gravity_generalized_forces(q, I10, G), d["tau_g"][i],
                                   atol=atol * scale)
        np.testing.assert_allclose(td.inverse_dynamics(q, v, vd, I10, np.zeros(3)),
                                   d["id"][i], atol=atol * scale)
        np.testing.assert_allclose(td.forward_dynamics(q, v, tau, I10, G), d["fd"][i],
                                   atol=atol * max(1.0, np.abs(d["fd"][i]).max()))
        np.testing.assert_allclose(td.forward_kinematics(q)[nodes], d["X_WB"][i], atol=atol)
        for b, k in enumerate(nodes):
            np.testing.assert_allclose(td.jacobian_spatial(q, k, np.zeros(3)), d["J_WB"][i][b],
                                       atol=atol)
        assert td.kinetic_energy(q, v, I10) == pytest.approx(d["ke"][i], abs=atol * scale)
        assert td.potential_energy(q, I10, G) == pytest.approx(d["pe"][i], abs=atol * scale)
        np.testing.assert_allclose(td.center_of_mass(q, I10), d["com"][i], atol=atol)


def test_acrobot_matches_drake_reference():
    model = acrobot_model()
    _check_against_reference(model, list(model.node_names), "acrobot", 1e-10)


def test_cart_pole_matches_drake_reference():
    model = cart_pole_model()
    _check_against_reference(model, list(model.node_names), "cart_pole", 1e-10)


ROBOTS = DATA / "models" / "example-robot-data" / "robots"


@pytest.mark.parametrize("reference, path, base", [
    ("panda", ROBOTS / "panda_description/urdf/panda.urdf", "weld"),
    ("ur5", ROBOTS / "ur_description/urdf/ur5_robot.urdf", "world"),
    ("solo12", ROBOTS / "solo_description/robots/solo12.urdf", "free"),
    ("pendulum", DATA / "models/drake/pendulum/Pendulum.urdf", "world"),
])
def test_urdf_robots_match_drake_reference(reference, path, base):
    model, names = urdf_model(path, base)
    _check_against_reference(model, names, reference, 1e-9)


# ----------------------------------------------------------------- closed forms
def _free_body(m, c, I_cm):
    return make_compiled_model([-1, 0], [W, JointType.QUATERNION_FLOATING],
                               default_inertia=np.stack([np.zeros(10),
                                                         inertia_row(m, c, I_cm)]))


def _skew(a):
    return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


@pytest.fixture
def free_body():
    rng = np.random.default_rng(7)
    m, c = 2.5, np.array([0.1, -0.05, 0.2])
    A = rng.normal(size=(3, 3))
    I_cm = A @ A.T + np.eye(3)
    model = _free_body(m, c, I_cm)
    quat = rng.normal(size=4)
    q = np.concatenate((quat / np.linalg.norm(quat), rng.normal(size=3)))
    v = rng.normal(size=6)
    return model, TreeDynamics(model), m, c, I_cm, q, v


def test_free_body_pose_is_the_quaternion_rotation(free_body):
    model, td, m, c, I_cm, q, v = free_body
    R = Rotation.from_quat([q[1], q[2], q[3], q[0]]).as_matrix()
    X = td.forward_kinematics(q)[1]
    np.testing.assert_allclose(X[:3, :3], R, atol=1e-14)
    np.testing.assert_allclose(X[:3, 3], q[4:], atol=1e-15)


def test_free_body_jacobian_of_its_origin_is_identity(free_body):
    model, td, m, c, I_cm, q, v = free_body
    np.testing.assert_allclose(td.jacobian_spatial(q, 1, np.zeros(3)), np.eye(6), atol=1e-15)
    np.testing.assert_allclose(td.body_spatial_velocities(q, v)[1], v, atol=1e-15)


def test_free_body_kinetic_energy_closed_form(free_body):
    model, td, m, c, I_cm, q, v = free_body
    R = td.forward_kinematics(q)[1, :3, :3].copy()
    w, vo = v[:3], v[3:]
    v_cm = vo + np.cross(w, R @ c)
    expected = 0.5 * m * v_cm @ v_cm + 0.5 * w @ (R @ I_cm @ R.T) @ w
    assert td.kinetic_energy(q, v, model.default_inertia) == pytest.approx(expected, rel=1e-13)


def test_free_body_mass_matrix_and_gravity_closed_form(free_body):
    model, td, m, c, I_cm, q, v = free_body
    I10 = model.default_inertia
    R = td.forward_kinematics(q)[1, :3, :3].copy()
    h = m * R @ c
    I_o = R @ (I_cm + m * (c @ c * np.eye(3) - np.outer(c, c))) @ R.T
    M = np.block([[I_o, _skew(h)], [_skew(h).T, m * np.eye(3)]])
    np.testing.assert_allclose(td.mass_matrix(q, I10), M, atol=1e-13)
    np.testing.assert_allclose(td.gravity_generalized_forces(q, I10, G),
                               np.concatenate((np.cross(h, G), m * G)), atol=1e-13)
    np.testing.assert_allclose(td.potential_energy(q, I10, G), -m * G @ (q[4:] + R @ c),
                               atol=1e-13)


def test_free_body_euler_equations_with_com_at_origin():
    """c = 0: C v = [w x I_W w; 0], vd = [I_W^-1 (tau - w x I_W w); f / m]."""
    rng = np.random.default_rng(3)
    A = rng.normal(size=(3, 3))
    I_cm = A @ A.T + np.eye(3)
    model = _free_body(1.7, np.zeros(3), I_cm)
    td = TreeDynamics(model)
    quat = rng.normal(size=4)
    q = np.concatenate((quat / np.linalg.norm(quat), rng.normal(size=3)))
    v, tau = rng.normal(size=6), rng.normal(size=6)
    R = td.forward_kinematics(q)[1, :3, :3].copy()
    I_W = R @ I_cm @ R.T
    w = v[:3]
    I10 = model.default_inertia
    np.testing.assert_allclose(td.bias_term(q, v, I10),
                               np.concatenate((np.cross(w, I_W @ w), np.zeros(3))), atol=1e-13)
    expected = np.concatenate((np.linalg.solve(I_W, tau[:3] - np.cross(w, I_W @ w)),
                               tau[3:] / 1.7))
    np.testing.assert_allclose(td.forward_dynamics(q, v, tau, I10, np.zeros(3)), expected,
                               atol=1e-12)
    p = q[4:]
    np.testing.assert_allclose(td.spatial_momentum(q, v, I10, np.zeros(3)),
                               np.concatenate((I_W @ w + np.cross(p, 1.7 * v[3:]), 1.7 * v[3:])),
                               atol=1e-13)


def test_rpy_floating_pose_matches_extrinsic_xyz_euler_angles():
    model = make_compiled_model([-1, 0], [W, JointType.RPY_FLOATING],
                                default_inertia=np.stack([np.zeros(10),
                                                          inertia_row(1, [0, 0, 0], np.eye(3))]))
    q = np.array([0.3, -0.7, 1.9, 1.0, 2.0, 3.0])
    X = TreeDynamics(model).forward_kinematics(q)[1]
    np.testing.assert_allclose(X[:3, :3], Rotation.from_euler("xyz", q[:3]).as_matrix(),
                               atol=1e-15)
    np.testing.assert_allclose(X[:3, 3], q[3:], atol=0)


def test_screw_joint_translates_pitch_per_revolution():
    model = make_compiled_model([-1, 0], [W, JointType.SCREW], axis=[[0, 0, 0], [0, 0, 2]],
                                screw_pitch=[0, 0.3],
                                default_inertia=np.stack([np.zeros(10),
                                                          inertia_row(2, [0, 0, 0], np.eye(3))]))
    td = TreeDynamics(model)
    X = td.forward_kinematics(np.array([np.pi]))[1]
    np.testing.assert_allclose(X[:3, 3], [0, 0, 0.15], atol=1e-15)
    # M = Izz + m (pitch / 2 pi)^2
    assert td.mass_matrix(np.array([0.4]), model.default_inertia)[0, 0] == pytest.approx(
        1.0 + 2.0 * (0.3 / (2 * np.pi)) ** 2, rel=1e-14)


def test_planar_and_universal_joints_pose():
    model = make_compiled_model([-1, 0, 1], [W, JointType.PLANAR, JointType.UNIVERSAL],
                                default_inertia=np.stack([np.zeros(10)] + [
                                    inertia_row(1, [0, 0, 0], np.eye(3))] * 2))
    q = np.array([1.0, -2.0, 0.5, 0.3, -0.4])
    X = TreeDynamics(model).forward_kinematics(q)
    np.testing.assert_allclose(X[1, :3, :3], Rotation.from_euler("z", 0.5).as_matrix(),
                               atol=1e-15)
    np.testing.assert_allclose(X[1, :3, 3], [1.0, -2.0, 0.0], atol=0)
    R_FM = Rotation.from_euler("XY", [0.3, -0.4]).as_matrix()   # Rx(q0) then intrinsic y
    np.testing.assert_allclose(X[2, :3, :3], X[1, :3, :3] @ R_FM, atol=1e-15)


# ----------------------------------------------------------------- model contract
def _fields(model):
    import dataclasses
    return {f.name: getattr(model, f.name) for f in dataclasses.fields(model)}


def test_make_compiled_model_fills_offsets_and_defaults():
    model = make_compiled_model([-1, 0, 1, 1], [W, JointType.QUATERNION_FLOATING, R_,
                                                JointType.BALL_RPY],
                                axis=[[0, 0, 0], [0, 0, 0], [0, 0, 3], [0, 0, 0]])
    assert (model.nq, model.nv) == (11, 10)
    assert model.q_start.tolist() == [0, 0, 7, 8]
    assert model.v_start.tolist() == [0, 0, 6, 7]
    np.testing.assert_allclose(model.axis[2], [0, 0, 1])
    assert np.all(np.isinf(model.q_lower)) and model.damping.shape == (10,)
    assert not model.parent.flags.writeable


def test_validate_rejects_parent_after_child():
    with pytest.raises(CompiledModelError, match="node 1 has parent 1"):
        make_compiled_model([-1, 1], [W, R_], axis=[[0, 0, 0], [0, 0, 1]])


def test_validate_rejects_order_that_is_not_depth_first():
    with pytest.raises(CompiledModelError, match="depth-first"):
        make_compiled_model([-1, 0, 0, 1], [W, W, W, W])


def test_validate_names_the_bad_field_and_node():
    good = _fields(make_compiled_model([-1, 0], [W, R_], axis=[[0, 0, 0], [1, 0, 0]],
                                       node_names=["world", "arm"]))
    bad = dict(good, axis=np.array([[0, 0, 0], [2.0, 0, 0]]))
    with pytest.raises(CompiledModelError, match=r"node 1 \('arm'\) \(REVOLUTE\) has axis"):
        CompiledModel(**bad).validate()
    X = good["X_PF"].copy()
    X[1, :3, :3] *= 2.0
    with pytest.raises(CompiledModelError, match="X_PF"):
        CompiledModel(**dict(good, X_PF=X)).validate()
    with pytest.raises(CompiledModelError, match="'damping' has shape"):
        CompiledModel(**dict(good, damping=np.zeros(3))).validate()
    with pytest.raises(CompiledModelError, match="nq_j, nv_j"):
        CompiledModel(**dict(good, nq_j=np.array([0, 2]))).validate()


def test_make_compiled_model_rejects_unknown_joint_code():
    with pytest.raises(CompiledModelError, match="unknown codes"):
        make_compiled_model([-1, 0], [0, 42])


# ----------------------------------------------------------------- facade errors
def test_facade_reports_wrong_sizes_with_function_and_argument():
    td = TreeDynamics(acrobot_model())
    I10 = td.model.default_inertia
    with pytest.raises(DynamicsArgumentError, match=r"inverse_dynamics: q has size 5, "
                                                    r"expected nq = 2"):
        td.inverse_dynamics(np.zeros(5), np.zeros(2), np.zeros(2), I10, G)
    with pytest.raises(DynamicsArgumentError, match=r"mass_matrix: I10 has shape \(3, 10\)"):
        td.mass_matrix(np.zeros(2), np.zeros((3, 10)))
    with pytest.raises(DynamicsArgumentError, match="jacobian_spatial: node is 7"):
        td.jacobian_spatial(np.zeros(2), 7, np.zeros(3))
    with pytest.raises(DynamicsArgumentError, match="forward_dynamics: F_ext_W has shape"):
        td.forward_dynamics(np.zeros(2), np.zeros(2), np.zeros(2), I10, G, np.zeros((2, 6)))


def test_facade_accepts_lists():
    td = TreeDynamics(acrobot_model())
    tau = td.inverse_dynamics([0.1, 0.2], [0, 0], [0, 0], td.model.default_inertia.tolist(),
                              [0, 0, -9.81])
    np.testing.assert_allclose(tau, -td.gravity_generalized_forces(np.array([0.1, 0.2]),
                                                                   td.model.default_inertia, G))


def test_center_of_mass_of_massless_tree_raises():
    td = TreeDynamics(make_compiled_model([-1, 0], [W, R_], axis=[[0, 0, 0], [0, 0, 1]]))
    with pytest.raises(DynamicsArgumentError, match="total mass is zero"):
        td.center_of_mass(np.zeros(1), np.zeros((2, 10)))


def test_gimbal_lock_raises_in_velocity_map():
    model = make_compiled_model([-1, 0], [W, JointType.BALL_RPY],
                                node_names=["world", "ball"])
    td = TreeDynamics(model)
    with pytest.raises(DynamicsArgumentError, match="gimbal lock"):
        td.map_velocity_to_qdot(np.array([0.0, np.pi / 2, 0.0]), np.ones(3))


def test_tree_dynamics_rejects_non_model():
    with pytest.raises(DynamicsArgumentError, match="must be a CompiledModel"):
        TreeDynamics({"nb": 1})


def test_facade_accepts_read_only_and_strided_arrays():
    td = TreeDynamics(acrobot_model())
    I10 = td.model.default_inertia          # read-only
    x = np.array([0.3, 9.0, -0.2, 9.0])
    q = x[::2]                              # strided view
    q_ro = np.array([0.3, -0.2])
    q_ro.flags.writeable = False
    v = np.array([0.5, 1.0])
    expected = td.inverse_dynamics(np.array([0.3, -0.2]), v, v, I10.copy(), G).copy()
    np.testing.assert_allclose(td.inverse_dynamics(q, v, v, I10, G), expected, atol=1e-15)
    np.testing.assert_allclose(td.inverse_dynamics(q_ro, v, v, I10, G), expected, atol=1e-15)
