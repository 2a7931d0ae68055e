"""Welded bodies merged into composite nodes give the results of the unmerged tree.

`TreeDynamics(model)` merges every welded body into its nearest non-welded ancestor for
the kernels (`multibody.kernels.layout.pack_model`); `merge_welded=False` keeps each
welded body a node of its own. Both must agree (to 1e-12, relative to the size of the
quantity) on trees with welded chains and branches, with external forces on welded
bodies, after a welded body's parameters change, and inside the plant (mass parameters
set in a Context, collision geometry on a welded body).
"""

import os
import pathlib
import warnings

import numpy as np
import pytest

from merganser.framework import DiagramBuilder
from merganser.geometry import CoulombFriction, RigidTransform, Sphere
from merganser.multibody import (
    MultibodyPlant, Parser, RevoluteJoint, SpatialInertia, WeldJoint,
    add_multibody_plant_scene_graph,
)
from merganser.multibody.kernels import DynamicsArgumentError, TreeDynamics
from merganser.multibody.tree.compiled_model import JointType, make_compiled_model
from merganser.multibody.tree.random_tree import random_state, random_tree

G = np.array([0.0, 0.0, -9.81])
J = JointType
WELDED_MIX = [J.REVOLUTE, J.WELD, J.WELD, J.PRISMATIC, J.WELD, J.BALL_QUATERNION, J.WELD,
              J.SCREW, J.WELD, J.UNIVERSAL]


def assert_close(a, b, rtol=1e-12):
    a, b = np.asarray(a), np.asarray(b)
    scale = max(1.0, float(np.abs(b).max()))
    np.testing.assert_allclose(a, b, rtol=0.0, atol=rtol * scale)


def _pair(model):
    return TreeDynamics(model), TreeDynamics(model, merge_welded=False)


def _compare_everything(model, rng):
    merged, plain = _pair(model)
    assert merged.merge_welded and not plain.merge_welded
    q, v = random_state(model, rng)
    vd, tau = rng.normal(size=model.nv), rng.normal(size=model.nv)
    I10 = model.default_inertia.copy()
    F = rng.normal(size=(model.nb, 6))
    p = np.array([0.1, -0.2, 0.3])
    for fn, args in (
            ("forward_kinematics", (q,)),
            ("body_spatial_velocities", (q, v)),
            ("body_spatial_accelerations", (q, v, vd)),
            ("mass_matrix", (q, I10)),
            ("inverse_dynamics", (q, v, vd, I10, G)),
            ("inverse_dynamics", (q, v, vd, I10, G, F)),
            ("forward_dynamics", (q, v, tau, I10, G)),
            ("forward_dynamics", (q, v, tau, I10, G, F)),
            ("bias_term", (q, v, I10)),
            ("gravity_generalized_forces", (q, I10, G)),
            ("center_of_mass", (q, I10)),
            ("center_of_mass_jacobian", (q, I10)),
            ("spatial_momentum", (q, v, I10, p)),
            ("kinetic_energy", (q, v, I10)),
            ("potential_energy", (q, I10, G))):
        a = np.copy(getattr(merged, fn)(*args))
        assert_close(a, getattr(plain, fn)(*args))
    for k in range(model.nb):
        assert_close(merged.jacobian_spatial(q, k, p), plain.jacobian_spatial(q, k, p))
        assert_close(merged.bias_spatial_acceleration(q, v, k, p),
                     plain.bias_spatial_acceleration(q, v, k, p))
    # ABA inverts RNEA with external forces on welded bodies.
    tau_F = np.copy(merged.inverse_dynamics(q, v, vd, I10, G, F))
    assert_close(merged.forward_dynamics(q, v, tau_F, I10, G, F), vd, rtol=1e-9)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("floating", [False, True], ids=["fixed", "floating"])
def test_tree_with_welded_branches_merged_equals_unmerged(seed, floating):
    model = random_tree(24, seed=seed, floating_base=floating, joint_types=WELDED_MIX)
    welded = model.jtype[1:] == J.WELD
    assert welded.sum() >= 8
    # welded bodies with welded children, and welded bodies carrying moving subtrees
    assert any(model.jtype[model.parent[k]] == J.WELD and model.jtype[k] == J.WELD
               for k in range(2, model.nb))
    assert any(model.jtype[model.parent[k]] == J.WELD and model.jtype[k] != J.WELD
               for k in range(2, model.nb))
    _compare_everything(model, np.random.default_rng(seed))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("merge", [True, False], ids=["merged", "unmerged"])
def test_mobile_forward_kinematics_is_the_mobile_rows_of_forward_kinematics(seed, merge):
    model = random_tree(24, seed=seed, floating_base=seed == 1, joint_types=WELDED_MIX)
    td = TreeDynamics(model, merge_welded=merge)
    moving = np.flatnonzero(model.jtype != J.WELD)
    expected_nodes = np.union1d([0], moving) if merge else np.arange(model.nb)
    np.testing.assert_array_equal(td.mobile_nodes, expected_nodes)
    q, _ = random_state(model, np.random.default_rng(seed))
    X_WB = td.forward_kinematics(q).copy()
    X_WM = td.mobile_forward_kinematics(q)
    assert X_WM.shape == (expected_nodes.size, 4, 4)
    np.testing.assert_array_equal(X_WM, X_WB[td.mobile_nodes])     # bitwise
    # each welded body's pose is its composite body's pose times the fixed X_CB
    row = {int(k): i for i, k in enumerate(td.mobile_nodes)}
    for k in np.flatnonzero(model.jtype == J.WELD)[1:] if merge else ():
        c = int(model.composite_node[k])
        X_WC = X_WM[row[c]] if c else np.eye(4)
        assert_close(X_WC @ model.X_CB[k], X_WB[k])
    with pytest.raises(DynamicsArgumentError, match="mobile_forward_kinematics: q has size"):
        td.mobile_forward_kinematics(q[:-1])


def test_composite_node_and_offset_of_a_welded_chain():
    """world -rev- A =weld= B =weld= C -rev- D; B and C move with A."""
    X1, X2, X3 = (np.eye(4) for _ in range(3))
    X1[:3, 3], X2[:3, 3], X3[:3, 3] = (0.1, 0, 0), (0, 0.2, 0), (0, 0, 0.3)
    X2[:3, :3] = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]
    model = make_compiled_model([-1, 0, 1, 2, 3], [J.WELD, J.REVOLUTE, J.WELD, J.WELD,
                                                   J.REVOLUTE],
                                X_PF=np.stack([np.eye(4), np.eye(4), X1, X2, X3]),
                                axis=[[0, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0], [1, 0, 0]])
    np.testing.assert_array_equal(model.composite_node, [0, 1, 1, 1, 4])
    np.testing.assert_allclose(model.X_CB[3], X1 @ X2, atol=1e-15)
    np.testing.assert_allclose(model.X_CB[4], np.eye(4))


def test_bodies_welded_to_the_world_have_the_world_as_composite():
    model = make_compiled_model([-1, 0, 1, 2], [J.WELD, J.WELD, J.WELD, J.REVOLUTE],
                                axis=[[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 1, 0]])
    np.testing.assert_array_equal(model.composite_node, [0, 0, 0, 3])


def test_changed_parameters_of_a_welded_body_are_merged_again():
    model = random_tree(16, seed=11, joint_types=WELDED_MIX)
    merged, plain = _pair(model)
    rng = np.random.default_rng(3)
    q, v = random_state(model, rng)
    I10 = model.default_inertia.copy()
    M0 = merged.mass_matrix(q, I10).copy()
    w = int(np.flatnonzero((model.jtype == J.WELD) & (model.composite_node > 0))[0])
    I10[w] *= 4.0                     # a heavier welded body, changed in place
    M1 = merged.mass_matrix(q, I10).copy()
    assert np.abs(M1 - M0).max() > 1e-3
    assert_close(M1, plain.mass_matrix(q, I10))
    assert_close(merged.inverse_dynamics(q, v, v, I10, G), plain.inverse_dynamics(q, v, v, I10, G))
    assert_close(merged.forward_dynamics(q, v, v, I10, G), plain.forward_dynamics(q, v, v, I10, G))
    I10[w] /= 4.0                     # and back
    assert_close(merged.mass_matrix(q, I10), M0)
    I10[w, 0] = np.nan                # non-finite parameters are not hidden by the memo
    assert np.isnan(merged.mass_matrix(q, I10)).any()


def test_batches_and_threads_merge_like_single_calls():
    model = random_tree(14, seed=5, floating_base=True, joint_types=WELDED_MIX)
    merged, plain = _pair(model)
    rng = np.random.default_rng(0)
    states = [random_state(model, rng) for _ in range(5)]
    Q = np.stack([s[0] for s in states])
    V = np.stack([s[1] for s in states])
    I10 = model.default_inertia
    assert_close(merged.rnea_batch(Q, V, V, I10, G), plain.rnea_batch(Q, V, V, I10, G))
    assert_close(merged.aba_batch(Q, V, V, I10, G), plain.aba_batch(Q, V, V, I10, G))
    assert_close(merged.crba_batch(Q, I10), plain.crba_batch(Q, I10))
    assert_close(merged.fk_batch(Q), plain.fk_batch(Q))
    fork = merged.fork()
    assert_close(fork.mass_matrix(Q[1], I10), plain.mass_matrix(Q[1], I10))


# ----------------------------------------------------------------- through the plant
def _arm_with_welded_tool(scene_graph=False, tool_mass=1.5):
    """world -(revolute z)- link =(weld, x 0.5)= tool; the tool carries a sphere."""
    if scene_graph:
        builder = DiagramBuilder()
        plant, _ = add_multibody_plant_scene_graph(builder, 0.0)
    else:
        builder, plant = None, MultibodyPlant(0.0)
    link = plant.add_rigid_body("link", SpatialInertia.solid_sphere_with_mass(2.0, 0.1))
    tool = plant.add_rigid_body("tool", SpatialInertia.solid_sphere_with_mass(tool_mass, 0.05))
    plant.add_joint(RevoluteJoint("shoulder", plant.world_frame(), link.body_frame(),
                                  [0.0, 0.0, 1.0]))
    plant.add_joint(WeldJoint("mount", link.body_frame(), tool.body_frame(),
                              RigidTransform([0.5, 0.0, 0.0])))
    if scene_graph:
        plant.register_collision_geometry(tool, RigidTransform([0.0, 0.0, 0.2]), Sphere(0.1),
                                          "tip", CoulombFriction(0.5, 0.5))
    plant.finalize()
    return builder, plant, link, tool


def test_plant_mass_matrix_follows_the_mass_of_a_welded_body_set_in_the_context():
    _, plant, link, tool = _arm_with_welded_tool()
    ctx = plant.create_default_context()
    plant.set_positions(ctx, np.array([0.7]))

    def expected(m_tool):
        # I_zz of each solid sphere (2/5 m r^2) plus the tool's m d^2 at d = 0.5
        return 0.4 * 2.0 * 0.1 ** 2 + 0.4 * m_tool * 0.05 ** 2 + m_tool * 0.25

    assert plant.calc_mass_matrix(ctx)[0, 0] == pytest.approx(expected(1.5), rel=1e-13)
    tool.set_mass(ctx, 4.0)
    assert plant.calc_mass_matrix(ctx)[0, 0] == pytest.approx(expected(4.0), rel=1e-13)
    # a fresh plant built with that mass agrees
    _, fresh, _, _ = _arm_with_welded_tool(tool_mass=4.0)
    fctx = fresh.create_default_context()
    fresh.set_positions(fctx, np.array([0.7]))
    assert_close(plant.calc_mass_matrix(ctx), fresh.calc_mass_matrix(fctx))
    # and the default context still has the mass of the model
    assert plant.calc_mass_matrix(plant.create_default_context())[0, 0] == pytest.approx(
        expected(1.5), rel=1e-13)


def test_collision_geometry_on_a_welded_body_is_posed_from_its_composite():
    builder, plant, link, tool = _arm_with_welded_tool(scene_graph=True)
    diagram = builder.build()
    root = diagram.create_default_context()
    ctx = plant.get_my_context_from_root(root)
    theta = 0.6
    plant.set_positions(ctx, np.array([theta]))
    c, s = np.cos(theta), np.sin(theta)
    X_WT = plant.eval_body_pose_in_world(ctx, tool)
    np.testing.assert_allclose(X_WT.translation(), [0.5 * c, 0.5 * s, 0.0], atol=1e-15)
    query = plant.get_geometry_query_input_port().eval(ctx)
    [gid] = plant.get_collision_geometries(tool)
    np.testing.assert_allclose(query.get_pose_in_world(gid).translation(),
                               [0.5 * c, 0.5 * s, 0.2], atol=1e-15)
    # The sphere's signed distance to a point seen from the world.
    [d] = query.compute_signed_distance_to_point(np.array([0.5 * c, 0.5 * s, 0.5]))
    assert d.distance == pytest.approx(0.2, abs=1e-12)


def test_spatial_jacobian_of_a_welded_tool_point_through_the_plant():
    from merganser.multibody import JacobianWrtVariable
    _, plant, link, tool = _arm_with_welded_tool()
    ctx = plant.create_default_context()
    theta = -1.1
    plant.set_positions(ctx, np.array([theta]))
    p_TQ = np.array([0.1, 0.0, 0.3])
    Jv = plant.calc_jacobian_spatial_velocity(ctx, JacobianWrtVariable.kV, tool.body_frame(),
                                              p_TQ, plant.world_frame(), plant.world_frame())
    # Q sits at radius 0.6 from the z axis at angle theta: v = w x p_WQ with w = e_z
    c, s = np.cos(theta), np.sin(theta)
    np.testing.assert_allclose(Jv[:, 0], [0, 0, 1, -0.6 * s, 0.6 * c, 0], atol=1e-15)


# ----------------------------------------------------------------- Talos (example-robot-data)
ERD = pathlib.Path(os.environ.get("MERGANSER_EXAMPLE_ROBOT_DATA", "/work/erd"))
TALOS = ERD / "robots/talos_data/robots/talos_reduced.urdf"


@pytest.mark.skipif(not TALOS.exists(), reason="example-robot-data's Talos is not installed "
                    "(set MERGANSER_EXAMPLE_ROBOT_DATA to a checkout)")
def test_talos_merged_equals_unmerged():
    from merganser.multibody.plant.plant_core import get_plant_core
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.package_map().add("example-robot-data", str(ERD))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser.add_models(str(TALOS))
    plant.finalize()
    model = get_plant_core(plant).model
    assert np.sum(model.jtype == J.WELD) > 20
    _compare_everything(model, np.random.default_rng(2))
