"""One contact scene under every discrete contact solver: TAMSI, SAP, LCP (Lemke) and
hydroelastic contact.

Shows that only the plant configuration changes between solvers
(``MultibodyPlantConfig(discrete_contact_approximation=..., contact_model=...)``), how to
register collision geometry with friction, and how to read the contact results.

The scene: a 1 kg, 10 cm cube resting on the ground (μ = 0.5) is given a sliding speed of
1 m/s along x. Coulomb friction stops it after d = v² / (2 μ g) = 0.1019 m and
t = v / (μ g) = 0.204 s, dissipating its kinetic energy ½ m v² = 0.5 J. For each solver
the table lists the penetration of the resting cube, the slip distance and its error
against d, the energy lost against 0.5 J, the normal force against m g, and the wall time
per step (time step 1 ms).

Checks, for TAMSI, SAP and LCP (point contact): the cube ends at rest, slipped d within
5 %, penetrates less than 1 mm, the contact force balances its weight within 1 %, and the
energy lost is 0.5 J within 5 %. Hydroelastic contact is run when the geometry engine
provides contact surfaces and reported as unavailable otherwise. ``--quick`` simulates
0.35 s instead of 0.6 s. ``--html`` replays the SAP run with the contact force arrows.

Run: ``python examples/contact_solvers.py [--quick] [--html OUT] [--plots DIR]``
"""

import sys
import time

import numpy as np

import _support
from merganser.framework import DiagramBuilder, Simulator
from merganser.geometry import (Box, CoulombFriction, HalfSpace, ProximityProperties, RigidTransform,
                      add_compliant_hydroelastic_properties, add_contact_material,
                      add_rigid_hydroelastic_properties)
from merganser.multibody import (MultibodyPlantConfig, SpatialInertia, SpatialVelocity,
                       add_multibody_plant)

MASS, SIZE, MU, G, SPEED, TIME_STEP = 1.0, 0.1, 0.5, 9.81, 1.0, 1e-3
SOLVERS = (("tamsi", "point"), ("sap", "point"), ("lcp", "point"), ("sap", "hydroelastic"))


def expected_slip():
    return SPEED**2 / (2 * MU * G)


def build(approximation, contact_model, html=None):
    builder = DiagramBuilder()
    config = MultibodyPlantConfig(time_step=TIME_STEP, contact_model=contact_model,
                                  discrete_contact_approximation=approximation)
    plant, scene_graph = add_multibody_plant(config, builder)
    box = plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(MASS, SIZE, SIZE, SIZE))
    friction = CoulombFriction(MU, MU)
    box_props = add_contact_material(friction=friction, properties=ProximityProperties())
    ground_props = add_contact_material(friction=friction, properties=ProximityProperties())
    if contact_model == "hydroelastic":
        add_compliant_hydroelastic_properties(SIZE / 2, 5e7, box_props)
        add_rigid_hydroelastic_properties(properties=ground_props)
    plant.register_collision_geometry(box, RigidTransform(), Box(SIZE, SIZE, SIZE), "box",
                                      box_props)
    plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", ground_props)
    plant.register_visual_geometry(box, RigidTransform(), Box(SIZE, SIZE, SIZE),
                                   "box_visual", [0.2, 0.5, 0.9, 1.0])
    plant.register_visual_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                   "ground_visual", [0.6, 0.6, 0.6, 1.0])
    plant.finalize()
    replay = _support.Replay(html, builder, scene_graph, plant=plant, contact_forces=True,
                             camera=((0.05, -0.9, 0.35), (0.05, 0.0, 0.0)))
    return builder.build(), plant, box, replay


def run(approximation, contact_model, t_final, html=None):
    """Metrics of one solver: dict, or the reason it is unavailable (str)."""
    try:
        diagram, plant, box, replay = build(approximation, contact_model, html)
        simulator = Simulator(diagram)
        context = plant.get_my_context_from_root(simulator.get_mutable_context())
        plant.set_free_body_pose(context, box, RigidTransform([0.0, 0.0, SIZE / 2]))
        plant.set_free_body_spatial_velocity(context, box, SpatialVelocity(
            np.zeros(3), np.array([SPEED, 0.0, 0.0])))
        energy0 = plant.calc_kinetic_energy(context) + plant.calc_potential_energy(context)
        simulator.initialize()
        replay.start()
        start = time.perf_counter()
        simulator.advance_to(t_final)
        wall = time.perf_counter() - start
        replay.finish()
    except (NotImplementedError, RuntimeError, ValueError) as e:
        if contact_model != "hydroelastic":
            raise
        return f"unavailable: {type(e).__name__}: {str(e).splitlines()[0]}"
    p = plant.eval_body_pose_in_world(context, box).translation()
    v = plant.eval_body_spatial_velocity_in_world(context, box).translational()
    energy = plant.calc_kinetic_energy(context) + plant.calc_potential_energy(context)
    results = plant.get_contact_results_output_port().eval(context)
    force_z = 0.0
    for i in range(results.num_point_pair_contacts()):
        info = results.point_pair_contact_info(i)
        force_z += (1.0 if info.bodyB_index == box.index() else -1.0) * info.contact_force[2]
    for i in range(getattr(results, "num_hydroelastic_contacts", lambda: 0)()):
        info = results.hydroelastic_contact_info(i)
        force_z += abs(info.F_Ac_W.translational()[2])
    return {"penetration": SIZE / 2 - p[2], "slip": p[0], "speed": np.linalg.norm(v),
            "energy_lost": energy0 - energy, "normal_force": force_z,
            "time_per_step": wall / round(t_final / TIME_STEP)}


def main(argv=None):
    args = _support.parse_args(argv, __doc__)
    t_final = 0.35 if args.quick else 0.6
    d = expected_slip()
    table = {}
    for approximation, model in SOLVERS:
        html = args.html if (approximation, model) == ("sap", "point") else None
        table[f"{approximation} ({model})"] = run(approximation, model, t_final, html)

    print(f"contact_solvers: cube sliding at {SPEED} m/s, μ = {MU}: expected slip {d:.4f} m, "
          f"energy lost {0.5 * MASS * SPEED**2:.3f} J, normal force {MASS * G:.3f} N")
    print(f"{'solver':22s} {'penetration':>12s} {'slip (m)':>9s} {'slip err':>9s} "
          f"{'energy (J)':>11s} {'normal (N)':>11s} {'ms/step':>8s}")
    for name, r in table.items():
        if isinstance(r, str):
            print(f"{name:22s} {r}")
            continue
        print(f"{name:22s} {1e3 * r['penetration']:9.3f} mm {r['slip']:9.4f} "
              f"{100 * (r['slip'] - d) / d:8.2f}% {r['energy_lost']:11.4f} "
              f"{r['normal_force']:11.4f} {1e3 * r['time_per_step']:8.3f}")
    for name, r in table.items():
        if "(point)" not in name:
            continue
        assert r["speed"] < 1e-3, f"contact_solvers: {name}: still moving at {r['speed']:.3g}"
        assert abs(r["slip"] - d) < 0.05 * d, f"contact_solvers: {name}: slip {r['slip']:.4f}"
        assert 0.0 <= r["penetration"] < 1e-3, f"contact_solvers: {name}: penetration"
        assert abs(r["normal_force"] - MASS * G) < 0.01 * MASS * G, \
            f"contact_solvers: {name}: normal force {r['normal_force']:.3f} N"
        assert abs(r["energy_lost"] - 0.5) < 0.025, f"contact_solvers: {name}: energy"

    if args.plots:
        from merganser.framework.plotting import plot_bars

        rows = {n: r for n, r in table.items() if isinstance(r, dict)}
        fig = plot_bars({n: [100 * (r["slip"] - d) / d, 1e3 * r["penetration"],
                             1e3 * r["time_per_step"]] for n, r in rows.items()},
                        ["slip error (%)", "penetration (mm)", "time per step (ms)"],
                        title="contact solvers on a sliding cube")
        _support.save_plots(args.plots, "contact_solvers", {"comparison": fig})
    return table


if __name__ == "__main__":
    main(sys.argv[1:])
