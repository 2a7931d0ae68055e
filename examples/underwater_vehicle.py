"""A small remotely operated vehicle in water: buoyancy, drag and added mass from the
URDF's ``<hydro>`` blocks, driven by a thruster, compared with the same vehicle in air.

Shows how the Parser turns a ``<hydro>`` block (buoyancy volume and center, linear and
quadratic drag, 6x6 added mass; URDF order x y z r p y) into a HydrodynamicForce element,
and how to drive a free body with a thruster: a LeafSystem that reads the plant's body
poses and writes an ExternallyAppliedSpatialForce (a 30 N push along the hull's x axis,
rotated into the world) to the plant's applied-spatial-force input.

The hull (20 kg, 0.6 x 0.4 x 0.25 m) displaces 0.020 m³ of water, so it is neutrally
buoyant; its center of buoyancy is 5 cm above its center of mass. Three runs:

1. settling: released at rest pitched by 0.3 rad, no thrust; it stays at its depth
   (neutral buoyancy) and the righting moment and drag bring it level;
2. thrust in water: from rest the acceleration is F / (m + X_u̇) = 30 / (20 + 10) m/s²
   (added mass) and the speed tends to the terminal speed where the thrust balances the
   drag, 30 = 5 u + 30 u² (u = 0.920 m/s);
3. thrust in air: the same vehicle without ``<hydro>`` accelerates at F / m = 1.5 m/s²
   forever and falls freely (z = −g t² / 2).

Checks: depth drift < 2 mm and final pitch < 0.02 rad (run 1); initial acceleration
within 2 % of 1.0 m/s² and final speed within 1 % of 0.920 m/s (run 2); speed F t / m and
fall g t² / 2 within 1e-6 (run 3). ``--quick`` shortens runs 1 and 2 (8 s and 6 s
instead of 20 s and 10 s). ``--html`` replays run 2.

Run: ``python examples/underwater_vehicle.py [--quick] [--html OUT] [--plots DIR]``
"""

import sys

import numpy as np

import _support
from merganser.framework import DiagramBuilder, LeafSystem, SimulatorConfig
from merganser.geometry import RigidTransform, RollPitchYaw
from merganser.multibody import ExternallyAppliedSpatialForce, add_multibody_plant_scene_graph
from merganser.multibody.parsing import Parser

MASS, THRUST, G = 20.0, 30.0, 9.81
ADDED_MASS_X = 10.0
LINEAR_DRAG_X, QUADRATIC_DRAG_X = 5.0, 30.0
HYDRO = """
    <hydro>
      <buoyancy>
        <volume>0.020</volume>
        <origin xyz="0 0 0.05"/>
      </buoyancy>
      <added_mass>
        10 0 0 0 0 0
        0 15 0 0 0 0
        0 0 20 0 0 0
        0 0 0 0.5 0 0
        0 0 0 0 0.8 0
        0 0 0 0 0 0.8
      </added_mass>
      <drag>
        <linear_damping>-5 -8 -10 -1 -1 -1</linear_damping>
        <quadratic_damping>-30 -40 -50 -2 -2 -2</quadratic_damping>
      </drag>
    </hydro>"""
URDF = """<?xml version="1.0"?>
<robot name="rov">
  <material name="yellow"><color rgba="0.95 0.8 0.1 1"/></material>
  <link name="hull">
    <inertial>
      <mass value="20"/>
      <inertia ixx="0.37" iyy="0.70" izz="0.87" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <visual>
      <geometry><box size="0.6 0.4 0.25"/></geometry>
      <material name="yellow"/>
    </visual>
    <visual>
      <origin xyz="-0.35 0 0" rpy="0 1.5708 0"/>
      <geometry><cylinder radius="0.06" length="0.1"/></geometry>
      <material name="yellow"/>
    </visual>{hydro}
  </link>
</robot>
"""


def terminal_speed():
    """u > 0 with THRUST = LINEAR_DRAG_X u + QUADRATIC_DRAG_X u² (m/s)."""
    a, b, c = QUADRATIC_DRAG_X, LINEAR_DRAG_X, -THRUST
    return (-b + np.sqrt(b * b - 4 * a * c)) / (2 * a)


class Thruster(LeafSystem):
    """A force along body B's x axis at its origin, applied in the world frame.

    ::

        body_poses ──▶ ┌──────────┐
                       │ Thruster │ ──▶ spatial_forces (list of ExternallyAppliedSpatialForce)
                       └──────────┘
    """

    def __init__(self, body_index, thrust):
        super().__init__()
        self._body_index, self._thrust = body_index, float(thrust)
        self.declare_abstract_input_port("body_poses", [])
        self.declare_abstract_output_port("spatial_forces", list, self._calc)

    def _calc(self, context, value):
        X_WB = self.get_input_port(0).eval(context)[self._body_index]
        f_W = X_WB.rotation().matrix()[:, 0] * self._thrust
        value.set_value([ExternallyAppliedSpatialForce(
            self._body_index, np.zeros(3), np.concatenate([np.zeros(3), f_W]))])


def build(in_water, thrust, html=None):
    """(diagram, plant, hull, replay) of the vehicle (with or without its <hydro> block)."""
    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    parser = Parser(plant, scene_graph, geometry_roles=("visual",))
    parser.add_models_from_string(URDF.replace("{hydro}", HYDRO if in_water else ""), "urdf")
    _support.register_parsed_geometry(plant, parser, roles=("visual",))
    plant.finalize()
    hull = plant.get_body_by_name("hull")
    thruster = builder.add_named_system("thruster", Thruster(hull.index(), thrust))
    builder.connect(plant.get_body_poses_output_port(), thruster.get_input_port(0))
    builder.connect(thruster.get_output_port(0), plant.get_applied_spatial_force_input_port())
    replay = _support.Replay(html, builder, scene_graph,
                             camera=((1.5, -3.0, 0.8), (1.5, 0.0, 0.0)))
    return builder.build(), plant, hull, replay


def simulate(in_water, thrust, t_final, X_WB=None, html=None):
    """SimulationResult of one run, with the hull's generalized state recorded as "x"."""
    diagram, plant, hull, replay = build(in_water, thrust, html)
    context = diagram.create_default_context()
    if X_WB is not None:
        plant.set_free_body_pose(plant.get_my_context_from_root(context), hull, X_WB)
    replay.start()
    result = diagram.simulate(t_final, context=context,
                              config=SimulatorConfig(accuracy=1e-8, max_step_size=0.05),
                              record={"x": plant.get_state_output_port()})
    replay.finish()
    return result


def pitch(q):
    """Pitch angle (rad) of the hull from its quaternion rows q[0:4] (shape (4, N))."""
    from merganser.geometry import RotationMatrix
    return np.array([RollPitchYaw(RotationMatrix(q[:4, k])).pitch_angle()
                     for k in range(q.shape[1])])


def main(argv=None):
    args = _support.parse_args(argv, __doc__)
    t_settle, t_thrust = (8.0, 6.0) if args.quick else (20.0, 10.0)

    # 1. Settling at neutral buoyancy.
    settle = simulate(True, 0.0, t_settle, RigidTransform(RollPitchYaw(0.0, 0.3, 0.0),
                                                          [0.0, 0.0, 0.0]))
    z, theta = settle.outputs["x"][6], pitch(settle.outputs["x"])
    drift, final_pitch = np.abs(z).max(), abs(theta[-1])
    print(f"underwater_vehicle: settling: depth drift {1e3 * drift:.2f} mm, pitch "
          f"{theta[0]:.2f} -> {final_pitch:.4f} rad in {t_settle:.0f} s")
    assert drift < 2e-3, f"underwater_vehicle: not neutrally buoyant (drift {drift:.4f} m)"
    assert final_pitch < 0.02, f"underwater_vehicle: still pitched {final_pitch:.3f} rad"

    # 2. Thrust in water.
    water = simulate(True, THRUST, t_thrust, html=args.html)
    t, u = water.time, water.outputs["x"][10]           # v = [w_WB_W; v_WBo_W], vx at 10
    early = t < 0.05
    a0 = np.polyfit(t[early], u[early], 1)[0]
    u_inf = terminal_speed()
    print(f"underwater_vehicle: in water: initial acceleration {a0:.3f} m/s² "
          f"(F / (m + X_u̇) = {THRUST / (MASS + ADDED_MASS_X):.3f}), speed after "
          f"{t_thrust:.0f} s {u[-1]:.4f} m/s (terminal {u_inf:.4f})")
    assert abs(a0 - THRUST / (MASS + ADDED_MASS_X)) < 0.02 * THRUST / (MASS + ADDED_MASS_X)
    assert abs(u[-1] - u_inf) < 0.01 * u_inf, "underwater_vehicle: terminal speed not reached"

    # 3. Thrust in air.
    air = simulate(False, THRUST, 2.0)
    ta, xa = air.time, air.outputs["x"]
    speed_error = np.abs(xa[10] - THRUST / MASS * ta).max()
    fall_error = np.abs(xa[6] + 0.5 * G * ta**2).max()
    print(f"underwater_vehicle: in air: speed {xa[10, -1]:.3f} m/s and fall {-xa[6, -1]:.3f} m "
          f"after 2 s (errors {speed_error:.1e}, {fall_error:.1e} against F t / m, g t² / 2)")
    assert speed_error < 1e-6 and fall_error < 1e-6

    if args.plots:
        from merganser.framework.plotting import plot_signals

        fig = plot_signals(t, {"water": u, "air (F t / m)": THRUST / MASS * t,
                               "terminal speed": np.full_like(t, u_inf)},
                           groups={"forward speed (m/s)": ["water", "air (F t / m)",
                                                           "terminal speed"]},
                           title="ROV under 30 N thrust: added mass and drag")
        fig2 = plot_signals(settle.time, {"depth (m)": z, "pitch (rad)": theta},
                            title="ROV settling at neutral buoyancy")
        _support.save_plots(args.plots, "underwater_vehicle", {"thrust": fig, "settling": fig2})
    return {"depth_drift": drift, "final_pitch": final_pitch, "initial_acceleration": a0,
            "final_speed": u[-1], "terminal_speed": u_inf}


if __name__ == "__main__":
    main(sys.argv[1:])
