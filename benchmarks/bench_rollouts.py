"""Many rollouts of the Panda under PD control at 1 ms: the batched kernel against
``mujoco.rollout``, without and with contact, and against one Simulator per rollout.

The Panda (7 arm joints and 2 finger joints, URDF joint damping, no joint limits) is a
discrete MultibodyPlant with time_step 1 ms; a PD law u = Kp (q_d - q) - Kd v drives it to
a target q_d drawn per rollout.

Part 1 (always): 1,000 envs x 200 steps, the PD law evaluated inside the step, per
env-step, merganser's ``BatchedPlant`` (``set_pd_gains``, one ``step`` call for the 200
steps) against ``mujoco.rollout`` on the same Panda compiled by MuJoCo from the same URDF
(position actuators with kp and kv, Euler integrator, one and two threads, persistent
pool, output arrays preallocated), interleaved rounds, medians:

- "free": no contact geometry;
- "contact": a half-space ground, a free 0.3 kg, 6 cm box resting on it in reach of the
  hand and three spheres on the hand and fingers (point contact with SAP in merganser,
  MuJoCo's default soft contact and Newton solver);
- "short calls": the same 200 steps made as 200 one-step calls and 40 five-step calls
  (an RL loop), each ``step`` followed by ``get_state(out=...)`` into a reused array,
  against the one-call figure.

Part 2 (``--simulator``): the older comparison with (a) ``monte_carlo_simulation`` serial,
(b) the same on a 2-process pool and (c) the batched kernel with numpy PD between one-step
calls; (a) and (b) run a subset (``--serial``, ``--pool``) and are extrapolated.

The machine load is printed: on a shared machine the two-thread figures of both
libraries drop when other processes hold cores.

Run: ``.venv/bin/python benchmarks/bench_rollouts.py [--envs 1000] [--steps 200]
[--repeats 5] [--simulator]``
"""

import argparse
import concurrent.futures
import functools
import multiprocessing
import os
import pathlib
import statistics
import time
import warnings
import xml.etree.ElementTree as ET

import numba
import numpy as np

from merganser.framework import DiagramBuilder, LeafSystem, Simulator
from merganser.framework.compilation import get_num_threads, set_num_threads
from merganser.framework.monte_carlo import monte_carlo_simulation, sample_seed
from merganser.geometry import Box, CoulombFriction, HalfSpace, RigidTransform, RollPitchYaw, Sphere
from merganser.multibody import MultibodyPlantConfig, add_multibody_plant
from merganser.multibody.batched import BatchedPlant
from merganser.multibody.math import SpatialInertia
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import FixedOffsetFrame, PrismaticJoint, RevoluteJoint, WeldJoint

URDF = (pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "models" /
        "example-robot-data" / "robots" / "panda_description" / "urdf" / "panda.urdf")
TIME_STEP = 1e-3
FINAL_TIME = 5.0
NUM_ROLLOUTS = 1000
SEED = 0
Q_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02, 0.02])
KP = np.array([200.0, 200.0, 200.0, 200.0, 50.0, 50.0, 50.0, 20.0, 20.0])
KD = np.array([20.0, 20.0, 20.0, 20.0, 5.0, 5.0, 5.0, 1.0, 1.0])
#: The contact scene: the box (size, mass, centre) and the hand's spheres (body, radius,
#: position in the body frame); friction 0.8 everywhere.
BOX_SIZE, BOX_MASS, BOX_CENTER = 0.06, 0.3, (0.45, 0.0, 0.03)
HAND_SPHERES = (("panda_hand", 0.03, (0.0, 0.0, 0.05)),
                ("panda_leftfinger", 0.012, (0.0, 0.01, 0.04)),
                ("panda_rightfinger", 0.012, (0.0, 0.01, 0.04)))
MU = 0.8


# ---- the Panda -------------------------------------------------------------------------
def _floats(text, n=3):
    values = [float(x) for x in (text or " ".join(["0"] * n)).split()]
    assert len(values) == n
    return values


def _origin(element):
    origin = element.find("origin") if element is not None else None
    if origin is None:
        return RigidTransform()
    return RigidTransform(RollPitchYaw(*_floats(origin.get("rpy"))), _floats(origin.get("xyz")))


def _panda_by_hand(plant, urdf_text):
    """Bodies, joints, damping and actuators from the URDF's numbers (no parser)."""
    robot = ET.fromstring(urdf_text)
    bodies = {}
    for link in robot.findall("link"):
        inertial = link.find("inertial")
        if inertial is None:
            M = SpatialInertia.make_from_central_inertia(0.0, np.zeros(3), np.zeros((3, 3)))
        else:
            a = inertial.find("inertia").attrib
            I = np.array([[a["ixx"], a["ixy"], a["ixz"]], [a["ixy"], a["iyy"], a["iyz"]],
                          [a["ixz"], a["iyz"], a["izz"]]], dtype=float)
            X = _origin(inertial)
            R = X.rotation().matrix()
            M = SpatialInertia.make_from_central_inertia(
                float(inertial.find("mass").get("value")), X.translation(), R @ I @ R.T)
        bodies[link.get("name")] = plant.add_rigid_body(link.get("name"), M)
    plant.weld_frames(plant.world_frame(), bodies["panda_link0"].body_frame())
    for joint in robot.findall("joint"):
        name, kind = joint.get("name"), joint.get("type")
        parent = bodies[joint.find("parent").get("link")]
        child = bodies[joint.find("child").get("link")]
        frame = plant.add_frame(FixedOffsetFrame(f"{name}_parent", parent.body_frame(),
                                                 _origin(joint)))
        if kind == "fixed":
            plant.add_joint(WeldJoint(name, frame, child.body_frame(), RigidTransform()))
            continue
        dynamics = joint.find("dynamics")
        damping = float(dynamics.get("damping", 0.0)) if dynamics is not None else 0.0
        axis = _floats(joint.find("axis").get("xyz"))
        cls = RevoluteJoint if kind == "revolute" else PrismaticJoint
        plant.add_joint_actuator(name, plant.add_joint(
            cls(name, frame, child.body_frame(), axis, damping=damping)))


def _urdf_without_geometry():
    """The Panda URDF without <visual>, <collision> and the fingers' <mimic> (the batched
    kernel has no constraints; MuJoCo gets the same tree)."""
    robot = ET.fromstring(URDF.read_text())
    for link in robot.findall("link"):
        for tag in ("visual", "collision"):
            for element in link.findall(tag):
                link.remove(element)
    for joint in robot.findall("joint"):
        for element in joint.findall("mimic"):
            joint.remove(element)
    return robot


def make_panda(time_step=TIME_STEP, contact=False):
    """The finalized Panda plant; returns (plant, how it was built). With `contact`, the
    plant is in a diagram with a SceneGraph and has the contact scene (module docstring)."""
    if contact:
        builder = DiagramBuilder()
        plant, _ = add_multibody_plant(MultibodyPlantConfig(
            time_step=time_step, contact_model="point", discrete_contact_approximation="sap"),
            builder)
    else:
        plant = MultibodyPlant(time_step)
    text = ET.tostring(_urdf_without_geometry(), encoding="unicode")
    try:
        from merganser.multibody import Parser
    except ImportError:
        Parser = None
    if Parser is not None:
        parser = Parser(plant)
        parser.package_map().add("example-robot-data", str(URDF.parents[3]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")        # elements Drake ignores (safety_controller)
            parser.add_models_from_string(text, "urdf")
        plant.weld_frames(plant.world_frame(), plant.get_frame_by_name("panda_link0"))
        for joint in ET.fromstring(text).findall("joint"):   # no <transmission>: add actuators
            if joint.get("type") != "fixed":
                name = joint.get("name")
                plant.add_joint_actuator(name, plant.get_joint_by_name(name))
        source = "multibody.Parser (actuators added for the 9 joints)"
    else:
        _panda_by_hand(plant, text)
        source = "built from the URDF numbers (multibody.Parser not available)"
    if contact:
        friction = CoulombFriction(MU, MU)
        plant.register_collision_geometry(plant.world_body(), RigidTransform(), HalfSpace(),
                                          "ground", friction)
        box = plant.add_rigid_body("box", SpatialInertia.solid_cube_with_mass(BOX_MASS,
                                                                              BOX_SIZE))
        plant.register_collision_geometry(box, RigidTransform(), Box(BOX_SIZE, BOX_SIZE,
                                                                     BOX_SIZE), "box", friction)
        for name, radius, p in HAND_SPHERES:
            plant.register_collision_geometry(plant.get_body_by_name(name), RigidTransform(p),
                                              Sphere(radius), f"{name}_sphere", friction)
    plant.finalize()
    q0 = np.concatenate([[1.0, 0.0, 0.0, 0.0], BOX_CENTER, Q_HOME]) if contact else Q_HOME
    if contact:
        q0 = _panda_first(plant, q0)
    plant.set_default_positions(q0)
    return plant, source


def _panda_first(plant, q_box_then_panda):
    """Reorder [box quaternion, box xyz, Panda q] into the plant's q order."""
    q = np.zeros(plant.num_positions())
    box = plant.get_body_by_name("box")
    start = box.floating_positions_start()
    q[start:start + 7] = q_box_then_panda[:7]
    rest = [i for i in range(q.size) if not start <= i < start + 7]
    q[rest] = q_box_then_panda[7:]
    return q


# ---- MuJoCo ---------------------------------------------------------------------------------
def make_mujoco_panda(contact=False):
    """MjModel of the same Panda (MuJoCo's URDF import, joint limits and effort limits
    removed as in merganser's batched kernel), 1 ms Euler, position actuators with
    kp = KP, kv = KD; with `contact`, the ground plane, the box and the hand's spheres."""
    import mujoco
    robot = _urdf_without_geometry()
    extension = ET.SubElement(robot, "mujoco")
    ET.SubElement(extension, "compiler", discardvisual="true", fusestatic="false",
                  balanceinertia="false")
    model = mujoco.MjModel.from_xml_string(ET.tostring(robot, encoding="unicode"))
    path = pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / f"merganser_panda_{os.getpid()}.xml"
    mujoco.mj_saveLastXML(str(path), model)
    mjcf = ET.fromstring(path.read_text())
    path.unlink()
    ET.SubElement(mjcf, "option", timestep=str(TIME_STEP), integrator="Euler")
    for joint in mjcf.iter("joint"):
        for attribute in ("range", "actuatorfrcrange", "limited"):
            joint.attrib.pop(attribute, None)
    actuators = ET.SubElement(mjcf, "actuator")
    names = [j.get("name") for j in mjcf.iter("joint")]
    for name, kp, kd in zip(names, KP, KD):
        ET.SubElement(actuators, "position", joint=name, kp=repr(float(kp)), kv=repr(float(kd)))
    if contact:
        world = mjcf.find("worldbody")
        friction = f"{MU} 0.005 0.0001"
        ET.SubElement(world, "geom", name="ground", type="plane", size="0 0 1",
                      friction=friction)
        box = ET.SubElement(world, "body", name="box", pos=" ".join(map(str, BOX_CENTER)))
        ET.SubElement(box, "freejoint")
        half = BOX_SIZE / 2
        ET.SubElement(box, "geom", type="box", size=f"{half} {half} {half}", mass=str(BOX_MASS),
                      friction=friction)
        for name, radius, p in HAND_SPHERES:
            body = next(b for b in mjcf.iter("body") if b.get("name") == name)
            ET.SubElement(body, "geom", type="sphere", size=str(radius),
                          pos=" ".join(map(str, p)), friction=friction, mass="0")
    return mujoco.MjModel.from_xml_string(ET.tostring(mjcf, encoding="unicode"))


class MujocoRollouts:
    """``mujoco.rollout`` of n envs for `steps` steps from the home pose, the PD targets
    as the position actuators' controls, with `threads` MjData (persistent pool) and
    preallocated outputs."""

    def __init__(self, model, targets, steps, threads):
        import mujoco
        from mujoco import rollout
        self._rollout = rollout.rollout
        self.model = model
        n = targets.shape[0]
        data = mujoco.MjData(model)
        data.qpos[-9:] = Q_HOME                 # the box (if any) comes first in qpos
        mujoco.mj_forward(model, data)
        spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
        state = np.zeros(mujoco.mj_stateSize(model, spec))
        mujoco.mj_getState(model, data, state, spec)
        self.initial = np.tile(state, (n, 1))
        self.control = np.ascontiguousarray(targets[:, None, :])
        self.data = [mujoco.MjData(model) for _ in range(threads)]
        self.steps = steps
        self._out = {}

    def run(self, steps=None, initial=None):
        """Roll out `steps` steps (all by default) from `initial` (the home states by
        default); returns the last states (n, nstate), a view of the reused output."""
        steps = self.steps if steps is None else steps
        out = self._out.get(steps)
        if out is None:
            n, size = self.initial.shape
            out = self._out[steps] = (np.zeros((n, steps, size)),
                                      np.zeros((n, steps, self.model.nsensordata)))
        self._rollout(self.model, self.data, self.initial if initial is None else initial,
                      self.control, nstep=steps, state=out[0], sensordata=out[1],
                      persistent_pool=len(self.data) > 1)
        return out[0][:, -1]

    def run_in_calls(self, steps_per_call):
        """The `steps` steps as calls of `steps_per_call` steps, each starting from the
        previous call's last states (an RL loop)."""
        x = self.initial
        for _ in range(self.steps // steps_per_call):
            x = self.run(steps_per_call, x)
        return x


# ---- the PD controller -------------------------------------------------------------------
def draw_target(generator):
    """q_d (9,) of one rollout: home plus a uniform offset (fingers kept in their range)."""
    offset = generator.uniform(-0.4, 0.4, 9)
    offset[7:] = generator.uniform(-0.015, 0.015, 2)
    return Q_HOME + offset


class PdController(LeafSystem):
    """estimated_state (18) -> [PD] -> control (9): u = Kp (q_d - q) - Kd v.

    q_d is numeric parameter 0, drawn by `set_random_parameters` (`draw_target`).
    """

    def __init__(self):
        super().__init__()
        self.declare_numeric_parameter(Q_HOME)
        self._x = self.declare_vector_input_port("estimated_state", 18)
        self.declare_vector_output_port("control", 9, self._calc_control)

    def _calc_control(self, context, output):
        x = self._x.eval(context)
        q_d = context.get_numeric_parameter(0)
        output.set_value(KP * (q_d - x[:9]) - KD * x[9:])

    def set_random_parameters(self, context, generator):
        context.set_numeric_parameter(0, draw_target(generator))


@functools.lru_cache(maxsize=1)
def panda_diagram():
    """Diagram of the Panda and its PD controller, built once per process."""
    builder = DiagramBuilder()
    plant, _ = make_panda()
    builder.add_named_system("panda", plant)
    pd = builder.add_named_system("pd", PdController())
    builder.connect(plant.get_state_output_port(), pd.get_input_port("estimated_state"))
    builder.connect(pd.get_output_port("control"), plant.get_actuation_input_port())
    return builder.build(), plant


def make_simulator(generator):
    """One rollout: a new context of the shared diagram (targets come from the generator
    through PdController.set_random_parameters)."""
    diagram, _ = panda_diagram()
    return Simulator(diagram)


def final_state(system, context):
    _, plant = panda_diagram()
    return np.array(plant.get_positions_and_velocities(plant.get_my_context_from_root(context)))


# ---- the three ways ------------------------------------------------------------------------
def run_serial(n):
    start = time.perf_counter()
    results = monte_carlo_simulation(make_simulator, final_state, FINAL_TIME, n, seed=SEED,
                                     progress=False)
    return time.perf_counter() - start, results


def start_pool(workers):
    """A spawn process pool whose workers have imported everything, loaded the compiled
    kernels and built the diagram (so the timing excludes start-up)."""
    pool = concurrent.futures.ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"))
    list(pool.map(_warm_up, range(workers)))
    return pool


def run_pool(n, pool):
    start = time.perf_counter()
    results = monte_carlo_simulation(make_simulator, final_state, FINAL_TIME, n, seed=SEED,
                                     executor=pool, progress=False)
    return time.perf_counter() - start, results


def _warm_up(_):
    monte_carlo_simulation(make_simulator, final_state, 0.01, 1, progress=False)
    return True


def run_batched(n, in_kernel_pd):
    """All n rollouts in one BatchedPlant: the PD law evaluated by the kernel's
    PD-controlled actuators (one kernel call for the whole rollout), or with numpy between
    one-step kernel calls (a policy evaluated outside the kernel)."""
    plant, _ = make_panda()
    targets = np.array([draw_target(np.random.default_rng(sample_seed(SEED, i)))
                        for i in range(n)])
    envs = BatchedPlant(plant, n)
    envs.step(np.zeros((n, 9)), num_steps=1)              # load or compile the kernel
    envs.set_default_state()
    steps = round(FINAL_TIME / TIME_STEP)
    start = time.perf_counter()
    if in_kernel_pd:
        envs.set_pd_gains(KP, KD)
        envs.step(num_steps=steps, desired_state=np.hstack([targets, np.zeros((n, 9))]))
    else:
        for _ in range(steps):
            x = envs.get_state()
            envs.step(KP * (targets - x[:, :9]) - KD * x[:, 9:])
    return time.perf_counter() - start, envs.get_state()


def batched_pd(contact, targets, steps):
    """A BatchedPlant of the Panda (with the contact scene if `contact`) with PD gains and
    the desired states; returns (envs, desired_state)."""
    plant, _ = make_panda(contact=contact)
    n = targets.shape[0]
    envs = BatchedPlant(plant, n)
    envs.set_pd_gains(KP, KD)
    desired = np.ascontiguousarray(np.hstack([targets, np.zeros((n, 9))]))
    envs.step(num_steps=1, desired_state=desired)        # load or compile the kernel
    return envs, desired


def run_batched_pd(envs, desired, steps, steps_per_call, out):
    """`steps` steps from the default state in calls of `steps_per_call`, each followed by
    ``get_state(out=out)`` (an RL loop reads the state after every call)."""
    envs.set_default_state()
    start = time.perf_counter()
    for _ in range(steps // steps_per_call):
        envs.step(num_steps=steps_per_call, desired_state=desired)
        envs.get_state(out=out)
    return time.perf_counter() - start


def compare_with_mujoco(args):
    """Part 1 of the module docstring; returns the rows printed."""
    n, steps = args.envs, args.steps
    rng = np.random.default_rng(SEED)
    targets = np.array([draw_target(rng) for _ in range(n)])
    cases = {}
    for contact in (False, True):
        envs, desired = batched_pd(contact, targets, steps)
        model = make_mujoco_panda(contact)
        mj = {t: MujocoRollouts(model, targets, steps, t) for t in (1, 2)}
        for r in mj.values():
            r.run()                                            # warm the pools
        cases[contact] = (envs, desired, mj, np.empty_like(envs.get_state()))
    times = {}
    for _ in range(args.repeats):
        for contact, (envs, desired, mj, out) in cases.items():
            key = "contact" if contact else "free"
            times.setdefault((key, "merganser"), []).append(
                run_batched_pd(envs, desired, steps, steps, out))
            threads = get_num_threads()
            set_num_threads(1)
            try:
                cpu = time.process_time()
                times.setdefault((key, "merganser 1 thread"), []).append(
                    run_batched_pd(envs, desired, steps, steps, out))
                times.setdefault((key, "merganser cpu"), []).append(time.process_time() - cpu)
            finally:
                set_num_threads(threads)
            for k in (1, 5):
                times.setdefault((key, f"merganser {k}/call"), []).append(
                    run_batched_pd(envs, desired, steps, k, out))
            for t, r in mj.items():
                start, cpu = time.perf_counter(), time.process_time()
                r.run()
                times.setdefault((key, f"mujoco {t}"), []).append(time.perf_counter() - start)
                if t == 1:
                    times.setdefault((key, "mujoco cpu"), []).append(time.process_time() - cpu)
                if t == 2:
                    start = time.perf_counter()
                    r.run_in_calls(1)
                    times.setdefault((key, "mujoco 2 1/call"), []).append(
                        time.perf_counter() - start)
    per = {k: statistics.median(v) / (n * steps) * 1e6 for k, v in times.items()}
    print(f"Panda, {n} envs x {steps} steps of {TIME_STEP * 1e3:g} ms, PD in the step; "
          f"per env-step (us), medians of {args.repeats} interleaved rounds; numba threads "
          f"{numba.get_num_threads()}")
    print(f"{'scene':<9}{'merganser':>11}{'mujoco 1 thr':>14}{'mujoco 2 thr':>14}"
          f"{'ratio vs 2 thr':>16}{'ratio vs 1 thr':>16}")
    for key in ("free", "contact"):
        m = per[(key, "merganser")]
        print(f"{key:<9}{m:>11.3f}{per[(key, 'mujoco 1')]:>14.3f}{per[(key, 'mujoco 2')]:>14.3f}"
              f"{m / per[(key, 'mujoco 2')]:>15.2f}x{m / per[(key, 'mujoco 1')]:>15.2f}x"
              f"   (goal <= 0.5x)")
    print("one thread, CPU time of this process per env-step (not inflated by other "
          "processes): " + ", ".join(
              f"{key} merganser {per[(key, 'merganser cpu')]:.3f} us, mujoco "
              f"{per[(key, 'mujoco cpu')]:.3f} us "
              f"({per[(key, 'merganser cpu')] / per[(key, 'mujoco cpu')]:.2f}x)"
              for key in ("free", "contact")))
    print("threads: merganser one call on 1 thread / on "
          f"{numba.get_num_threads()}: " + ", ".join(
              f"{key} {per[(key, 'merganser 1 thread')] / per[(key, 'merganser')]:.2f}x"
              for key in ("free", "contact")) + "   (goal >= 1.7x on 2 free cores)")
    print("short calls (same 200 steps; merganser step + get_state(out=...) per call; mujoco "
          "2 threads, one step per call):")
    for key in ("free", "contact"):
        m = per[(key, "merganser")]
        print(f"  {key:<8} 1 step/call {per[(key, 'merganser 1/call')]:.3f} us "
              f"({per[(key, 'merganser 1/call')] / m:.2f}x the one-call figure), 5 steps/call "
              f"{per[(key, 'merganser 5/call')]:.3f} us "
              f"({per[(key, 'merganser 5/call')] / m:.2f}x); mujoco.rollout 1 step/call "
              f"{per[(key, 'mujoco 2 1/call')]:.3f} us "
              f"(merganser / mujoco {per[(key, 'merganser 1/call')] / per[(key, 'mujoco 2 1/call')]:.2f}x)")
    contacts = cases[True][0].get_num_contacts()
    print(f"contact scene: point contacts per env in the last step: median "
          f"{np.median(contacts):g}, max {contacts.max()}")
    print(f"load average (1, 5, 15 min): {tuple(round(x, 2) for x in os.getloadavg())} on "
          f"{os.cpu_count()} cores")


def compare_with_simulator(args):
    """Part 2 of the module docstring."""
    plant, source = make_panda()
    print(f"Panda: nq = {plant.num_positions()}, nu = {plant.num_actuators()}, {source}")
    print(f"{NUM_ROLLOUTS} rollouts of {FINAL_TIME} s at {TIME_STEP * 1e3:g} ms "
          f"({round(FINAL_TIME / TIME_STEP)} steps each); numba threads: "
          f"{numba.get_num_threads()}; medians of {args.repeats} interleaved rounds")
    _warm_up(0)
    pool = start_pool(args.workers)
    times = {"serial": [], "pool": [], "kernel_pd": [], "numpy_pd": []}
    try:
        for _ in range(args.repeats):
            t, serial = run_serial(args.serial)
            times["serial"].append(t)
            t, pooled = run_pool(args.pool, pool)
            times["pool"].append(t)
            t, x_batched = run_batched(NUM_ROLLOUTS, in_kernel_pd=True)
            times["kernel_pd"].append(t)
            t, x_stepped = run_batched(NUM_ROLLOUTS, in_kernel_pd=False)
            times["numpy_pd"].append(t)
    finally:
        pool.shutdown()
    t = {k: statistics.median(v) for k, v in times.items()}
    rate = {"serial": args.serial / t["serial"], "pool": args.pool / t["pool"],
            "kernel_pd": NUM_ROLLOUTS / t["kernel_pd"], "numpy_pd": NUM_ROLLOUTS / t["numpy_pd"]}

    print(f"{'method':<42}{'rollouts':>9}{'time (s)':>11}{'rollouts/s':>12}{'x serial':>10}")
    rows = [("serial", "serial simulate loop", args.serial, " (timed subset)"),
            ("pool", f"process pool ({args.workers} workers)", args.pool, " (timed subset)"),
            ("kernel_pd", "batched kernel, PD actuators in the kernel", NUM_ROLLOUTS, ""),
            ("numpy_pd", "batched kernel, numpy PD every step", NUM_ROLLOUTS, "")]
    for key, name, n, note in rows:
        print(f"{name:<42}{n:>9}{t[key]:>11.2f}{rate[key]:>12.2f}"
              f"{rate[key] / rate['serial']:>10.2f}{note}")
    print(f"serial and pool are extrapolated from the timed subsets: {NUM_ROLLOUTS} rollouts "
          f"would take {NUM_ROLLOUTS / rate['serial']:.0f} s serially and "
          f"{NUM_ROLLOUTS / rate['pool']:.0f} s on the pool")
    print(f"ratio batched / serial: {rate['kernel_pd'] / rate['serial']:6.1f} with the kernel's "
          f"PD, {rate['numpy_pd'] / rate['serial']:.1f} with numpy PD per step   (goal >= 20)")
    print(f"ratio pool / serial:    {rate['pool'] / rate['serial']:6.2f}   (goal >= 1.7 on 2 "
          f"free cores)")
    failed = [r.index for r in serial + pooled if r.exception is not None]
    assert not failed, f"rollouts {failed} failed"
    x_serial = np.array([r.output for r in serial])
    x_pool = np.array([r.output for r in pooled])
    print(f"max |x_serial - x_batched| over the {args.serial} rollouts run both ways: "
          f"{np.abs(x_serial - x_batched[:args.serial]).max():.2e} (kernel PD), "
          f"{np.abs(x_serial - x_stepped[:args.serial]).max():.2e} (numpy PD); "
          f"pool == serial bit for bit: {np.array_equal(x_pool[:args.serial], x_serial)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", type=int, default=1000, help="envs of part 1")
    parser.add_argument("--steps", type=int, default=200, help="steps of part 1")
    parser.add_argument("--repeats", type=int, default=5,
                        help="interleaved rounds; the median time of each method is used")
    parser.add_argument("--simulator", action="store_true",
                        help="also run part 2 (serial and pool Simulator rollouts)")
    parser.add_argument("--serial", type=int, default=12, help="part 2: serial rollouts")
    parser.add_argument("--pool", type=int, default=24, help="part 2: pool rollouts")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    compare_with_mujoco(args)
    if args.simulator:
        compare_with_simulator(args)


if __name__ == "__main__":
    main()
