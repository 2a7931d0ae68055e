"""A planar biped walking: computed-torque tracking of energy-optimal cubic joint
trajectories, feet on the ground by LCP time stepping (Lemke) with Coulomb friction.

The robot moves in the x-z plane: a trunk on a planar joint (x, z, pitch: unactuated) and
two legs of hip, knee and ankle (actuated), with rectangular feet (20 x 8 x 2 cm boxes, 5 cm
behind to 15 cm ahead of the ankle): 7 links, 9 degrees of freedom, 18 kg. The plant is
discrete (1 ms) with point contact solved as an LCP by Lemke's method
(``discrete_contact_approximation="lcp"``), μ = 0.8; foot touchdowns are inelastic impacts
of the time stepping.

The gait is quasi-static: each step shifts the trunk over the stance foot (both feet on
the ground; the hip follows a smooth step and both legs follow it by inverse kinematics),
then swings the other foot: 5 cm straight up, over an apex 12.5 cm high to one step
(12 cm) ahead of the stance foot, and down. The carry is two energy-optimal cubics
(``solve_energy_optimal_cubic_trajectory`` on a fixed-hip model of the leg) whose
velocity at the apex is optimized. A
computed-torque controller tracks the joints: τ = [M(q) a* + C(q, v) v − τ_g(q) −
Σ J_Fᵀ f_F]_legs + PD, with a* = [ẍ_hip, 0, 0 (trunk, planned); q̈_d + Kp e + Kd ė] and
the planned ground reactions f_F (m [ẍ_hip, g] at the planned zero-moment point, shared
between the feet), plus a joint PD in torque units, stiffer at the ankle of a loaded leg.

From the contact results it computes the zero-moment point (center of pressure) and the
support polygon of the feet in contact, and the friction ratio |f_t| / f_n of the stance
foot. Checks: the trunk advances by the planned distance within 2 cm, stays within 2 cm of
its height and 0.05 rad of upright; the ZMP stays more than 1 cm inside the support
polygon at every sample; the stance foot's friction ratio stays below μ and stance feet
do not slip (< 2 mm). ``--quick`` walks 2 steps instead of 6.

Run: ``python examples/planar_biped.py [--quick] [--html OUT] [--plots DIR]``
"""

import sys

import numpy as np

import _support
from merganser.framework import DiagramBuilder, LeafSystem, PiecewisePolynomial, Simulator, TrajectorySource
from merganser.geometry import Box, CoulombFriction, HalfSpace, RigidTransform, RotationMatrix, Sphere
from merganser.multibody import (FixedOffsetFrame, JacobianWrtVariable, MultibodyPlant,
                       MultibodyPlantConfig, PlanarJoint, RevoluteJoint, SpatialInertia,
                       add_multibody_plant)
from merganser.multibody.planning import (SupportPolygon, calc_zero_moment_point_from_contact_forces,
                                solve_energy_optimal_cubic_trajectory)

TRUNK_MASS, TRUNK_HEIGHT = 10.0, 0.5
THIGH, SHANK = (2.0, 0.4), (1.5, 0.4)          # (mass, length)
FOOT_MASS, FOOT_SIZE = 0.5, np.array([0.2, 0.08, 0.02])
FOOT_OFFSET_X, ANKLE_HEIGHT = 0.05, 0.06        # sole center ahead of the ankle; ankle height
HIP_Y = 0.1
HIP_HEIGHT = 0.74
STEP, LIFT = 0.12, 0.05
SHIFT_TIME, SWING_TIME = 1.2, 1.2
SWING_FRACTIONS = (0.25, 0.5, 0.25)            # lift, carry, lower (of SWING_TIME)
MU, TIME_STEP = 0.8, 1e-3
KP, KD = 400.0, 40.0
# Joint-level PD on top (N·m/rad, N·m·s/rad; hip, knee, ankle per leg): the M-weighted
# gains alone are too soft for a stance leg carrying the trunk.
KP_JOINT = np.tile([600.0, 600.0, 100.0], 2)
KD_JOINT = np.tile([15.0, 15.0, 2.0], 2)
KP_STANCE = np.tile([0.0, 0.0, 400.0], 2)      # added on a loaded leg (its foot is held)
KD_STANCE = np.tile([0.0, 0.0, 10.0], 2)
LEGS = ("left", "right")


# ---------------------------------------------------------------- model
def _rod(mass, length):
    I = mass * length**2 / 12.0
    return SpatialInertia.make_from_central_inertia(mass, [0.0, 0.0, -length / 2],
                                                    np.diag([I, I, 1e-4 * mass]))


def _foot():
    lx, ly, lz = FOOT_SIZE
    I = FOOT_MASS / 12.0 * np.diag([ly**2 + lz**2, lx**2 + lz**2, lx**2 + ly**2])
    return SpatialInertia.make_from_central_inertia(
        FOOT_MASS, [FOOT_OFFSET_X, 0.0, -ANKLE_HEIGHT + lz / 2], I)


def add_leg(plant, parent_frame, side, y, with_geometry, friction):
    """Hip, knee and ankle (axis −y: positive angles swing forward) of one leg."""
    thigh = plant.add_rigid_body(f"{side}_thigh", _rod(*THIGH))
    shank = plant.add_rigid_body(f"{side}_shank", _rod(*SHANK))
    foot = plant.add_rigid_body(f"{side}_foot", _foot())
    axis = [0.0, -1.0, 0.0]
    hip = plant.add_frame(FixedOffsetFrame(f"{side}_hip", parent_frame, RigidTransform([0, y, 0])))
    knee = plant.add_frame(FixedOffsetFrame(f"{side}_knee", thigh.body_frame(),
                                            RigidTransform([0, 0, -THIGH[1]])))
    ankle = plant.add_frame(FixedOffsetFrame(f"{side}_ankle", shank.body_frame(),
                                             RigidTransform([0, 0, -SHANK[1]])))
    for name, F, body in (("hip", hip, thigh), ("knee", knee, shank), ("ankle", ankle, foot)):
        joint = plant.add_joint(RevoluteJoint(f"{side}_{name}", F, body.body_frame(), axis))
        plant.add_joint_actuator(f"{side}_{name}", joint)
    if with_geometry:
        X_sole = RigidTransform([FOOT_OFFSET_X, 0.0, -ANKLE_HEIGHT + FOOT_SIZE[2] / 2])
        plant.register_collision_geometry(foot, X_sole, Box(*FOOT_SIZE), f"{side}_sole",
                                          friction)
        color = [0.2, 0.5, 0.9, 1.0] if side == "left" else [0.9, 0.5, 0.2, 1.0]
        plant.register_visual_geometry(foot, X_sole, Box(*FOOT_SIZE), f"{side}_sole_visual",
                                       color)
        for body, length in ((thigh, THIGH[1]), (shank, SHANK[1])):
            plant.register_visual_geometry(body, RigidTransform([0, 0, -length / 2]),
                                           Box(0.05, 0.05, length), f"{body.name()}_visual",
                                           color)
        plant.register_visual_geometry(shank, RigidTransform(), Sphere(0.035),
                                       f"{side}_knee_visual", [0.3, 0.3, 0.3, 1.0])
    return foot


def make_biped(builder):
    """Discrete plant (LCP contact) with the biped and the ground; returns (plant, sg, feet)."""
    config = MultibodyPlantConfig(time_step=TIME_STEP, contact_model="point",
                                  discrete_contact_approximation="lcp")
    plant, scene_graph = add_multibody_plant(config, builder)
    trunk = plant.add_rigid_body("trunk", SpatialInertia.make_from_central_inertia(
        TRUNK_MASS, [0.0, 0.0, TRUNK_HEIGHT / 2], np.diag([0.25, 0.25, 0.05])))
    # F: the world's x-z plane as the joint's x-y plane (F's z is world −y).
    plane = RigidTransform(RotationMatrix.make_x_rotation(np.pi / 2))
    F = plant.add_frame(FixedOffsetFrame("sagittal_plane", plant.world_frame(), plane))
    M = plant.add_frame(FixedOffsetFrame("trunk_plane", trunk.body_frame(), plane))
    plant.add_joint(PlanarJoint("trunk_planar", F, M))
    friction = CoulombFriction(MU, MU)
    feet = [add_leg(plant, trunk.body_frame(), side, y, True, friction)
            for side, y in zip(LEGS, (HIP_Y, -HIP_Y))]
    plant.register_visual_geometry(trunk, RigidTransform([0, 0, TRUNK_HEIGHT / 2]),
                                   Box(0.12, 0.3, TRUNK_HEIGHT), "trunk_visual",
                                   [0.7, 0.7, 0.75, 1.0])
    world = plant.world_body()
    plant.register_collision_geometry(world, RigidTransform(), HalfSpace(), "ground", friction)
    plant.register_visual_geometry(world, RigidTransform([0.5, 0, -0.005]), Box(3.0, 1.0, 0.01),
                                   "ground_visual", [0.5, 0.55, 0.5, 1.0])
    plant.finalize()
    return plant, scene_graph, feet


def make_leg_model():
    """A fixed-hip model of one leg (for the energy-optimal swing trajectories)."""
    plant = MultibodyPlant(0.0)
    add_leg(plant, plant.world_frame(), "leg", 0.0, False, None)
    plant.finalize()
    return plant


# ---------------------------------------------------------------- planning
def leg_ik(p_hip, p_ankle):
    """(hip, knee, ankle) angles putting the ankle at p_ankle = (x, z) with the foot flat
    (trunk upright), knee bent backward."""
    dx, dz = p_ankle[0] - p_hip[0], p_ankle[1] - p_hip[1]
    L1, L2 = THIGH[1], SHANK[1]
    d2 = dx * dx + dz * dz
    c = np.clip((d2 - L1 * L1 - L2 * L2) / (2 * L1 * L2), -1.0, 1.0)
    knee = -np.arccos(c)
    # Ankle from hip: L1 (sin h, −cos h) + L2 (sin(h + k), −cos(h + k)).
    h = np.arctan2(dx, -dz) - np.arctan2(L2 * np.sin(knee), L1 + L2 * np.cos(knee))
    return np.array([h, knee, -(h + knee)])


def posture(hip_x, ankles_x, ankles_z=(0.0, 0.0)):
    """Joint angles (6,) [left hip, knee, ankle, right hip, knee, ankle] for the trunk hip at
    (hip_x, HIP_HEIGHT) and the soles' ankles at (ankles_x[i], ANKLE_HEIGHT + ankles_z[i])."""
    return np.concatenate([leg_ik((hip_x, HIP_HEIGHT), (x, ANKLE_HEIGHT + z))
                           for x, z in zip(ankles_x, ankles_z)])


class GaitPlanner:
    """Joint knots (times, q (6, N), q̇ (6, N)) of the quasi-static gait (see the docstring)."""

    def __init__(self):
        self._leg = make_leg_model()
        self._swings = {}
        self.times, self.q, self.v = [0.0], [], []
        self.stance = []                      # (t0, t1, stance leg index or None)
        self.shifts = []                      # (t0, hip0, hip1) of each weight shift

    def _swing(self, keyframes):
        """Swing-leg knots through `keyframes` (lift-off, raised behind, apex, raised ahead,
        touchdown; (3,) joint vectors): straight up and straight down are the rest-to-rest
        cubics; the carry is two energy-optimal cubics through the apex, whose velocity there
        is optimized. Returns ([(fraction of SWING_TIME, q, q̇)], effort, straight-line
        effort) of the carry."""
        key = tuple(np.round(np.concatenate(keyframes), 9))
        if key not in self._swings:
            lift, behind, apex, ahead, down = keyframes
            f_lift, f_carry, f_lower = SWING_FRACTIONS
            T = f_carry * SWING_TIME / 2
            first = solve_energy_optimal_cubic_trajectory(self._leg, behind, apex, T,
                                                          v_start=0.0, v_end=None)
            v_apex = first.trajectory.eval_derivative(T, 1).ravel()
            second = solve_energy_optimal_cubic_trajectory(self._leg, apex, ahead, T,
                                                           v_start=v_apex, v_end=0.0)
            knots = [(f_lift, behind, np.zeros(3)), (f_lift + f_carry / 2, apex, v_apex),
                     (f_lift + f_carry, ahead, np.zeros(3)), (1.0, down, np.zeros(3))]
            self._swings[key] = (knots, first.effort + second.effort,
                                 first.straight_line_effort + second.straight_line_effort)
        return self._swings[key]

    def plan(self, num_steps):
        ankles = np.array([0.0, 0.0])
        hip_x = FOOT_OFFSET_X
        q = posture(hip_x, ankles)
        self.q, self.v = [q], [np.zeros(6)]
        t = 0.0
        for k in range(num_steps):
            stance, swing = k % 2, 1 - k % 2
            # 1. Shift the trunk over the stance foot's sole center (double support).
            new_hip = ankles[stance] + FOOT_OFFSET_X
            if abs(new_hip - hip_x) > 1e-12:
                self._shift(t, hip_x, new_hip, ankles)
                hip_x = new_hip
                t += SHIFT_TIME
                q = posture(hip_x, ankles)
                self.stance.append((t - SHIFT_TIME, t, None))
            # 2. Swing: straight up, over to one step ahead of the stance foot, down.
            target = ankles.copy()
            target[swing] = ankles[stance] + STEP
            up = np.where(np.arange(2) == swing, LIFT, 0.0)
            middle = np.where(np.arange(2) == swing, 0.5 * (ankles + target), ankles)
            frames = [q, posture(hip_x, ankles, up), posture(hip_x, middle, 2.5 * up),
                      posture(hip_x, target, up), posture(hip_x, target)]
            s = slice(3 * swing, 3 * swing + 3)
            knots, effort, straight = self._swing([f[s] for f in frames])
            for fraction, q_s, v_s in knots:
                q_k, v_k = q.copy(), np.zeros(6)
                q_k[s], v_k[s] = q_s, v_s
                self._append(t + fraction * SWING_TIME, q_k, v_k)
            t += SWING_TIME
            q = frames[-1]
            self.stance.append((t - SWING_TIME, t, stance))
            ankles = target
            self.swing_effort = (effort, straight)
        self.final_hip_x = hip_x
        self.final_ankles = ankles
        return self

    def _shift(self, t0, hip0, hip1, ankles, num_knots=8):
        """Knots of a weight shift: the hip moves from hip0 to hip1 along a smooth step and
        both legs follow by inverse kinematics (feet fixed), so the closed chain stays
        consistent between the knots."""
        self.shifts.append((t0, hip0, hip1))

        def hip(s):
            return hip0 + (hip1 - hip0) * s * s * (3.0 - 2.0 * s)

        ds = 1e-6
        for j in range(1, num_knots + 1):
            s = j / num_knots
            q = posture(hip(s), ankles)
            v = (posture(hip(min(s + ds, 1.0)), ankles) - posture(hip(s - ds), ankles)) / (
                (min(s + ds, 1.0) - (s - ds)) * SHIFT_TIME)
            self._append(t0 + s * SHIFT_TIME, q, v)

    def _append(self, t, q, v):
        self.times.append(t)
        self.q.append(q)
        self.v.append(v)

    def trunk_acceleration(self, t):
        """Planned horizontal acceleration of the hip (m/s²) at time t."""
        for t0, hip0, hip1 in self.shifts:
            if t0 <= t <= t0 + SHIFT_TIME:
                s = (t - t0) / SHIFT_TIME
                return (hip1 - hip0) * (6.0 - 12.0 * s) / SHIFT_TIME**2
        return 0.0

    def left_share(self, t):
        """Planned share of the weight on the left foot at time t: 1 or 0 in single
        support, ramping smoothly over a weight shift (1/2 before the first step)."""
        previous = 0.5
        for i, (t0, t1, stance) in enumerate(self.stance):
            if t < t0:
                return previous
            following = [st for _, _, st in self.stance[i:] if st is not None]
            share = 1.0 if following and following[0] == 0 else 0.0
            if t <= t1:
                if stance is not None:
                    return share
                s = (t - t0) / (t1 - t0)
                return previous + (share - previous) * s * s * (3 - 2 * s)
            previous = share
        return previous

    def trajectory(self):
        """The exact piecewise cubic through the knots (the energy-optimal swing halves and
        the straight-line shifts are cubic Hermite segments between their knots)."""
        return PiecewisePolynomial.cubic_hermite(np.array(self.times), np.column_stack(self.q),
                                                 np.column_stack(self.v))


# ---------------------------------------------------------------- control
class ComputedTorqueController(LeafSystem):
    """Computed torque for the leg joints of the floating-base biped (see the module
    docstring): τ = [M a* + C v − τ_g − Σ J_Fᵀ f_F]_legs + PD.

    a* = [ẍ_hip planned, 0, 0 (trunk); q̈_d + Kp e + Kd ė]; the ground reactions f_F are
    the planned ones (m [ẍ, g] at the zero-moment point of the planned motion, shared as
    ``plan.left_share(t)`` says), not measured ones: feeding rigid-contact forces back would fight the contact
    solver. A joint PD in torque units is added (stiffer at the ankle of a loaded leg).

    ::

        estimated_state ──────▶ ┌──────────────────────────┐
        desired_state ────────▶ │ ComputedTorqueController │ ──▶ actuation (6)
        desired_acceleration ─▶ └──────────────────────────┘
    """

    def __init__(self, plant, feet, plan):
        super().__init__()
        self._plant, self._ctx = plant, plant.create_default_context()
        self._feet, self._plan = feet, plan
        self._weight = 9.81 * sum(plant.get_body(i).default_mass()
                                  for i in range(1, plant.num_bodies()))
        self._p_FC = np.array([FOOT_OFFSET_X, 0.0, -ANKLE_HEIGHT])     # sole center in F
        self._state = self.declare_vector_input_port("estimated_state", 18)
        self._desired = self.declare_vector_input_port("desired_state", 12)
        self._accel = self.declare_vector_input_port("desired_acceleration", 6)
        self.declare_vector_output_port("actuation", 6, self._calc)

    def _calc(self, context, output):
        plant, ctx, W = self._plant, self._ctx, self._plant.world_frame()
        x = self._state.eval(context)
        plant.set_positions_and_velocities(ctx, x)
        desired = self._desired.eval(context)
        t = context.get_time()
        left = self._plan.left_share(t)
        a = np.zeros(9)
        a[0] = self._plan.trunk_acceleration(t)
        a[3:] = self._accel.eval(context) + KP * (desired[:6] - x[3:9]) \
            + KD * (desired[6:] - x[12:18])
        tau = plant.calc_mass_matrix(ctx) @ a + plant.calc_bias_term(ctx) \
            - plant.calc_gravity_generalized_forces(ctx)
        # Planned reaction: m [ẍ, g] acting at the zero-moment point of the planned motion,
        # x_zmp = x_com − z_com ẍ / g (within each loaded sole), shared between the feet.
        p_com = plant.calc_center_of_mass_position_in_world(ctx)
        x_zmp = p_com[0] - p_com[2] * a[0] / 9.81
        for foot, share in zip(self._feet, (left, 1.0 - left)):
            X_WF = plant.eval_body_pose_in_world(ctx, foot)
            p_FC = self._p_FC.copy()
            p_FC[0] += np.clip((X_WF.inverse() @ np.array([x_zmp, 0.0, 0.0]))[0]
                               - self._p_FC[0], -0.09, 0.09)
            J = plant.calc_jacobian_translational_velocity(
                ctx, JacobianWrtVariable.kV, foot.body_frame(), p_FC, W, W)
            f_W = share * self._weight * np.array([a[0] / 9.81, 0.0, 1.0])
            tau -= J.T @ f_W
        e, e_dot = desired[:6] - x[3:9], desired[6:] - x[12:18]
        stance = np.repeat([left, 1.0 - left], 3)
        output.set_value(tau[3:] + (KP_JOINT + stance * KP_STANCE) * e
                         + (KD_JOINT + stance * KD_STANCE) * e_dot)


def foot_contact_forces(results, feet):
    """[(foot body, p_WC (3,), force of the ground on the foot f_W (3,))]."""
    out = []
    if results is None:
        return out
    for i in range(results.num_point_pair_contacts()):
        info = results.point_pair_contact_info(i)
        if info.bodyB_index in feet:
            out.append((feet[info.bodyB_index], np.asarray(info.contact_point),
                        np.asarray(info.contact_force)))
        elif info.bodyA_index in feet:
            out.append((feet[info.bodyA_index], np.asarray(info.contact_point),
                        -np.asarray(info.contact_force)))
    return out


# ---------------------------------------------------------------- run
def main(argv=None):
    args = _support.parse_args(argv, __doc__)
    num_steps = 2 if args.quick else 6
    plan = GaitPlanner().plan(num_steps)
    trajectory = plan.trajectory()
    effort, straight = plan.swing_effort
    print(f"planar_biped: {num_steps} steps of {100 * STEP:.0f} cm over "
          f"{trajectory.end_time():.1f} s; swing effort {effort:.2f} (straight-line cubic "
          f"{straight:.2f}) N²m²s")

    builder = DiagramBuilder()
    plant, scene_graph, feet = make_biped(builder)
    desired = builder.add_named_system("desired", TrajectorySource(trajectory, 1))
    accel = builder.add_named_system("desired_acceleration",
                                     TrajectorySource(trajectory.make_derivative(2)))
    controller = builder.add_named_system("controller", ComputedTorqueController(plant, feet,
                                                                          plan))
    builder.connect(plant.get_state_output_port(), controller.get_input_port(0))
    builder.connect(desired.get_output_port(), controller.get_input_port(1))
    builder.connect(accel.get_output_port(), controller.get_input_port(2))
    builder.connect(controller.get_output_port(), plant.get_actuation_input_port())
    replay = _support.Replay(args.html, builder, scene_graph, plant=plant, contact_forces=True,
                             camera=((0.4, -2.6, 0.8), (0.4, 0.0, 0.5)),
                             newtons_per_meter=400.0)
    diagram = builder.build()

    context = diagram.create_default_context()
    plant_context = plant.get_my_context_from_root(context)
    x0 = np.zeros(18)
    x0[:3] = [FOOT_OFFSET_X, HIP_HEIGHT - 1e-4, 0.0]          # soles just in contact
    x0[3:9] = plan.q[0]
    plant.set_positions_and_velocities(plant_context, x0)
    foot_index = {f.index(): k for k, f in enumerate(feet)}
    log = {"t": [], "trunk": [], "zmp_margin": [], "zmp": [], "ratio": [], "feet_x": []}

    def monitor(root_context):
        t = root_context.get_time()
        x = plant.get_positions(plant_context)
        contacts = foot_contact_forces(
            plant.get_contact_results_output_port().eval(plant_context),
            {f.index(): f for f in feet})
        log["t"].append(t)
        log["trunk"].append(x[:3].copy())
        log["feet_x"].append([plant.eval_body_pose_in_world(plant_context, f).translation()[0]
                              for f in feet])
        f_z = sum(c[2][2] for c in contacts)
        if f_z > 1.0:
            p = np.array([c[1] for c in contacts]).T
            f = np.array([c[2] for c in contacts]).T
            zmp = calc_zero_moment_point_from_contact_forces(p, f)
            log["zmp"].append(zmp[0])
            log["zmp_margin"].append(SupportPolygon(p).margin(zmp))
            per_foot = {}
            for foot, _, f_W in contacts:
                per_foot.setdefault(foot_index[foot.index()], np.zeros(3))
                per_foot[foot_index[foot.index()]] += f_W
            F = max(per_foot.values(), key=lambda F: F[2])      # the stance (loaded) foot
            log["ratio"].append(np.hypot(F[0], F[1]) / F[2])
        else:                                   # unloaded: only before the first step
            log["zmp"].append(np.nan)
            log["zmp_margin"].append(np.nan if t < 2 * TIME_STEP else -np.inf)
            log["ratio"].append(np.nan)

    simulator = Simulator(diagram, context)
    simulator.set_monitor(monitor)
    replay.start()
    simulator.advance_to(trajectory.end_time() + 0.3)
    replay.finish()

    t, trunk = np.array(log["t"]), np.array(log["trunk"]).T
    margin, ratio = np.array(log["zmp_margin"]), np.array(log["ratio"])
    margin = margin[~np.isnan(margin)]
    feet_x = np.array(log["feet_x"]).T
    advance = trunk[0, -1] - trunk[0, 0]
    planned = plan.final_hip_x - FOOT_OFFSET_X
    height_error = np.abs(trunk[1] - HIP_HEIGHT).max()
    pitch = np.abs(trunk[2]).max()
    slip = _stance_slip(t, feet_x, plan.stance)
    print(f"planar_biped: trunk advanced {advance:.3f} m (planned {planned:.3f}), height "
          f"error {100 * height_error:.2f} cm, largest pitch {pitch:.3f} rad")
    print(f"planar_biped: smallest ZMP margin in the support polygon {100 * margin.min():.2f} "
          f"cm, largest stance friction ratio {np.nanmax(ratio):.3f} (μ = {MU}), stance-foot "
          f"slip {1e3 * slip:.2f} mm")
    assert abs(advance - planned) < 0.02, f"planar_biped: advanced {advance:.3f} m"
    assert height_error < 0.02 and pitch < 0.05, "planar_biped: the trunk did not stay upright"
    assert margin.min() > 0.01, "planar_biped: the ZMP came within 1 cm of the support edge"
    assert np.nanmax(ratio) < MU, "planar_biped: the stance foot needed more than μ"
    assert slip < 2e-3, f"planar_biped: a stance foot slipped {slip:.4f} m"

    if args.plots:
        from merganser.framework.plotting import plot_signals

        fig = plot_signals(t, {"ZMP x": np.array(log["zmp"]), "left ankle x": feet_x[0],
                               "right ankle x": feet_x[1],
                               "ZMP margin": np.array(log["zmp_margin"]),
                               "friction ratio": ratio, "μ": np.full_like(t, MU)},
                           groups={"x (m)": ["ZMP x", "left ankle x", "right ankle x"],
                                   "ZMP margin in the support polygon (m)": ["ZMP margin"],
                                   "|f_t| / f_n of the stance foot": ["friction ratio", "μ"]},
                           title="planar biped: zero-moment point and friction")
        _support.save_plots(args.plots, "planar_biped", {"zmp": fig})
    return {"advance": advance, "planned": planned, "height_error": height_error,
            "pitch": pitch, "zmp_margin": margin.min(), "friction_ratio": np.nanmax(ratio),
            "slip": slip}


def _stance_slip(t, feet_x, phases):
    """Largest x motion of the stance foot during each single-support phase (m)."""
    slip = 0.0
    for t0, t1, stance in phases:
        if stance is None:
            continue
        inside = (t >= t0) & (t <= t1)
        x = feet_x[stance, inside]
        slip = max(slip, x.max() - x.min())
    return slip


if __name__ == "__main__":
    main(sys.argv[1:])
