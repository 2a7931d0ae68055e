"""The two-link arm of the mechatronics lecture, four ways: Newton-Euler, spatial vectors,
Lagrange and Kane.

Two links hang from revolute joints about the world x axis (they move in the y-z plane);
each link lies along the z axis of its body frame (lengths 1 and 0.8 m, centers of mass
at mid-length, masses 2 and 1 kg, slender-rod inertias). The equations of motion

    M(q) q̈ + C(q, q̇) q̇ = τ_g(q) + τ

are computed at one state by

1. Newton-Euler: an outward pass of angular velocities and center-of-mass accelerations
   and an inward pass of forces and moments, in 3-vectors (plain numpy, below);
2. spatial vectors: the plant's Featherstone algorithms (CRBA for M, RNEA for C q̇ and
   inverse dynamics, ABA for forward dynamics);
3. Lagrange: T and V derived symbolically (sympy), M = ∂²T/∂q̇², C from the Christoffel
   symbols, τ_g = −∂V/∂q;
4. Kane: partial velocities and partial angular velocities, generalized inertia and
   active forces (sympy).

It prints M, C(q, q̇) q̇ (and Lagrange's C matrix), τ_g, the inverse dynamics of a given
q̈ and the forward dynamics of a given τ from each formulation, and the largest
difference to the spatial-vector result; the check is that all agree to 1e-9.
``--quick`` is the same run (it is already short); ``--html`` replays the arm falling
from the chosen state under gravity for 2 s.

Run: ``python examples/two_link_formulations.py [--quick] [--html OUT] [--plots DIR]``
"""

import sys

import numpy as np

import _support
from merganser.framework import DiagramBuilder
from merganser.geometry import Cylinder, RigidTransform, Sphere
from merganser.multibody import (FixedOffsetFrame, RevoluteJoint, SpatialInertia,
                       add_multibody_plant_scene_graph)

LENGTHS = (1.0, 0.8)
MASSES = (2.0, 1.0)
RADIUS = 0.03
G = 9.81
Q = np.array([0.7, -1.1])
V = np.array([1.3, -0.6])
VDOT = np.array([0.4, 2.0])
TAU = np.array([3.0, -1.5])


def central_inertia(m, L):
    """Rotational inertia (3, 3) of a solid rod along z about its center, in its frame."""
    i_perp = m * (3 * RADIUS**2 + L**2) / 12.0
    return np.diag([i_perp, i_perp, 0.5 * m * RADIUS**2])


def rot_x(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


# ---------------------------------------------------------------- 1. Newton-Euler
def newton_euler(q, v, vdot, gravity=G):
    """Joint torques τ (2,) that produce q̈ = `vdot` at (q, q̇) under gravity (NE)."""
    x = np.array([1.0, 0.0, 0.0])
    g = np.array([0.0, 0.0, -gravity])
    R = [rot_x(q[0]), rot_x(q[0] + q[1])]
    w = [v[0] * x, (v[0] + v[1]) * x]                  # angular velocities (world)
    alpha = [vdot[0] * x, (vdot[0] + vdot[1]) * x]     # axes parallel: no ω × axis term
    o2 = R[0] @ [0.0, 0.0, LENGTHS[0]]                 # elbow position (world)
    r = [R[i] @ [0.0, 0.0, LENGTHS[i] / 2] for i in range(2)]   # joint -> COM
    a_o2 = np.cross(alpha[0], o2) + np.cross(w[0], np.cross(w[0], o2))
    a_c = [np.cross(alpha[0], r[0]) + np.cross(w[0], np.cross(w[0], r[0])),
           a_o2 + np.cross(alpha[1], r[1]) + np.cross(w[1], np.cross(w[1], r[1]))]
    I_W = [R[i] @ central_inertia(MASSES[i], LENGTHS[i]) @ R[i].T for i in range(2)]
    # Inward pass: force F_i on link i from its parent, moment n_i about its joint.
    F2 = MASSES[1] * (a_c[1] - g)
    n2 = I_W[1] @ alpha[1] + np.cross(w[1], I_W[1] @ w[1]) + np.cross(r[1], F2)
    F1_own = MASSES[0] * (a_c[0] - g)
    n1 = (I_W[0] @ alpha[0] + np.cross(w[0], I_W[0] @ w[0]) + np.cross(r[0], F1_own)
          + n2 + np.cross(o2, F2))
    return np.array([x @ n1, x @ n2])


def terms_from_inverse_dynamics(inverse_dynamics):
    """(M, C q̇, τ_g) at (Q, V) from an inverse-dynamics function f(q, v, vdot, gravity)."""
    M = np.column_stack([inverse_dynamics(Q, np.zeros(2), e, 0.0) for e in np.eye(2)])
    Cv = inverse_dynamics(Q, V, np.zeros(2), 0.0)
    tau_g = -inverse_dynamics(Q, np.zeros(2), np.zeros(2), G)
    return M, Cv, tau_g


# ---------------------------------------------------------------- 2. spatial vectors
def make_plant(builder=None):
    """The arm as a MultibodyPlant (both joints actuated), with visual geometry."""
    from merganser.multibody import MultibodyPlant

    if builder is None:
        plant, scene_graph = MultibodyPlant(0.0), None
    else:
        plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    parent = plant.world_frame()
    colors = ([0.95, 0.6, 0.1, 1.0], [0.9, 0.2, 0.2, 1.0])
    for i, (m, L) in enumerate(zip(MASSES, LENGTHS)):
        body = plant.add_rigid_body(f"link{i + 1}", SpatialInertia.make_from_central_inertia(
            m, [0.0, 0.0, L / 2], central_inertia(m, L)))
        joint = plant.add_joint(RevoluteJoint(f"joint{i + 1}", parent, body.body_frame(),
                                              [1.0, 0.0, 0.0]))
        plant.add_joint_actuator(f"joint{i + 1}", joint)
        if scene_graph is not None:
            plant.register_visual_geometry(body, RigidTransform([0.0, 0.0, L / 2]),
                                           Cylinder(RADIUS, L), f"rod{i + 1}", colors[i])
            plant.register_visual_geometry(body, RigidTransform(), Sphere(2 * RADIUS),
                                           f"joint{i + 1}", [0.3, 0.3, 0.3, 1.0])
        parent = plant.add_frame(FixedOffsetFrame(f"tip{i + 1}", body.body_frame(),
                                                  RigidTransform([0.0, 0.0, L])))
    plant.finalize()
    return plant, scene_graph


def spatial_vector_terms(plant):
    """(M, C q̇, τ_g, inverse dynamics of VDOT, forward dynamics of TAU) from the plant."""
    from merganser.multibody import MultibodyForces

    ctx = plant.create_default_context()
    plant.set_positions_and_velocities(ctx, np.concatenate([Q, V]))
    M = plant.calc_mass_matrix(ctx)
    Cv = plant.calc_bias_term(ctx)
    tau_g = plant.calc_gravity_generalized_forces(ctx)
    tau_id = plant.calc_inverse_dynamics(ctx, VDOT, MultibodyForces(plant)) - tau_g
    plant.get_actuation_input_port().fix_value(ctx, TAU)
    vdot = plant.eval_time_derivatives(ctx)[2:]
    return M, Cv, tau_g, tau_id, vdot


# ---------------------------------------------------------------- 3. Lagrange, 4. Kane
def _symbolic_kinematics():
    import sympy as sp

    q = sp.Matrix(sp.symbols("q1 q2"))
    u = sp.Matrix(sp.symbols("u1 u2"))
    ud = sp.Matrix(sp.symbols("ud1 ud2"))

    def rx(a):
        return sp.Matrix([[1, 0, 0], [0, sp.cos(a), -sp.sin(a)], [0, sp.sin(a), sp.cos(a)]])

    R = [rx(q[0]), rx(q[0] + q[1])]
    ez = sp.Matrix([0, 0, 1])
    o2 = R[0] * ez * LENGTHS[0]
    p_c = [R[0] * ez * (LENGTHS[0] / 2), o2 + R[1] * ez * (LENGTHS[1] / 2)]
    x = sp.Matrix([1, 0, 0])
    w = [u[0] * x, (u[0] + u[1]) * x]
    I_W = [R[i] * sp.Matrix(central_inertia(MASSES[i], LENGTHS[i])) * R[i].T
           for i in range(2)]
    return sp, q, u, ud, p_c, w, I_W


def lagrange_terms():
    """(M, C matrix, τ_g) as functions of (q, q̇), from Lagrange's equations."""
    sp, q, u, ud, p_c, w, I_W = _symbolic_kinematics()
    v_c = [pc.jacobian(q) * u for pc in p_c]
    T = sum((MASSES[i] * v_c[i].dot(v_c[i]) + w[i].dot(I_W[i] * w[i])) / 2 for i in range(2))
    V = sum(MASSES[i] * G * p_c[i][2] for i in range(2))
    M = sp.hessian(T, u)
    n = 2
    C = sp.zeros(n, n)
    for i in range(n):
        for j in range(n):
            C[i, j] = sum((sp.diff(M[i, j], q[k]) + sp.diff(M[i, k], q[j])
                           - sp.diff(M[j, k], q[i])) * u[k] / 2 for k in range(n))
    tau_g = -sp.Matrix([V]).jacobian(q).T
    args = (list(q), list(u))
    return (sp.lambdify(args, M, "numpy"), sp.lambdify(args, C, "numpy"),
            sp.lambdify(args, tau_g, "numpy"))


def kane_inverse_dynamics():
    """τ(q, q̇, q̈, g) from Kane's equations: F_r + F_r* + τ_r = 0."""
    sp, q, u, ud, p_c, w, I_W = _symbolic_kinematics()
    g = sp.symbols("g")
    tau = sp.zeros(2, 1)
    for i in range(2):
        v_c = p_c[i].jacobian(q) * u
        # d/dt with q̇ = u: ∂/∂q · u + ∂/∂u · u̇
        a_c = v_c.jacobian(q) * u + v_c.jacobian(u) * ud
        alpha = w[i].jacobian(u) * ud
        inertia_torque = I_W[i] * alpha + w[i].cross(I_W[i] * w[i])
        weight = sp.Matrix([0, 0, -MASSES[i] * g])
        for r in range(2):
            v_r = v_c.diff(u[r])            # partial velocity of the COM
            w_r = w[i].diff(u[r])           # partial angular velocity
            F_star = -(MASSES[i] * a_c).dot(v_r) - inertia_torque.dot(w_r)
            F_active = weight.dot(v_r)
            tau[r] -= F_star + F_active
    f = sp.lambdify((list(q), list(u), list(ud), g), tau, "numpy")
    return lambda q_, v_, vd_, grav: np.asarray(f(q_, v_, vd_, grav), dtype=float).ravel()


# ---------------------------------------------------------------- comparison
def main(argv=None):
    args = _support.parse_args(argv, __doc__)
    np.set_printoptions(precision=6, suppress=True)

    builder = DiagramBuilder() if args.html else None
    plant, scene_graph = make_plant(builder)
    ref = spatial_vector_terms(plant)

    M_l, C_l, g_l = lagrange_terms()
    M_lag, C_lag = np.asarray(M_l(Q, V), float), np.asarray(C_l(Q, V), float)
    tau_g_lag = np.asarray(g_l(Q, V), float).ravel()
    kane = kane_inverse_dynamics()

    results = {"spatial vectors": ref}
    for name, terms in (("Newton-Euler", terms_from_inverse_dynamics(newton_euler)),
                        ("Kane", terms_from_inverse_dynamics(kane)),
                        ("Lagrange", (M_lag, C_lag @ V, tau_g_lag))):
        M, Cv, tau_g = terms
        tau_id = M @ VDOT + Cv - tau_g
        vdot = np.linalg.solve(M, TAU + tau_g - Cv)
        results[name] = (M, Cv, tau_g, tau_id, vdot)
    # Newton-Euler and Kane also give inverse dynamics directly.
    results["Newton-Euler"] = results["Newton-Euler"][:3] + (
        newton_euler(Q, V, VDOT), results["Newton-Euler"][4])
    results["Kane"] = results["Kane"][:3] + (kane(Q, V, VDOT, G), results["Kane"][4])

    print(f"two_link_formulations: q = {Q}, q̇ = {V}; inverse dynamics of q̈ = {VDOT}; "
          f"forward dynamics of τ = {TAU}")
    print(f"Lagrange's C(q, q̇) =\n{C_lag}")
    labels = ("M", "C q̇", "τ_g", "τ(q̈)", "q̈(τ)")
    worst = 0.0
    for name, values in results.items():
        diffs = [np.abs(a - b).max() for a, b in zip(values, ref)]
        worst = max(worst, *diffs)
        print(f"--- {name}: largest difference to spatial vectors {max(diffs):.2e}")
        for label, value in zip(labels, values):
            print(f"  {label:6s} = {np.array2string(value, prefix='           ')}")
    assert worst < 1e-9, f"two_link_formulations: formulations differ by {worst:.2e}"

    if args.html:
        from merganser.framework import SimulatorConfig

        replay = _support.Replay(args.html, builder, scene_graph,
                                 camera=((4.0, 0.3, 0.5), (0.0, 0.0, 0.0)))
        diagram = builder.build()
        context = diagram.create_default_context()
        plant.set_positions_and_velocities(plant.get_my_context_from_root(context),
                                           np.concatenate([Q, V]))
        replay.start()
        diagram.simulate(2.0, context=context, config=SimulatorConfig(accuracy=1e-6))
        replay.finish()
    if args.plots:
        from merganser.framework.plotting import plot_bars

        fig = plot_bars({name: np.concatenate([v[3], v[4]]) for name, v in results.items()},
                        ["τ1(q̈)", "τ2(q̈)", "q̈1(τ)", "q̈2(τ)"],
                        title="two-link arm: inverse and forward dynamics per formulation")
        _support.save_plots(args.plots, "two_link_formulations", {"dynamics": fig})
    return {"max_difference": worst}


if __name__ == "__main__":
    main(sys.argv[1:])
