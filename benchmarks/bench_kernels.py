"""Benchmark of the compiled dynamics kernels against Pinocchio on real robot trees.

For each robot (example-robot-data's Panda welded to the world, Baxter welded to the
world, Talos on a free base) the URDF is loaded through merganser's `Parser` (the fixed
joints stay welded bodies, as in Drake) and the plant's `CompiledModel` is timed through
the `TreeDynamics` facade: forward kinematics of every body (FK) and of the mobile
bodies only (FK mobile: the world and the bodies with a joint, ``mobile_forward_kinematics``),
the mass matrix (M), RNEA, ABA, the bias term C(q, v) v and the spatial Jacobian of a point
of an end-effector body (a welded body on every robot). Pinocchio (the ``bench`` extra)
loads the same URDF (it merges fixed joints into their parent bodies at parse time, so
its joints are merganser's mobile nodes) and is timed in the same run, interleaved with
merganser repetition by repetition; the figures are medians over the repetitions of the
mean time of a block of calls, and the ratios are merganser / Pinocchio. The
``unmerged`` column times merganser with every welded body kept as a node of its own
(``TreeDynamics(model, merge_welded=False)``, where every node is mobile), the kernels'
old layout.

Peers, like with like: FK (every body's pose) against ``framesForwardKinematics`` (every
frame, the fixed links' frames included); FK mobile (the poses of the bodies with a
joint) against ``forwardKinematics`` (the joint placements); M ``crba``; RNEA ``rnea``;
ABA ``aba``; bias ``nonLinearEffects`` (with gravity, merganser's without); Jacobian
``computeFrameJacobian(..., LOCAL_WORLD_ALIGNED)`` of the same body's frame. Both
Jacobians compute the kinematics of the joints on the body's path to the world only
(merganser: `multibody.kernels.kinematics.pose_pass_to_nodes`; Pinocchio: the joint's
``supports``) and write the columns of those joints, the others zero.

On the Panda the kernels' arithmetic is short (FK about 0.35 µs, the Jacobian 0.35 µs,
RNEA and M about 1.1 µs here, timed in a compiled loop) and a call's overhead through the
facade (its argument checks, numba's type dispatch, the arrays' unboxing: about 0.5 µs)
is a large part of each row, as Pinocchio's Python binding is of its rows. Calling the
kernels' compiled entry points instead of the dispatcher (as the plant's fast paths do
with its own arrays) gained nothing measurable (tried: a few per cent either way, within
the noise): the facade has to check the dtype and layout of the caller's arrays in
Python, and that costs about what numba's dispatch does.

With ``--batch`` the batched kernels (10,000 Panda states per call) are timed first.
A second table times the spatial Jacobian of the last body of random serial chains of
7 to 50 revolute joints (the growth with size).

The last line times a fresh process's import and first calls, to show that numba's cache
avoids recompiling.

Run: ``.venv/bin/python benchmarks/bench_kernels.py [--quick] [--cpu-time]
[--robots panda baxter talos] [--erd PATH]``; ``--erd`` is a checkout of
example-robot-data (default ``/work/erd``) for Baxter and Talos (skipped if absent).
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from merganser.multibody import MultibodyPlant, Parser  # noqa: E402
from merganser.multibody.kernels import TreeDynamics  # noqa: E402
from merganser.multibody.plant.plant_core import get_plant_core  # noqa: E402

ERD_TESTS = ROOT / "tests/data/models/example-robot-data"
PANDA_URDF = ERD_TESTS / "robots/panda_description/urdf/panda.urdf"
#: robot -> (URDF relative to an example-robot-data checkout, free base, Jacobian body)
ROBOTS = {
    "panda": ("robots/panda_description/urdf/panda.urdf", False, "panda_hand"),
    "baxter": ("robots/baxter_description/urdf/baxter.urdf", False, "left_gripper"),
    "talos": ("robots/talos_data/robots/talos_reduced.urdf", True, "wrist_left_ft_tool_link"),
}
G = np.array([0.0, 0.0, -9.81])
#: The clock: wall time, or with ``--cpu-time`` the process's CPU time (which does not
#: count the time the process waits for a core on a loaded machine).
CLOCK = time.perf_counter


# --------------------------------------------------------------------------- models
def load_plant(urdf, erd_root, free_base):
    """A finalized continuous MultibodyPlant of `urdf`, its root welded unless `free_base`."""
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.package_map().add("example-robot-data", str(erd_root))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [instance] = parser.add_models(str(urdf))
    if not free_base:
        root = plant.get_body(plant.get_body_indices(instance)[0])
        plant.weld_frames(plant.world_frame(), root.body_frame())
    plant.finalize()
    return plant


def panda_model():
    """(CompiledModel, node names) of the Panda welded to the world."""
    plant = load_plant(PANDA_URDF, ERD_TESTS, False)
    model = get_plant_core(plant).model
    return model, list(model.node_names)


def chain_urdf(n, seed):
    """URDF text of a serial chain of `n` revolute joints with random geometry."""
    rng = np.random.default_rng(seed)
    parts = ['<robot name="chain">', '<link name="l0"/>']
    for i in range(1, n + 1):
        m = rng.uniform(0.5, 2.0)
        d = rng.uniform(0.02, 0.03, 3)   # principal moments obeying the triangle inequality
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        xyz, rpy = rng.uniform(-0.2, 0.2, 3), rng.uniform(-1.0, 1.0, 3)
        parts.append(
            f'<link name="l{i}"><inertial><origin xyz="0.05 0.01 0.1"/><mass value="{m}"/>'
            f'<inertia ixx="{d[0]}" iyy="{d[1]}" izz="{d[2]}" ixy="0" ixz="0" iyz="0"/>'
            '</inertial></link>'
            f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/>'
            f'<child link="l{i}"/><origin xyz="{xyz[0]} {xyz[1]} {xyz[2]}" '
            f'rpy="{rpy[0]} {rpy[1]} {rpy[2]}"/><axis xyz="{axis[0]} {axis[1]} {axis[2]}"/>'
            '<limit effort="1" velocity="1" lower="-3" upper="3"/></joint>')
    parts.append("</robot>")
    return "".join(parts)


# --------------------------------------------------------------------------- timing
def block_us(fn, args, number):
    """Mean µs of `number` calls of ``fn(*args)``."""
    t0 = CLOCK()
    for _ in range(number):
        fn(*args)
    return (CLOCK() - t0) / number * 1e6


def interleaved_medians(calls, number, repeat):
    """Median µs of each named call, repetitions interleaved across the calls.

    `calls` maps a name to ``(fn, args)`` (or None); each repetition times one block of
    every call in turn, so a change of the machine's load affects all of them alike.
    """
    runs = {name: [] for name in calls}
    for c in calls.values():
        if c is not None:
            c[0](*c[1])                       # warm (compilation, caches)
    for _ in range(repeat):
        for name, c in calls.items():
            if c is not None:
                runs[name].append(block_us(c[0], c[1], number))
    return {name: statistics.median(r) if r else None for name, r in runs.items()}


def merganser_calls(td, model, q, v, a, tau, node, p):
    I10 = model.default_inertia.copy()
    return {
        "FK": (td.forward_kinematics, (q,)),
        "FK mobile": (td.mobile_forward_kinematics, (q,))
        if hasattr(td, "mobile_forward_kinematics") else None,
        "M": (td.mass_matrix, (q, I10)),
        "RNEA": (td.inverse_dynamics, (q, v, a, I10, G)),
        "ABA": (td.forward_dynamics, (q, v, tau, I10, G)),
        "bias": (td.bias_term, (q, v, I10)),
        "Jacobian": (td.jacobian_spatial, (q, node, p)),
    }


def pinocchio_calls(pin, pmodel, q, v, a, tau, frame_name):
    data = pmodel.createData()
    fid = pmodel.getFrameId(frame_name)
    return {
        "FK": (pin.framesForwardKinematics, (pmodel, data, q)),
        "FK mobile": (pin.forwardKinematics, (pmodel, data, q)),
        "M": (pin.crba, (pmodel, data, q)),
        "RNEA": (pin.rnea, (pmodel, data, q, v, a)),
        "ABA": (pin.aba, (pmodel, data, q, v, tau)),
        "bias": (pin.nonLinearEffects, (pmodel, data, q, v)),
        "Jacobian": (pin.computeFrameJacobian,
                     (pmodel, data, q, fid, pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)),
    }


def _import_pinocchio():
    try:
        import pinocchio as pin
    except ImportError:
        return None
    return pin


def _random_q(model, rng):
    """Random q of `model` with unit quaternions (QUATERNION_FLOATING blocks)."""
    q = rng.uniform(-1.0, 1.0, model.nq)
    for k in range(1, model.nb):
        if model.jtype[k] == 7:
            s = model.q_start[k]
            q[s:s + 4] /= np.linalg.norm(q[s:s + 4])
    return q


def _merge_supported():
    try:
        TreeDynamics.__init__.__code__.co_varnames.index("merge_welded")
    except ValueError:
        return False
    return True


def bench_robot(name, erd_root, pin, number, repeat):
    rel, free_base, ee = ROBOTS[name]
    urdf = erd_root / rel
    plant = load_plant(urdf, erd_root, free_base)
    model = get_plant_core(plant).model
    td = TreeDynamics(model)
    rng = np.random.default_rng(0)
    q = _random_q(model, rng)
    v, a, tau = (rng.uniform(-1, 1, model.nv) for _ in range(3))
    node = int(model.node_of_body[plant.get_body_by_name(ee).index()])
    p = np.array([0.01, 0.02, 0.03])
    calls = {("merganser", k): c for k, c in
             merganser_calls(td, model, q, v, a, tau, node, p).items()}
    if _merge_supported():
        tdu = TreeDynamics(model, merge_welded=False)
        calls.update({("unmerged", k): c for k, c in
                      merganser_calls(tdu, model, q, v, a, tau, node, p).items()})
    if pin is not None:
        pmodel = (pin.buildModelFromUrdf(str(urdf), pin.JointModelFreeFlyer()) if free_base
                  else pin.buildModelFromUrdf(str(urdf)))
        pq = pin.randomConfiguration(pmodel, -np.ones(pmodel.nq), np.ones(pmodel.nq))
        pv, pa, ptau = (rng.uniform(-1, 1, pmodel.nv) for _ in range(3))
        calls.update({("Pinocchio", k): c for k, c in
                      pinocchio_calls(pin, pmodel, pq, pv, pa, ptau, ee).items()})
    t = interleaved_medians(calls, number, repeat)
    nw = int(np.sum(model.jtype[1:] == 0))
    print(f"\n{name}: nb = {model.nb} bodies (world and {nw} welded bodies included), "
          f"nq = {model.nq}, nv = {model.nv}"
          + (f"; Pinocchio njoints = {pmodel.njoints}, nv = {pmodel.nv}" if pin else ""))
    print(f"  {'':10s}{'merganser':>10s}{'unmerged':>10s}{'Pinocchio':>11s}{'ratio':>8s}")
    rows = {}
    for key in ("FK", "FK mobile", "M", "RNEA", "ABA", "bias", "Jacobian"):
        mine = t[("merganser", key)]
        un = t.get(("unmerged", key))
        peer = t.get(("Pinocchio", key))
        line = (f"  {key:10s}" + (f"{mine:10.2f}" if mine else f"{'-':>10s}")
                + (f"{un:10.2f}" if un else f"{'-':>10s}"))
        if peer:
            line += f"{peer:11.2f}" + (f"{mine / peer:8.2f}" if mine else "")
            if mine:
                rows[key] = mine / peer
        print(line)
    return rows


def bench_chains(pin, number, repeat, sizes=(7, 15, 30, 50)):
    print("\nspatial Jacobian of the last body of a serial chain of n revolute joints "
          "(Pinocchio: computeFrameJacobian LOCAL_WORLD_ALIGNED, and computeJointJacobian)")
    print(f"  {'n':>4s}{'merganser':>11s}{'frame J':>11s}{'ratio':>8s}{'joint J':>11s}"
          f"{'ratio':>8s}")
    for n in sizes:
        text = chain_urdf(n, seed=n)
        plant = MultibodyPlant(0.0)
        [instance] = Parser(plant).add_models_from_string(text, "urdf")
        plant.weld_frames(plant.world_frame(),
                          plant.get_body(plant.get_body_indices(instance)[0]).body_frame())
        plant.finalize()
        model = get_plant_core(plant).model
        td = TreeDynamics(model)
        q = np.random.default_rng(1).uniform(-1, 1, model.nq)
        p = np.array([0.01, 0.02, 0.03])
        calls = {"merganser": (td.jacobian_spatial, (q, model.nb - 1, p))}
        if pin is not None:
            pmodel = pin.buildModelFromXML(text)
            data = pmodel.createData()
            calls["frame J"] = (pin.computeFrameJacobian,
                                (pmodel, data, q, pmodel.getFrameId(f"l{n}"),
                                 pin.ReferenceFrame.LOCAL_WORLD_ALIGNED))
            calls["joint J"] = (pin.computeJointJacobian,
                                (pmodel, data, q, pmodel.getJointId(f"j{n}")))
        t = interleaved_medians(calls, number, repeat)
        line = f"  {n:4d}{t['merganser']:11.2f}"
        if pin is not None:
            for key in ("frame J", "joint J"):
                line += f"{t[key]:11.2f}{t['merganser'] / t[key]:8.2f}"
        print(line)


def bench_batches(repeat, nbatch=10000):
    """µs per state of the batched kernels on the Panda (numba threads), vs one call."""
    from merganser.framework.compilation import get_num_threads
    model, _ = panda_model()
    td = TreeDynamics(model)
    I10 = model.default_inertia.copy()
    rng = np.random.default_rng(0)
    Q = rng.uniform(-1, 1, (nbatch, model.nq))
    V, A = (rng.uniform(-1, 1, (nbatch, model.nv)) for _ in range(2))
    batch = {
        "RNEA": ((td.rnea_batch, (Q, V, A, I10, G)), (td.inverse_dynamics, (Q[0], V[0], A[0], I10, G))),
        "ABA": ((td.aba_batch, (Q, V, A, I10, G)), (td.forward_dynamics, (Q[0], V[0], A[0], I10, G))),
        "M": ((td.crba_batch, (Q, I10)), (td.mass_matrix, (Q[0], I10))),
        "FK": ((td.fk_batch, (Q,)), (td.forward_kinematics, (Q[0],))),
    }
    print(f"\nPanda, batches of {nbatch} states on {get_num_threads()} threads: µs per state "
          f"(median of {repeat}) and one single call")
    for key, (b, one) in batch.items():
        t = interleaved_medians({"batch": b, "one": one}, 1, repeat)
        print(f"  {key:10s}{t['batch'] / nbatch:10.3f}{t['one']:10.2f}")


def fresh_process_seconds():
    """Time a fresh interpreter importing the kernels and making the first calls."""
    code = (
        "import time; t0 = time.perf_counter()\n"
        "import sys; sys.path.insert(0, %r)\n"
        "from benchmarks.bench_kernels import panda_model\n"
        "from merganser.multibody.kernels import TreeDynamics\n"
        "import numpy as np\n"
        "m, _ = panda_model(); td = TreeDynamics(m); I = m.default_inertia\n"
        "q = np.zeros(m.nq); g = np.array([0, 0, -9.81])\n"
        "t1 = time.perf_counter()\n"
        "td.forward_kinematics(q); td.mass_matrix(q, I); td.inverse_dynamics(q, q, q, I, g)\n"
        "td.forward_dynamics(q, q, q, I, g); td.jacobian_spatial(q, 5, np.zeros(3))\n"
        "print(t1 - t0, time.perf_counter() - t1)\n" % str(ROOT))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    return [float(s) for s in res.stdout.split()]


def main():
    global CLOCK
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time with the process's CPU time instead of wall time")
    parser.add_argument("--robots", nargs="*", default=list(ROBOTS), choices=list(ROBOTS))
    parser.add_argument("--erd", type=pathlib.Path, default=pathlib.Path("/work/erd"),
                        help="checkout of example-robot-data (for Baxter and Talos)")
    parser.add_argument("--no-chains", action="store_true", help="skip the chain table")
    parser.add_argument("--no-fresh", action="store_true", help="skip the fresh process")
    parser.add_argument("--batch", action="store_true",
                        help="also time the batched kernels (before Pinocchio is imported: "
                             "its OpenMP runtime slows numba's parallel loops)")
    args = parser.parse_args()
    if args.cpu_time:
        CLOCK = time.process_time
    number, repeat = (1000, 7) if args.quick else (5000, 11)
    if args.batch:
        bench_batches(repeat)
    pin = _import_pinocchio()
    print(f"bench_kernels: µs per call, median of {repeat} interleaved blocks of {number} "
          f"calls ({'CPU' if args.cpu_time else 'wall'} time); ratio = merganser / "
          + ("Pinocchio measured in this run" if pin else "(pinocchio not installed)"))
    for name in args.robots:
        erd = ERD_TESTS if name == "panda" else args.erd
        if not (erd / ROBOTS[name][0]).exists():
            print(f"\n{name}: skipped ({erd / ROBOTS[name][0]} not found)")
            continue
        bench_robot(name, erd, pin, number, repeat)
    if not args.no_chains:
        bench_chains(pin, number, repeat)
    if not args.no_fresh:
        t_import, t_first = fresh_process_seconds()
        print(f"\nfresh process: import + model {t_import:.2f} s, first calls "
              f"(FK, M, RNEA, ABA, J) {t_first:.3f} s (cached compilation)")


if __name__ == "__main__":
    main()
