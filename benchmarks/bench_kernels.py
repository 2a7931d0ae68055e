"""Benchmark of the compiled dynamics kernels on the Franka Panda (fixed base).

Builds the Panda `CompiledModel` from the URDF in ``tests/data`` (7 revolute joints, two
prismatic fingers, the fixed joints kept as welded bodies as Drake does), then prints the
median time per call through the `TreeDynamics` facade for forward kinematics, the mass
matrix, RNEA, ABA, the bias term and an end-effector Jacobian, and the time per state of
batches of 10,000 states (RNEA, ABA, CRBA, FK).

Baseline: if ``import pinocchio`` works (PyPI package ``pin``, an optional benchmark
dependency), Pinocchio is timed in the same run on the same URDF and the ratios are
against it; otherwise they are against reference figures measured once on the
development machine (printed as such). The last section times a fresh process's
import and first calls, to show that numba's cache avoids recompiling.

Run: ``.venv/bin/python benchmarks/bench_kernels.py [--quick]``.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import subprocess
import sys
import time
import xml.etree.ElementTree as ET


import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from merganser.framework.compilation import get_num_threads  # noqa: E402
from merganser.multibody.kernels import TreeDynamics  # noqa: E402
from merganser.multibody.tree.compiled_model import JointType, make_compiled_model  # noqa: E402

PANDA_URDF = (ROOT / "tests/data/models/example-robot-data/robots/panda_description/urdf/"
              "panda.urdf")
#: Pinocchio medians (µs) measured on the development machine, used without pinocchio.
REFERENCE_US = {"FK": 0.43, "M": 0.94, "RNEA": 1.30, "ABA": 2.53, "Jacobian": 0.80}


# --------------------------------------------------------------------------- model
def _rpy_matrix(r, p, y):
    cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def _origin(elem):
    X = np.eye(4)
    o = elem.find("origin") if elem is not None else None
    if o is not None:
        X[:3, :3] = _rpy_matrix(*[float(s) for s in o.get("rpy", "0 0 0").split()])
        X[:3, 3] = [float(s) for s in o.get("xyz", "0 0 0").split()]
    return X


def _inertial_params(link):
    inertial = link.find("inertial")
    if inertial is None:
        return np.zeros(10)
    X = _origin(inertial)
    m = float(inertial.find("mass").get("value"))
    a = {k: float(v) for k, v in inertial.find("inertia").attrib.items()}
    I_c = np.array([[a["ixx"], a["ixy"], a["ixz"]], [a["ixy"], a["iyy"], a["iyz"]],
                    [a["ixz"], a["iyz"], a["izz"]]])
    R, c = X[:3, :3], X[:3, 3]
    I_o = R @ I_c @ R.T + m * (c @ c * np.eye(3) - np.outer(c, c))
    return np.array([m, *(m * c), I_o[0, 0], I_o[1, 1], I_o[2, 2], I_o[0, 1], I_o[0, 2],
                     I_o[1, 2]])


def panda_model():
    """Return (CompiledModel, node names) of the Panda welded to the world."""
    robot = ET.parse(PANDA_URDF).getroot()
    links = {ln.get("name"): ln for ln in robot.findall("link")}
    joints = robot.findall("joint")
    children = {}
    for j in joints:
        children.setdefault(j.find("parent").get("link"), []).append(j)
    types = {"revolute": JointType.REVOLUTE, "continuous": JointType.REVOLUTE,
             "prismatic": JointType.PRISMATIC, "fixed": JointType.WELD}
    names, parent, jtype, X_PF, axis, inertia = ["world"], [-1], [0], [np.eye(4)], \
        [np.zeros(3)], [np.zeros(10)]

    def visit(link_name, node):
        for j in children.get(link_name, []):
            child = j.find("child").get("link")
            names.append(child)
            parent.append(node)
            jtype.append(int(types[j.get("type")]))
            X_PF.append(_origin(j))
            ax = j.find("axis")
            axis.append(np.array([float(s) for s in ax.get("xyz").split()])
                        if ax is not None and j.get("type") != "fixed" else np.zeros(3))
            inertia.append(_inertial_params(links[child]))
            visit(child, len(names) - 1)

    root = "panda_link0"
    names.append(root)
    parent.append(0)
    jtype.append(int(JointType.WELD))
    X_PF.append(np.eye(4))
    axis.append(np.zeros(3))
    inertia.append(_inertial_params(links[root]))
    visit(root, 1)
    model = make_compiled_model(parent, jtype, X_PF=np.stack(X_PF), axis=np.stack(axis),
                                default_inertia=np.stack(inertia), node_names=names)
    return model, names


# --------------------------------------------------------------------------- timing
def median_us(fn, args, number, repeat):
    """Median over `repeat` runs of the mean time of `number` calls, in µs."""
    return timings_us(fn, args, number, repeat)[0]


def timings_us(fn, args, number, repeat):
    """(median, min) over `repeat` runs of the mean time of `number` calls, in µs."""
    fn(*args)
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn(*args)
        runs.append((time.perf_counter() - t0) / number * 1e6)
    return statistics.median(runs), min(runs)


def time_pinocchio(q, v, a, tau, number, repeat):
    """Return Pinocchio's medians (µs) on the same URDF, or None if it is not installed."""
    try:
        import pinocchio as pin
    except ImportError:
        return None, None
    model = pin.buildModelFromUrdf(str(PANDA_URDF))
    data = model.createData()
    ee = model.getJointId("panda_joint7")
    out = {
        "FK": median_us(pin.forwardKinematics, (model, data, q), number, repeat),
        "M": median_us(pin.crba, (model, data, q), number, repeat),
        "RNEA": median_us(pin.rnea, (model, data, q, v, a), number, repeat),
        "ABA": median_us(pin.aba, (model, data, q, v, tau), number, repeat),
        "bias": median_us(pin.nonLinearEffects, (model, data, q, v), number, repeat),
        "Jacobian": median_us(pin.computeJointJacobian, (model, data, q, ee), number,
                              repeat),
    }
    return out, (pin, model, data)


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    number, repeat = (2000, 5) if args.quick else (20000, 9)
    nbatch = 10000

    model, names = panda_model()
    td = TreeDynamics(model)
    I10 = model.default_inertia.copy()
    g = np.array([0.0, 0.0, -9.81])
    rng = np.random.default_rng(0)
    q, v, a, tau = (rng.uniform(-1, 1, model.nv) for _ in range(4))
    hand = names.index("panda_hand")
    p_tcp = np.array([0.0, 0.0, 0.1034])
    print(f"Panda: nb = {model.nb} nodes (world and 5 welded bodies included), "
          f"nq = {model.nq}, nv = {model.nv}")

    calls = {
        "FK": (td.forward_kinematics, (q,)),
        "M": (td.mass_matrix, (q, I10)),
        "RNEA": (td.inverse_dynamics, (q, v, a, I10, g)),
        "ABA": (td.forward_dynamics, (q, v, tau, I10, g)),
        "bias": (td.bias_term, (q, v, I10)),
        "Jacobian": (td.jacobian_spatial, (q, hand, p_tcp)),
    }
    timed = {key: timings_us(fn, fargs, number, repeat) for key, (fn, fargs) in calls.items()}

    Q = rng.uniform(-1, 1, (nbatch, model.nq))
    V, A, TAU = (rng.uniform(-1, 1, (nbatch, model.nv)) for _ in range(3))
    batch = {
        "RNEA": (td.rnea_batch, (Q, V, A, I10, g)),
        "ABA": (td.aba_batch, (Q, V, TAU, I10, g)),
        "M": (td.crba_batch, (Q, I10)),
        "FK": (td.fk_batch, (Q,)),
    }
    # Batches are timed before pinocchio is imported: its extension loads an OpenMP
    # runtime that slows numba's parallel loops in the same process several times over.
    timed_batch = {key: tuple(x / nbatch for x in timings_us(fn, fargs, 1, repeat))
                   for key, (fn, fargs) in batch.items()}

    pin_us, pin_objects = time_pinocchio(q, v, a, tau, number, repeat)
    if pin_us is None:
        base, label = REFERENCE_US, "reference figures (pinocchio not installed)"
    else:
        base, label = pin_us, "Pinocchio measured in this run"
        pin, pmodel, pdata = pin_objects
        err_M = np.abs(pin.crba(pmodel, pdata, q) - td.mass_matrix(q, I10))
        err_tau = np.abs(pin.rnea(pmodel, pdata, q, v, a) - td.inverse_dynamics(q, v, a, I10, g))
        print(f"agreement with Pinocchio: |dM| = {np.triu(err_M).max():.1e}, "
              f"|dtau| = {err_tau.max():.1e}")

    print(f"\nper call (µs, median and min of {repeat} x {number}); baseline: {label}")
    print(f"{'':10s}{'median':>10s}{'min':>10s}{'baseline':>10s}{'ratio':>8s}")
    for key, (t, t_min) in timed.items():
        b = base.get(key)
        print(f"{key:10s}{t:10.2f}{t_min:10.2f}"
              + (f"{b:10.2f}{t / b:8.2f}" if b else f"{'-':>10s}"))

    print(f"\nbatch of {nbatch} states on {get_num_threads()} threads (µs per state, "
          f"median and min of {repeat}; baseline: one call of the above)")
    print(f"{'':10s}{'median':>10s}{'min':>10s}{'baseline':>10s}{'ratio':>8s}")
    for key, (t, t_min) in timed_batch.items():
        b = base.get(key)
        print(f"{key:10s}{t:10.3f}{t_min:10.3f}{b:10.2f}{t / b:8.2f}")

    t_import, t_first = fresh_process_seconds()
    print(f"\nfresh process: import + model {t_import:.2f} s, first calls "
          f"(FK, M, RNEA, ABA, J) {t_first:.3f} s (cached compilation)")


if __name__ == "__main__":
    main()
