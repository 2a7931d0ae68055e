"""Many rollouts: 1,000 five-second rollouts of the Panda under PD control at 1 ms.

The Panda (7 arm joints and 2 finger joints, URDF joint damping, no contact) is a
discrete MultibodyPlant with time_step 1 ms; a stateless PD controller
u = Kp (q_d - q) - Kd v drives it to a target q_d drawn per rollout from the rollout's
generator. Three ways to run the rollouts are timed in this process:

(a) serial: ``monte_carlo_simulation`` without an executor (a Simulator per rollout over
    the Diagram plant + PD, built once);
(b) process pool: the same call with a 2-process ``ProcessPoolExecutor`` (spawn);
(c) batched: ``BatchedPlant`` with 1,000 envs and the plant's semi-implicit Euler step in
    one parallel kernel, the PD law evaluated either by the kernel's PD-controlled
    actuators (``set_pd_gains``; one kernel call for the 5 s) or with numpy between
    one-step kernel calls (how a policy evaluated outside the kernel runs).

(a) and (b) take about a second per rollout, so they run a subset (``--serial`` and
``--pool`` rollouts) and the rate is extrapolated to 1,000 (the output says so); (c) runs
all 1,000 rollouts in full. Rollouts per second and the ratios batched / serial (goal
>= 20) and pool / serial (goal >= 1.7 on 2 cores) are printed, and the final states of the
rollouts that ran both ways are compared (same generators, same arithmetic). The machine
load is printed too: on a shared machine both ratios drop when other processes hold cores.

The Panda comes from ``multibody.Parser`` when it exists (with the fingers' ``<mimic>``
removed: the batched kernel has no constraints), otherwise it is built here from the
URDF's numbers.

Run: ``.venv/bin/python benchmarks/bench_rollouts.py [--serial 12] [--pool 24] [--repeats 3]``
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
from merganser.framework.monte_carlo import monte_carlo_simulation, sample_seed
from merganser.geometry import RigidTransform, RollPitchYaw
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


def make_panda(time_step=TIME_STEP):
    """The finalized Panda plant; returns (plant, how it was built)."""
    plant = MultibodyPlant(time_step)
    urdf_text = URDF.read_text()
    try:
        from merganser.multibody import Parser
    except ImportError:
        Parser = None
    if Parser is not None:
        text = urdf_text.replace('<mimic joint="panda_finger_joint1"/>', "")
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
        _panda_by_hand(plant, urdf_text)
        source = "built from the URDF numbers (multibody.Parser not available)"
    plant.finalize()
    plant.set_default_positions(Q_HOME)
    return plant, source


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--serial", type=int, default=12, help="serial rollouts to time")
    parser.add_argument("--pool", type=int, default=24, help="process-pool rollouts to time")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3,
                        help="interleaved rounds; the median time of each method is used")
    args = parser.parse_args()
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
    print(f"load average (1, 5, 15 min): {tuple(round(x, 2) for x in os.getloadavg())} on "
          f"{os.cpu_count()} cores (other processes lower both ratios)")

    failed = [r.index for r in serial + pooled if r.exception is not None]
    assert not failed, f"rollouts {failed} failed"
    x_serial = np.array([r.output for r in serial])
    x_pool = np.array([r.output for r in pooled])
    print(f"max |x_serial - x_batched| over the {args.serial} rollouts run both ways: "
          f"{np.abs(x_serial - x_batched[:args.serial]).max():.2e} (kernel PD), "
          f"{np.abs(x_serial - x_stepped[:args.serial]).max():.2e} (numpy PD); "
          f"pool == serial bit for bit: {np.array_equal(x_pool[:args.serial], x_serial)}")
    error = np.abs(x_batched[:, :9] - np.array(
        [draw_target(np.random.default_rng(sample_seed(SEED, i))) for i in range(NUM_ROLLOUTS)]))
    print(f"batched final |q - q_d|: median {np.median(error):.3f}, max {error.max():.3f} "
          f"(PD without gravity compensation); max |v| {np.abs(x_batched[:, 9:]).max():.2e}")


if __name__ == "__main__":
    main()
