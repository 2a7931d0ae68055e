"""Local check (run by hand): URDF/SDFormat models loaded by merganser vs pydrake.

Both load each file without a SceneGraph (dynamics only); the coordinates are matched
by their names (``get_position_names``); M, the bias term C(q, v) v and the gravity
forces are compared at random states. Prints a line per file and the counts.

    python benchmarks/check_urdf_vs_drake.py --package example-robot-data=PATH file ...
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np


def _drake(path, packages):
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import MultibodyPlant

    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    for name, folder in packages.items():
        parser.package_map().Add(name, folder)
    parser.AddModels(path)
    plant.Finalize()
    return plant


def _ours(path, packages):
    from merganser.multibody.parsing import Parser, ParseWarning
    from merganser.multibody.plant import MultibodyPlant

    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    for name, folder in packages.items():
        parser.package_map().add(name, folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        parser.add_models(path)
        plant.finalize()
    return plant


def compare(path, packages, rng, states, tol):
    d = _drake(path, packages)
    m = _ours(path, packages)
    if (d.num_positions(), d.num_velocities()) != (m.num_positions(), m.num_velocities()):
        return False, (f"nq/nv {m.num_positions()}/{m.num_velocities()} vs Drake "
                       f"{d.num_positions()}/{d.num_velocities()}")
    dq = {n: i for i, n in enumerate(d.GetPositionNames(add_model_instance_prefix=False))}
    dv = {n: i for i, n in enumerate(d.GetVelocityNames(add_model_instance_prefix=False))}
    mq = m.get_position_names(add_model_instance_prefix=False)
    mv = m.get_velocity_names(add_model_instance_prefix=False)
    try:
        Pq = np.array([dq[n] for n in mq])
        Pv = np.array([dv[n] for n in mv])
    except KeyError as err:
        return False, f"coordinate {err} has no Drake counterpart"
    dc, mc = d.CreateDefaultContext(), m.create_default_context()
    worst = 0.0
    for _ in range(states):
        q = d.GetPositions(dc).copy()
        q += 0.5 * rng.standard_normal(q.size)
        d.SetPositions(dc, q)
        d.SetVelocities(dc, rng.standard_normal(d.num_velocities()))
        q = d.GetPositions(dc)
        v = d.GetVelocities(dc)
        m.set_positions(mc, q[Pq])
        m.set_velocities(mc, v[Pv])
        M_d = d.CalcMassMatrix(dc)[np.ix_(Pv, Pv)]
        for ours, ref in ((m.calc_mass_matrix(mc), M_d),
                          (m.calc_bias_term(mc), d.CalcBiasTerm(dc)[Pv]),
                          (m.calc_gravity_generalized_forces(mc),
                           d.CalcGravityGeneralizedForces(dc)[Pv])):
            worst = max(worst, np.abs(ours - ref).max() / max(1.0, np.abs(ref).max()))
    return worst <= tol, f"nq {m.num_positions()} nv {m.num_velocities()} max rel err {worst:.2e}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--package", action="append", default=[], help="name=folder")
    ap.add_argument("--tol", type=float, default=1e-9)
    ap.add_argument("--states", type=int, default=3)
    args = ap.parse_args(argv)
    packages = dict(p.split("=", 1) for p in args.package)
    rng = np.random.default_rng(0)
    counts = {"drake fails": 0, "merganser fails": 0, "match": 0, "differ": 0}
    for path in args.files:
        try:
            _drake(path, packages)
        except Exception as err:
            counts["drake fails"] += 1
            print(f"SKIP    {path}: Drake: {str(err).splitlines()[0][:100]}")
            continue
        try:
            ok, msg = compare(path, packages, rng, args.states, args.tol)
        except Exception as err:
            counts["merganser fails"] += 1
            print(f"FAIL    {path}: {type(err).__name__}: {str(err).splitlines()[0][:160]}")
            continue
        counts["match" if ok else "differ"] += 1
        print(f"{'OK' if ok else 'DIFFER':7} {path}: {msg}")
    print(counts)


if __name__ == "__main__":
    main()
