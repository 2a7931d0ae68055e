"""Threads on one shared plant: wall time of two simulations run one after the other
against the same two run at once on two threads (each thread its own Simulator and
Context of one diagram). The kernels release the GIL (``nogil=True``), so the threads
overlap while they are in compiled code; the ratio serial / threaded is the speed-up
(2 would be perfect on two free cores; the Python between kernels still holds the GIL).

Scenes: the 1 kg box resting on the ground (SAP, h = 1 ms, 1000 steps) and the Panda arm
of ``bench_panda_tracking`` without a controller (discrete SAP plant with its coupler
constraint, h = 1 ms, 1000 steps). Prints the median over repeats.

Run: ``.venv/bin/python benchmarks/bench_threads.py [--repeats 5]``.
"""

import argparse
import pathlib
import statistics
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "multibody" / "contact"))
sys.path.insert(0, str(ROOT / "tests"))

from merganser.framework import Simulator  # noqa: E402
from scenes import BoxScene  # noqa: E402


def box_runner():
    scene = BoxScene("sap")
    diagram, plant, box = scene.diagram, scene.plant, scene.box

    def run():
        from merganser.geometry import RigidTransform
        sim = Simulator(diagram)
        ctx = plant.get_my_context_from_root(sim.get_mutable_context())
        plant.set_free_body_pose(ctx, box, RigidTransform([0.0, 0.0, 0.05]))
        sim.advance_to(1.0)
    return run


def panda_runner():
    from robot_models import actuated_panda
    try:
        plant = actuated_panda(time_step=1e-3)
    except TypeError:
        return None

    def run():
        sim = Simulator(plant)
        sim.advance_to(1.0)
    return run


def measure(run, repeats):
    run()                                          # compile / warm up
    serial, threaded = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        run()
        run()
        serial.append(time.perf_counter() - t0)
        threads = [threading.Thread(target=run) for _ in range(2)]
        t0 = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        threaded.append(time.perf_counter() - t0)
    return statistics.median(serial), statistics.median(threaded)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    for name, make in (("box on ground, SAP", box_runner), ("Panda, discrete SAP", panda_runner)):
        run = make()
        if run is None:
            print(f"{name}: skipped")
            continue
        s, t = measure(run, args.repeats)
        print(f"{name}: two runs serial {1e3 * s:7.1f} ms, on two threads {1e3 * t:7.1f} ms, "
              f"speed-up {s / t:4.2f}x")


if __name__ == "__main__":
    main()
