"""Zero-moment point (ZMP) of a plant on a horizontal ground plane.

The ground must supply the wrench that, with gravity, produces the robot's rate of change
of momentum. About the world origin Wo, with total mass m, center of mass p_WScm,
linear momentum P and angular momentum H_Wo:

    f = Ṗ - m g,                 τ_Wo = Ḣ_Wo - p_WScm × m g.

The ZMP is the point Z on the plane z = h about which this ground wrench has no
horizontal moment; with τ_Z = τ_Wo - p_WZ × f = 0 in x and y:

    x_Z = (h f_x - τ_y) / f_z,   y_Z = (h f_y + τ_x) / f_z.

Ṗ and Ḣ_Wo are summed over the bodies from their center-of-mass accelerations
a_WBcm = J v̇ + J̇ v and angular accelerations α_WB (the plant's Jacobians and bias
accelerations): Ṗ = Σ m a_WBcm, Ḣ_Wo = Σ p_WBcm × m a_WBcm + I_Bcm_W α + ω × I_Bcm_W ω.
From measured contact forces f_i at points p_WCi the same formula applies with
f = Σ f_i and τ_Wo = Σ p_WCi × f_i (for points on the plane it is the center of pressure).

References
----------
M. Vukobratović and B. Borovac, "Zero-moment point: thirty five years of its life",
Int. J. Humanoid Robotics 1(1), 2004; S. Kajita et al., Introduction to Humanoid
Robotics, Springer 2014, ch. 3.
"""

import numpy as np

from merganser.multibody.plant import JacobianWrtVariable, MultibodyPlant

__all__ = ["calc_ground_reaction_wrench", "calc_zero_moment_point",
           "calc_zero_moment_point_from_contact_forces"]

_kV = JacobianWrtVariable.kV


def _check_height(fn, ground_height):
    try:
        h = float(ground_height)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: ground_height must be a number, got "
                        f"{type(ground_height).__name__}") from None
    if not np.isfinite(h):
        raise ValueError(f"{fn}: ground_height must be finite, got {ground_height!r}")
    return h


def _zmp_from_wrench(fn, tau_Wo, f, h):
    if not f[2] > 1e-12 * max(1.0, np.abs(f).max()):
        raise ValueError(
            f"{fn}: the vertical ground reaction force is {f[2]:.6g} N; the zero-moment "
            f"point exists only while the ground pushes up (f_z > 0), e.g. not in flight")
    return np.array([(h * f[0] - tau_Wo[1]) / f[2], (h * f[1] + tau_Wo[0]) / f[2], h])


def calc_ground_reaction_wrench(plant, context, vdot):
    """The wrench the environment must apply to produce v̇: F_Wo_W = [τ_Wo; f] (6,).

    Parameters
    ----------
    plant : MultibodyPlant
        A finalized plant (its gravity field gives g).
    context : Context
        Holds q and v (and the body mass parameters).
    vdot : array_like, shape (nv,)
        Generalized accelerations v̇.

    Returns
    -------
    ndarray, shape (6,)
        [τ_Wo; f]: moment about the world origin and force, in the world frame
        (f = Ṗ - m g, τ_Wo = Ḣ_Wo - p_WScm × m g).
    """
    fn = "calc_ground_reaction_wrench"
    if not isinstance(plant, MultibodyPlant):
        raise TypeError(f"{fn}: plant must be a MultibodyPlant, got {type(plant).__name__}")
    nv = plant.num_velocities()
    try:
        vdot = np.array(vdot, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: vdot must be an array of numbers, got "
                        f"{type(vdot).__name__}") from None
    if vdot.shape != (nv,):
        raise ValueError(f"{fn}: vdot has size {vdot.size}, expected nv = {nv}")
    g = plant.gravity_field().gravity_vector()
    world = plant.world_frame()
    Pdot, Hdot, mg_moment, f_gravity = np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3)
    for i in range(plant.num_bodies()):
        body = plant.get_body(i)
        if body.is_world():
            continue
        M = body.calc_spatial_inertia_in_body_frame(context)
        m = M.get_mass()
        if m == 0.0:
            continue
        p_BoBcm_B = np.asarray(M.get_com())
        I_BBo_B = M.calc_rotational_inertia().copy_to_full_matrix3()
        I_BBcm_B = I_BBo_B - m * (p_BoBcm_B @ p_BoBcm_B * np.eye(3)
                                  - np.outer(p_BoBcm_B, p_BoBcm_B))
        X_WB = plant.calc_relative_transform(context, world, body.body_frame())
        R_WB = X_WB.rotation().matrix()
        p_WBcm = X_WB @ p_BoBcm_B
        J = plant.calc_jacobian_spatial_velocity(context, _kV, body.body_frame(), p_BoBcm_B,
                                                 world, world)
        bias = plant.calc_bias_spatial_acceleration(context, _kV, body.body_frame(),
                                                    p_BoBcm_B, world, world).get_coeffs()
        A = J @ vdot + bias                        # [α_WB_W; a_WBcm_W]
        w_WB = plant.eval_body_spatial_velocity_in_world(context, body).rotational()
        I_W = R_WB @ I_BBcm_B @ R_WB.T
        Pdot += m * A[3:]
        Hdot += np.cross(p_WBcm, m * A[3:]) + I_W @ A[:3] + np.cross(w_WB, I_W @ w_WB)
        if plant.is_gravity_enabled(body.model_instance()):
            f_gravity += m * g
            mg_moment += np.cross(p_WBcm, m * g)
    return np.concatenate([Hdot - mg_moment, Pdot - f_gravity])


def calc_zero_moment_point(plant, context, vdot, ground_height=0.0):
    """Zero-moment point p_WZ (3,) on the plane z = ground_height from q, v (in `context`)
    and the accelerations v̇.

    Parameters
    ----------
    plant : MultibodyPlant
    context : Context
    vdot : array_like, shape (nv,)
    ground_height : float
        Height h of the horizontal ground plane (m).

    Returns
    -------
    ndarray, shape (3,)
        [x_Z, y_Z, h] in the world frame (m).

    Raises
    ------
    ValueError
        If the required vertical ground force is not positive (no ZMP exists).
    """
    fn = "calc_zero_moment_point"
    h = _check_height(fn, ground_height)
    F = calc_ground_reaction_wrench(plant, context, vdot)
    return _zmp_from_wrench(fn, F[:3], F[3:], h)


def calc_zero_moment_point_from_contact_forces(p_WCi, f_Ci_W, ground_height=0.0):
    """Zero-moment point (center of pressure) p_WZ (3,) from measured contact forces.

    Parameters
    ----------
    p_WCi : array_like, shape (3, n) (or (3,) for one contact)
        Contact points in the world frame (m).
    f_Ci_W : array_like, shape (3, n) (or (3,))
        Forces applied by the ground on the robot at those points, in the world frame
        (N); e.g. ContactResults' ``contact_force`` (the force on body B), negated when
        the robot is body A.
    ground_height : float
        Height h of the ground plane (m).

    Returns
    -------
    ndarray, shape (3,)
    """
    fn = "calc_zero_moment_point_from_contact_forces"
    h = _check_height(fn, ground_height)
    arrays = []
    for arg, value in (("p_WCi", p_WCi), ("f_Ci_W", f_Ci_W)):
        try:
            a = np.array(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{fn}: {arg} must be an array of numbers, got "
                            f"{type(value).__name__}") from None
        a = a.reshape(3, 1) if a.shape == (3,) else a
        if a.ndim != 2 or a.shape[0] != 3:
            raise ValueError(f"{fn}: {arg} has shape {a.shape}, expected (3, n)")
        arrays.append(a)
    p, f = arrays
    if p.shape != f.shape:
        raise ValueError(f"{fn}: p_WCi has shape {p.shape} but f_Ci_W has shape {f.shape}")
    tau = np.cross(p.T, f.T).sum(axis=0)
    return _zmp_from_wrench(fn, tau, f.sum(axis=1), h)
