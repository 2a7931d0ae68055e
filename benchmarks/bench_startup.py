"""Start-up: the first seconds of a program, against pydrake measured in the same run.

Each figure is one fresh Python process (interleaved with the peer's, medians of the
repeats, ratio merganser / pydrake):

- ``import``: ``import merganser.framework, merganser.geometry, merganser.multibody,
  merganser.controllers`` against ``import pydrake.all``; time and RSS after it;
- ``names`` (information): the same, then every name of ``merganser.__all__`` resolved
  (the packages re-export lazily; ``pydrake.all`` loads everything it names);
- ``panda``: import, load example-robot-data's Panda (base welded, no geometry) into a
  discrete plant (h = 1 ms) and simulate the first 1 s (passive);
- ``panda+box``: the same, then a 10 cm box dropped on the ground under SAP (point
  contact, h = 1 ms), 1 s; peak RSS;
- ``acrobot LQR``: the task of the README's first example (Drake's Acrobot.urdf, LQR
  about the upright equilibrium by linearizing the plant, 5 s of the closed loop from a
  nearby state, RK3), warm and empty cache.

merganser runs with a warm numba cache (a folder filled by an untimed first run) and,
with ``--cold``, with an empty one (a new ``NUMBA_CACHE_DIR`` per run): with the
ahead-of-time kernels of the install (``merganser.framework._aot_kernels``, when built)
and, for information, without them (``MERGANSER_AOT=0``: everything compiles; minutes per
run on a busy 2-core machine). pydrake has no cache to warm. The
children run without ``PYTHONDONTWRITEBYTECODE``, so that merganser's modules import from
their ``.pyc`` files as in a user's second run (pydrake's were written at install).

The output is the start-up table of issue 16: each row with both medians, the ratio and
the goal, and the peak RSS of each scene.

Run: ``.venv/bin/python benchmarks/bench_startup.py [--repeats N] [--cold [--cold-repeats N]]``.
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
PANDA = next(p for p in (
    pathlib.Path("/work/shared/models/example-robot-data/robots/panda_description/urdf/panda.urdf"),
    ROOT / "tests/data/models/example-robot-data/robots/panda_description/urdf/panda.urdf")
    if p.is_file())
ERD = PANDA.parents[3]
ACROBOT = ROOT / "tests/data/models/drake/acrobot/Acrobot.urdf"

_PROLOGUE = """
import json, resource, sys, time
t0 = time.perf_counter()
"""
_EPILOGUE = """
def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
out["rss_mib"] = rss_mib()
out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print("RESULT " + json.dumps(out))
"""

MERGANSER = {
    "import": """
import merganser.framework, merganser.geometry, merganser.multibody, merganser.controllers
out = {"import_s": time.perf_counter() - t0}
""",
    "names": """
import merganser.framework, merganser.geometry, merganser.multibody, merganser.controllers
import merganser
for name in merganser.__all__:
    getattr(merganser, name)
out = {"import_s": time.perf_counter() - t0}
""",
    "panda": """
import merganser.framework, merganser.geometry, merganser.multibody, merganser.controllers
import numpy as np
from merganser.multibody import MultibodyPlant
from merganser.multibody.parsing import Parser
out = {"import_s": time.perf_counter() - t0}
plant = MultibodyPlant(1e-3)
parser = Parser(plant, geometry_roles=())
parser.package_map().add("example-robot-data", ERD)
parser.add_models(PANDA)
plant.weld_frames(plant.world_frame(), plant.get_body_by_name("panda_link0").body_frame())
plant.finalize()
context = plant.create_default_context()
if plant.num_actuators():
    plant.get_actuation_input_port().fix_value(context, np.zeros(plant.num_actuators()))
plant.simulate(1.0, context=context, progress=False)
out["panda_s"] = time.perf_counter() - t0
""",
    "box": """
from merganser.framework import DiagramBuilder
from merganser.geometry import (Box, CoulombFriction, HalfSpace, ProximityProperties,
                                RigidTransform, add_contact_material)
from merganser.multibody import MultibodyPlantConfig, SpatialInertia, add_multibody_plant
t1 = time.perf_counter()
builder = DiagramBuilder()
box_plant, _ = add_multibody_plant(MultibodyPlantConfig(
    time_step=1e-3, discrete_contact_approximation="sap"), builder)
box = box_plant.add_rigid_body("box", SpatialInertia.solid_box_with_mass(1.0, 0.1, 0.1, 0.1))
props = lambda: add_contact_material(friction=CoulombFriction(0.5, 0.5),
                                     properties=ProximityProperties())
box_plant.register_collision_geometry(box, RigidTransform(), Box(0.1, 0.1, 0.1), "box", props())
box_plant.register_collision_geometry(box_plant.world_body(), RigidTransform(), HalfSpace(),
                                      "ground", props())
box_plant.finalize()
diagram = builder.build()
ctx = diagram.create_default_context()
box_plant.set_free_body_pose(box_plant.get_my_context_from_root(ctx), box,
                             RigidTransform([0.0, 0.0, 0.2]))
diagram.simulate(1.0, context=ctx, progress=False)
out["box_s"] = time.perf_counter() - t1
out["total_s"] = time.perf_counter() - t0
""",
    "lqr": """
import numpy as np
from merganser.controllers import linear_quadratic_regulator
from merganser.framework import DiagramBuilder
from merganser.multibody import MultibodyPlant, Parser
out = {"import_s": time.perf_counter() - t0}
plant = MultibodyPlant(0.0)
Parser(plant).add_models(ACROBOT)
plant.finalize()
upright = plant.create_default_context()
plant.set_positions(upright, [np.pi, 0.0])
plant.get_actuation_input_port().fix_value(upright, [0.0])
lqr = linear_quadratic_regulator(plant, upright, np.diag([10.0, 10.0, 1.0, 1.0]), np.eye(1),
                                 input_port_index=plant.get_actuation_input_port().get_index())
builder = DiagramBuilder()
builder.add_system(plant)
builder.add_system(lqr)
builder.connect(plant.get_state_output_port(), lqr.get_input_port())
builder.connect(lqr.get_output_port(), plant.get_actuation_input_port())
diagram = builder.build()
context = diagram.create_default_context()
plant.set_positions(plant.get_my_context_from_root(context), [np.pi + 0.05, -0.05])
diagram.simulate(5.0, context=context, progress=False)
out["total_s"] = time.perf_counter() - t0
""",
}

DRAKE = {
    "import": """
import pydrake.all
out = {"import_s": time.perf_counter() - t0}
""",
    "panda": """
import pydrake.all
import numpy as np
from pydrake.all import MultibodyPlant, Parser, Simulator
out = {"import_s": time.perf_counter() - t0}
plant = MultibodyPlant(1e-3)
parser = Parser(plant)
parser.package_map().Add("example-robot-data", ERD)
parser.AddModels(PANDA)
plant.WeldFrames(plant.world_frame(), plant.GetBodyByName("panda_link0").body_frame())
plant.Finalize()
simulator = Simulator(plant)
context = plant.GetMyMutableContextFromRoot(simulator.get_mutable_context())
if plant.num_actuators():
    plant.get_actuation_input_port().FixValue(context, np.zeros(plant.num_actuators()))
simulator.AdvanceTo(1.0)
out["panda_s"] = time.perf_counter() - t0
""",
    "box": """
from pydrake.all import (AddMultibodyPlant, Box, CoulombFriction, DiagramBuilder, HalfSpace,
                         MultibodyPlantConfig, RigidTransform, Simulator, SpatialInertia)
t1 = time.perf_counter()
builder = DiagramBuilder()
box_plant, _ = AddMultibodyPlant(MultibodyPlantConfig(
    time_step=1e-3, discrete_contact_approximation="sap"), builder)
box = box_plant.AddRigidBody("box", SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.1))
box_plant.RegisterCollisionGeometry(box, RigidTransform(), Box(0.1, 0.1, 0.1), "box",
                                    CoulombFriction(0.5, 0.5))
box_plant.RegisterCollisionGeometry(box_plant.world_body(), RigidTransform(), HalfSpace(),
                                    "ground", CoulombFriction(0.5, 0.5))
box_plant.Finalize()
diagram = builder.Build()
simulator = Simulator(diagram)
ctx = simulator.get_mutable_context()
box_plant.SetFreeBodyPose(box_plant.GetMyMutableContextFromRoot(ctx), box,
                          RigidTransform([0.0, 0.0, 0.2]))
simulator.AdvanceTo(1.0)
out["box_s"] = time.perf_counter() - t1
out["total_s"] = time.perf_counter() - t0
""",
}

DRAKE["lqr"] = """
import numpy as np
from pydrake.all import (DiagramBuilder, LinearQuadraticRegulator, MultibodyPlant, Parser,
                         Simulator)
out = {"import_s": time.perf_counter() - t0}
plant = MultibodyPlant(0.0)
Parser(plant).AddModels(ACROBOT)
plant.Finalize()
upright = plant.CreateDefaultContext()
plant.SetPositions(upright, [np.pi, 0.0])
plant.get_actuation_input_port().FixValue(upright, [0.0])
lqr = LinearQuadraticRegulator(plant, upright, np.diag([10.0, 10.0, 1.0, 1.0]), np.eye(1),
                               input_port_index=plant.get_actuation_input_port().get_index())
builder = DiagramBuilder()
builder.AddSystem(plant)
builder.AddSystem(lqr)
builder.Connect(plant.get_state_output_port(), lqr.get_input_port())
builder.Connect(lqr.get_output_port(), plant.get_actuation_input_port())
diagram = builder.Build()
simulator = Simulator(diagram)
plant.SetPositions(plant.GetMyMutableContextFromRoot(simulator.get_mutable_context()),
                   [np.pi + 0.05, -0.05])
simulator.AdvanceTo(5.0)
out["total_s"] = time.perf_counter() - t0
"""

DRAKE["names"] = DRAKE["import"]

SCENES = {"import": ("import",), "names": ("names",), "panda": ("panda",),
          "panda+box": ("panda", "box"), "lqr": ("lqr",)}

#: The rows of the start-up table: (what, scene, key, goal ratio or None, cache).
ROWS = (
    ("import of the four packages, fresh process, warm cache", "import", "import_s", 0.5, "warm"),
    ("RSS after that import", "import", "rss_mib", 0.6, "warm"),
    ("(information) the same, every name of merganser.__all__ resolved", "names", "import_s",
     None, "warm"),
    ("import + load Panda + first 1 s simulate, warm cache", "panda", "panda_s", 1.0, "warm"),
    ("the same plus a SAP contact scene, warm cache (information)", "panda+box", "total_s", None,
     "warm"),
    ("the same plus a SAP contact scene, empty numba cache", "panda+box", "total_s", 4.0, "cold"),
    ("the same, empty cache, without the ahead-of-time kernels (MERGANSER_AOT=0; information)",
     "panda+box", "total_s", None, "cold-jit"),
    ("acrobot LQR (the README's first example), warm cache", "lqr", "total_s", 1.0, "warm"),
    ("acrobot LQR, empty numba and merganser caches", "lqr", "total_s", 4.0, "cold"),
)


def _script(codes, scene):
    head = f"PANDA = {str(PANDA)!r}\nERD = {str(ERD)!r}\nACROBOT = {str(ACROBOT)!r}\n"
    return _PROLOGUE + head + "".join(codes[c] for c in SCENES[scene]) + _EPILOGUE


def run_one(codes, scene, env=None):
    """The RESULT dict of one fresh process running `scene`, plus its wall time."""
    start = time.perf_counter()
    env = {k: v for k, v in (os.environ if env is None else env).items()
           if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.run([sys.executable, "-c", _script(codes, scene)], capture_output=True,
                          text=True, env=env, cwd=str(ROOT))
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"bench_startup: {scene} failed:\n{proc.stderr[-3000:]}")
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    out = json.loads(line[len("RESULT "):])
    out["process_s"] = wall
    out["compile_notice"] = "compiling dynamics kernels" in proc.stderr
    return out


def _have_drake():
    return subprocess.run([sys.executable, "-c", "import pydrake.all"],
                          capture_output=True).returncode == 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--cold", action="store_true", help="also with an empty numba cache")
    ap.add_argument("--cold-repeats", type=int, default=1)
    ap.add_argument("--no-jit-row", action="store_true",
                    help="with --cold: skip the empty-cache row without the ahead-of-time kernels")
    args = ap.parse_args(argv)
    drake = _have_drake()
    warm_dir = tempfile.mkdtemp(prefix="merganser-startup-warm-")
    warm_env = dict(os.environ, NUMBA_CACHE_DIR=warm_dir)
    print(f"bench_startup ({time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}); peer: {'pydrake' if drake else 'none (pydrake missing)'}")
    run_one(MERGANSER, "panda+box", warm_env)          # fills the warm cache, untimed
    samples = {}
    run_one(MERGANSER, "lqr", warm_env)
    for scene in ("import", "names", "panda", "panda+box", "lqr"):
        ours, peer = [], []
        for _ in range(args.repeats):
            ours.append(run_one(MERGANSER, scene, warm_env))
            if drake:
                peer.append(run_one(DRAKE, scene))
        samples[scene, "warm"] = (ours, peer)
    if args.cold:
        ours, ours_jit, peer = [], [], []
        for _ in range(args.cold_repeats):
            with tempfile.TemporaryDirectory(prefix="merganser-startup-cold-") as cold:
                ours.append(run_one(MERGANSER, "panda+box", dict(os.environ, NUMBA_CACHE_DIR=cold)))
            if drake:
                peer.append(run_one(DRAKE, "panda+box"))
            if not args.no_jit_row:
                with tempfile.TemporaryDirectory(prefix="merganser-startup-cold-") as cold:
                    ours_jit.append(run_one(MERGANSER, "panda+box", dict(
                        os.environ, NUMBA_CACHE_DIR=cold, MERGANSER_AOT="0")))
        samples["panda+box", "cold"] = (ours, peer)
        lqr_ours, lqr_peer = [], []
        for _ in range(args.cold_repeats):
            with tempfile.TemporaryDirectory(prefix="merganser-startup-cold-") as cold:
                lqr_ours.append(run_one(MERGANSER, "lqr", dict(
                    os.environ, NUMBA_CACHE_DIR=cold + "/numba",
                    MERGANSER_CACHE_DIR=cold + "/merganser")))
            if drake:
                lqr_peer.append(run_one(DRAKE, "lqr"))
        samples["lqr", "cold"] = (lqr_ours, lqr_peer)
        if ours_jit:
            samples["panda+box", "cold-jit"] = (ours_jit, peer)

    def med(runs, k):
        return statistics.median(s[k] for s in runs) if runs else float("nan")

    print("| what | merganser | pydrake | ratio | goal | peak RSS merganser / pydrake (MiB) |")
    print("|---|---|---|---|---|---|")
    for label, scene, key, goal, cache in ROWS:
        if (scene, cache) not in samples:
            continue
        ours, peer = samples[scene, cache]
        unit = "MiB" if key.endswith("mib") else "s"
        t, tp = med(ours, key), med(peer, key)
        ratio = t / tp if peer else float("nan")
        verdict = "" if goal is None else (f"<= {goal:g}x " + ("met" if ratio <= goal else "NOT met"))
        print(f"| {label} | {t:.2f} {unit} | {tp:.2f} {unit} | {ratio:.2f}x | {verdict} | "
              f"{med(ours, 'peak_rss_mib'):.0f} / {med(peer, 'peak_rss_mib'):.0f} |")
        if scene == "panda+box":
            print(f"|   (of which the box scene) | {med(ours, 'box_s'):.2f} s | "
                  f"{med(peer, 'box_s'):.2f} s | {med(ours, 'box_s') / med(peer, 'box_s'):.2f}x | | "
                  f"compile notice shown in {sum(o['compile_notice'] for o in ours)}/{len(ours)} |")
    print(f"medians of {args.repeats} (warm) / {args.cold_repeats} (empty cache) interleaved runs")


if __name__ == "__main__":
    main(sys.argv[1:])
