"""Compile time per kernel with an empty numba cache: the top 20.

Runs the warmup scenes (``merganser warmup``'s groups, default all) in a fresh process
whose ``NUMBA_CACHE_DIR`` is a new temporary folder, so that every kernel compiles, and
prints the kernels that took longest (seconds spent compiling each, excluding the kernels
it compiled on the way; signatures compiled), the total per group and overall.

With ``--startup`` it runs instead the scene of the start-up benchmark's empty-cache row
(``bench_startup.py``: Panda, then a box under SAP), so the list is what a first program
compiles.

Run: ``.venv/bin/python benchmarks/compile_times.py [--group NAME ... | --startup] [--top N]``.
``MERGANSER_INLINE_THRESHOLD=250`` in the environment measures LLVM's default inlining.
With the install's ahead-of-time kernels only what they do not cover compiles (the kernels
called from Python run from the extension); ``MERGANSER_AOT=0`` measures everything.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

#: Both children end with this: the statistics, and the signatures of the kernels
#: compiled more than once.
_REPORT = """
from merganser.framework.compilation import compile_statistics, registered_kernels
stats = compile_statistics()
kernels = registered_kernels()
multi = {name: [str(sig) for sig in kernels[name].signatures]
         for name, (count, _, _) in stats.items() if count > 1}
print(json.dumps({"groups": per_group, "kernels": stats, "signatures": multi}))
"""

_CHILD = """
import json, sys, time
from merganser.cli.warmup_command import WARMUP_GROUPS
groups = json.loads(sys.argv[1])
per_group = {}
for name, _, fn in WARMUP_GROUPS:
    if not groups or name in groups:
        t0 = time.perf_counter()
        fn()
        per_group[name] = time.perf_counter() - t0
""" + _REPORT


def _startup_child():
    """The child program running bench_startup's panda+box scene, timing its two parts."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench_startup

    script = bench_startup._script(bench_startup.MERGANSER, "panda+box")
    script = script.replace('print("RESULT " + json.dumps(out))', "")
    return script + ('per_group = {"panda": out["panda_s"] - out["import_s"], '
                     '"box": out["box_s"]}\n') + _REPORT


def measure(groups=(), env=None, startup=False):
    """{"groups": {name: s}, "kernels": {name: (signatures, s, hits)}} of a cold run."""
    code = _startup_child() if startup else _CHILD
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory(prefix="merganser-numba-") as cache:
        child_env = dict(os.environ if env is None else env, NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", code, json.dumps(list(groups))],
                             env=child_env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"compile_times: the child failed:\n{out.stderr[-3000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    # CPU seconds: on a shared machine the wall-clock figures grow with the load.
    result["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--group", action="append", default=[], help="warmup group (repeatable)")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--startup", action="store_true",
                    help="the scene of bench_startup's empty-cache row instead of the groups")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    result = measure(args.group, startup=args.startup)
    wall = time.perf_counter() - start
    kernels = sorted(result["kernels"].items(), key=lambda kv: -kv[1][1])
    print(f"compile times with an empty cache ({time.strftime('%Y-%m-%d')}, "
          f"inline threshold {os.environ.get('MERGANSER_INLINE_THRESHOLD', 'default 10000')})")
    print(f"{'kernel':70s} {'sigs':>4s} {'s':>7s}")
    for name, (sigs, seconds, _) in kernels[:args.top]:
        print(f"{name.removeprefix('merganser.'):70s} {sigs:4d} {seconds:7.2f}")
    multi = [(n, s) for n, (s, _, _) in kernels if s > 1]
    print(f"\nkernels with more than one signature: {len(multi)}"
          + (": " + ", ".join(f"{n.rsplit('.', 1)[-1]} ({s})" for n, s in multi) if multi else ""))
    for name, sigs in result["signatures"].items():
        print(f"  {name.removeprefix('merganser.')}:")
        for sig in sigs:
            print(f"      {sig}")
    print("per group (s): " + ", ".join(f"{g} {s:.1f}" for g, s in result["groups"].items()))
    total = sum(s for _, (_, s, _) in kernels)
    print(f"total compile {total:.1f} s over {len(kernels)} kernels; process wall {wall:.1f} s, "
          f"CPU {result['cpu_s']:.1f} s (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main(sys.argv[1:])
