"""Run time of the ahead-of-time kernels against numba's JIT, on Panda.

Each sample is one fresh process timing the plant's mass matrix (CRBA), forward dynamics
(ABA) and inverse dynamics (RNEA) at changing positions: with the ahead-of-time extension
(``MERGANSER_AOT=1``, the install's ``merganser.framework._aot_kernels``) and without it
(``MERGANSER_AOT=0``: the JIT's machine code, loaded from a numba cache warmed by an untimed
run), interleaved; medians of the repeats and the ratio AOT / JIT. Each process also
checks that the kernels it ran are the ones expected (AOT-bound or not) and writes its
results, which must be bitwise equal between the two.

Run: ``.venv/bin/python benchmarks/bench_aot.py [--repeats N] [--calls N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_startup import ERD, PANDA  # noqa: E402

_CHILD = """
import json, sys, time
import numpy as np
from merganser.framework.compilation import aot_status
from merganser.multibody import MultibodyForces, MultibodyPlant
from merganser.multibody.parsing import Parser
plant = MultibodyPlant(0.0)
parser = Parser(plant, geometry_roles=())
parser.package_map().add("example-robot-data", {erd!r})
parser.add_models({panda!r})
plant.weld_frames(plant.world_frame(), plant.get_body_by_name("panda_link0").body_frame())
plant.finalize()
ctx = plant.create_default_context()
nq, nv = plant.num_positions(), plant.num_velocities()
rng = np.random.default_rng(0)
qs = rng.uniform(-1, 1, ({calls}, nq))
v = rng.uniform(-1, 1, nv)
vd = rng.uniform(-1, 1, nv)
forces = MultibodyForces(plant)
plant.get_actuation_input_port().fix_value(ctx, np.zeros(plant.num_actuators()))
plant.set_velocities(ctx, v)
queries = {{
    "mass matrix (CRBA)": lambda: plant.calc_mass_matrix(ctx),
    "forward dynamics (ABA)": lambda: plant.calc_forward_dynamics(ctx),
    "inverse dynamics (RNEA)": lambda: plant.calc_inverse_dynamics(ctx, vd, forces),
}}
out, values = {{}}, []
for name, query in queries.items():
    plant.set_positions(ctx, qs[0])
    values.append(np.array(query(), dtype=float).ravel())      # compiles or binds
    t0 = time.perf_counter()
    for q in qs:
        plant.set_positions(ctx, q)
        query()
    out[name] = (time.perf_counter() - t0) / len(qs) * 1e6
    plant.set_positions(ctx, qs[-1])
    values.append(np.array(query(), dtype=float).ravel())
out["values"] = np.concatenate(values).tolist()
out["bound"] = aot_status()["bound"]
print("RESULT " + json.dumps(out))
"""


def run(aot, calls, cache):
    env = dict(os.environ, MERGANSER_AOT="1" if aot else "0", NUMBA_CACHE_DIR=cache)
    code = _CHILD.format(erd=str(ERD), panda=str(PANDA), calls=calls)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"bench_aot: the child failed:\n{proc.stderr[-3000:]}")
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--calls", type=int, default=2000)
    args = ap.parse_args(argv)
    print(f"bench_aot ({time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f})")
    with tempfile.TemporaryDirectory(prefix="merganser-aot-bench-") as cache:
        run(False, 10, cache)                          # warms the JIT's cache, untimed
        ours, peer = [], []
        for _ in range(args.repeats):
            ours.append(run(True, args.calls, cache))
            peer.append(run(False, args.calls, cache))
    if not ours[0]["bound"]:
        print("no ahead-of-time kernel was bound (extension not built?): both columns are JIT")
    same = all(o["values"] == p["values"] for o, p in zip(ours, peer))
    print("| query (Panda, per call incl. the plant's Python) | AOT (us) | JIT (us) | AOT / JIT |")
    print("|---|---|---|---|")
    for name in ("mass matrix (CRBA)", "forward dynamics (ABA)", "inverse dynamics (RNEA)"):
        a, j = statistics.median(o[name] for o in ours), statistics.median(p[name] for p in peer)
        print(f"| {name} | {a:.2f} | {j:.2f} | {a / j:.2f}x |")
    print(f"results bitwise equal AOT vs JIT: {same}; kernels bound ahead of time: "
          f"{', '.join(sorted(n.rsplit('.', 1)[-1] for n in ours[0]['bound']))}")
    print(f"medians of {args.repeats} interleaved fresh processes, {args.calls} calls each")


if __name__ == "__main__":
    main(sys.argv[1:])
