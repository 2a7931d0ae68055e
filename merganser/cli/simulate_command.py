"""``merganser simulate MODEL``: drop a model under gravity, or hold it, and replay it.

The model is loaded into a plant with a SceneGraph (its collision geometry only with
``--contact``; collisions between the model's own bodies are filtered unless
``--self-collision``, so that overlapping link geometry does not push the links apart).
Free base bodies start ``--height`` above their default pose (or are welded with
``--weld-base``). Without ``--hold`` the model moves passively (it falls, swings or lands
on the ground plane of ``--contact``); with ``--hold`` an InverseDynamics controller in
gravity-compensation mode, whose model is a second copy of the robot, applies
τ = −τ_g(q) through the applied-generalized-force input, so the model stays where it
starts. ``--html OUT`` records the run and writes a self-contained HTML replay.
"""

from __future__ import annotations

import time as _time

import numpy as np

from merganser.cli import CommandError

__all__ = ["CONTACT_MODELS", "SOLVERS", "build_simulation", "run"]

CONTACT_MODELS = ("none", "point", "hydroelastic", "hydroelastic_with_fallback")
SOLVERS = ("sap", "tamsi", "similar", "lagged", "lcp")


def _free_base_bodies(plant, instances):
    """Bodies of `instances` that are no joint's child (free at finalize)."""
    children = {plant.get_joint(j).child_body().index() for j in plant.get_joint_indices()}
    free = []
    for mi in instances:
        for b in plant.get_body_indices(mi):
            if b != 0 and b not in children:
                free.append(plant.get_body(b))
    return free


def _free_body_named(plant, instances, free, name):
    """The free body `name` of the model (for ``--weld``), or a CommandError listing them."""
    names = [b.name() for b in free]
    for mi in instances:
        if plant.has_body_named(name, mi):
            body = plant.get_body_by_name(name, mi)
            if body.name() in names:
                return body
            raise CommandError(f"--weld {name}: body '{name}' is not free (a joint connects "
                               f"it to its parent); free bodies: {', '.join(names) or 'none'}")
    raise CommandError(f"--weld {name}: the model has no body '{name}'; free bodies: "
                       f"{', '.join(names) or 'none'}")


def _actuate_every_joint(plant, instances):
    """Add an actuator to each one-dof joint of `instances` that has none (``--actuate``)."""
    actuated = {plant.get_joint_actuator(a).joint().index()
                for a in plant.get_joint_actuator_indices()}
    for j in plant.get_joint_indices():
        joint = plant.get_joint(j)
        if (joint.model_instance() in instances and joint.num_velocities() == 1
                and joint.index() not in actuated):
            plant.add_joint_actuator(f"{joint.name()}_actuator", joint)


def _make_plant(args, builder=None):
    """(plant, scene_graph, instances, free bodies) for `args` (finalized)."""
    from merganser.multibody import MultibodyPlant, MultibodyPlantConfig, add_multibody_plant

    from merganser.cli.models import load_model

    contact = args.contact != "none"
    h = args.time_step if args.time_step is not None else (1e-3 if contact else 0.0)
    if builder is None:
        plant, scene_graph = MultibodyPlant(0.0), None
    else:
        config = MultibodyPlantConfig(
            time_step=h, contact_model="point" if not contact else args.contact,
            discrete_contact_approximation=args.solver or "sap")
        plant, scene_graph = add_multibody_plant(config, builder)
    roles = ("visual", "collision") if contact else ("visual",)
    _, instances = load_model(args.model, plant, scene_graph, packages=args.package,
                              strict=args.strict, roles=roles)
    free = _free_base_bodies(plant, instances)
    if args.weld_base:
        for body in free:
            plant.weld_frames(plant.world_frame(), body.body_frame())
        free = []
    for name in getattr(args, "weld", ()):
        body = _free_body_named(plant, instances, free, name)
        plant.weld_frames(plant.world_frame(), body.body_frame())
        free = [b for b in free if b.index() != body.index()]
    if getattr(args, "actuate", False):
        _actuate_every_joint(plant, instances)
    if contact and builder is not None:
        _add_ground(plant, args.ground)
    plant.finalize()
    if contact and builder is not None and not args.self_collision:
        from merganser.geometry import CollisionFilterDeclaration

        bodies = [plant.get_body(b) for mi in instances for b in plant.get_body_indices(mi)]
        scene_graph.collision_filter_manager().apply(
            CollisionFilterDeclaration().exclude_within(
                plant.collect_registered_geometries(bodies)))
    return plant, scene_graph, instances, free


def _add_ground(plant, z):
    from merganser.geometry import Box, CoulombFriction, HalfSpace, RigidTransform

    world = plant.world_body()
    plant.register_collision_geometry(world, RigidTransform([0.0, 0.0, z]), HalfSpace(),
                                      "ground", CoulombFriction(0.8, 0.6))
    plant.register_visual_geometry(world, RigidTransform([0.0, 0.0, z - 0.005]),
                                   Box(4.0, 4.0, 0.01), "ground_visual", [0.55, 0.6, 0.55, 1.0])


def build_simulation(args):
    """(diagram, plant, free bodies, replay objects) for the parsed `args`."""
    from merganser.framework import DiagramBuilder

    builder = DiagramBuilder()
    plant, scene_graph, instances, free = _make_plant(args, builder)
    if args.hold:
        if free:
            raise CommandError(
                f"--hold needs a model without a free base, but "
                f"{', '.join(b.name() for b in free)} is free; add --weld-base")
        from merganser.controllers import InverseDynamics

        control, _, _, _ = _make_plant(args)
        gravity = builder.add_named_system(
            "gravity_compensation", InverseDynamics(control, mode="gravity_compensation"))
        builder.connect(plant.get_state_output_port(), gravity.get_input_port(0))
        builder.connect(gravity.get_output_port(0),
                        plant.get_applied_generalized_force_input_port())
    meshcat = visualizer = None
    if args.html:
        from merganser.geometry.visualization import (ContactVisualizer, Meshcat, MeshcatVisualizer,
                                            MeshcatVisualizerParams)

        meshcat = Meshcat()
        visualizer = MeshcatVisualizer.add_to_builder(
            builder, scene_graph, meshcat, MeshcatVisualizerParams(publish_period=1 / 30))
        if args.contact != "none":
            ContactVisualizer.add_to_builder(builder, plant, meshcat)
    return builder.build(), plant, free, (meshcat, visualizer)


def _contact_at_smallest_step(result, diagram, plant):
    """'A - B' (the deepest point contact) at the start of the smallest step, or None."""
    t = result.time
    if "x" not in result.outputs or t.size < 3:
        return None
    k = int(np.argmin(np.diff(t)[:-1]))           # the last step may be cut short by t_final
    context = diagram.create_default_context()
    sub = plant.get_my_context_from_root(context)
    plant.set_positions_and_velocities(sub, result.outputs["x"][:, k])
    if plant.num_actuators():
        plant.get_actuation_input_port().fix_value(sub, np.zeros(plant.num_actuators()))
    contacts = plant.get_contact_results_output_port().eval(sub)
    best = None
    for i in range(contacts.num_point_pair_contacts()):
        info = contacts.point_pair_contact_info(i)
        depth = float(getattr(info.point_pair, "depth", 0.0))
        if best is None or depth > best[0]:
            best = (depth, info)
    if best is None:
        return None
    info = best[1]
    return f"{plant.get_body(info.bodyA_index).name()} - {plant.get_body(info.bodyB_index).name()}"


def _steps_summary(result, diagram, plant):
    """Steps taken, rejected, the smallest step and the contact that set it."""
    text = f"{result.num_steps} steps, {result.num_rejected_steps} rejected"
    if np.isfinite(result.smallest_step):
        text += f", smallest step {result.smallest_step:.3g} s"
        if plant.time_step() == 0.0:
            pair = _contact_at_smallest_step(result, diagram, plant)
            if pair is not None:
                text += f" (contact drove the step size: {pair})"
    return text


def run(args, parser):
    """Entry of ``merganser simulate``."""
    from merganser.geometry import RigidTransform

    diagram, plant, free, (meshcat, visualizer) = build_simulation(args)
    if free and plant.num_actuators() == 0:
        names = ", ".join(b.name() for b in free)
        print(f"merganser simulate: hint: {args.model.name} has a free base ({names}) and no "
              f"actuators, so it falls freely under gravity; --weld {free[0].name()} fixes it "
              f"to the world, --actuate adds an actuator per joint")
    context = diagram.create_default_context()
    plant_context = plant.get_my_context_from_root(context)
    if plant.num_actuators():
        plant.get_actuation_input_port().fix_value(plant_context, np.zeros(plant.num_actuators()))
    for body in free:
        X_WB = plant.get_free_body_pose(plant_context, body)
        plant.set_free_body_pose(plant_context, body, RigidTransform(
            X_WB.rotation(), X_WB.translation() + [0.0, 0.0, args.height]))
    q0 = plant.get_positions(plant_context).copy()
    if meshcat is not None:
        target = plant.calc_center_of_mass_position_in_world(plant_context)
        meshcat.set_camera_pose(target + [0.8, -2.2, 0.6], target)
        visualizer.start_recording()
    start = _time.perf_counter()
    record = {"x": plant.get_state_output_port()} if args.contact != "none" else None
    result = diagram.simulate(args.time, context=context, record=record)
    wall = _time.perf_counter() - start
    q = plant.get_positions(plant_context)
    moved = float(np.max(np.abs(q - q0))) if q.size else 0.0
    print(f"merganser simulate: {args.model}: {args.time:g} s simulated in {wall:.2f} s "
          f"({'held' if args.hold else 'dropped'}; largest coordinate change {moved:.3g})")
    print(f"  {_steps_summary(result, diagram, plant)}")
    for body in free:
        p = plant.get_free_body_pose(plant_context, body).translation()
        print(f"  {body.name()}: final position {np.array2string(p, precision=4)} m")
    if meshcat is not None:
        meshcat.stop_recording()
        meshcat.publish_recording()
        path = meshcat.save_static_html(args.html)
        print(f"  replay written to {path}")
    return 0
