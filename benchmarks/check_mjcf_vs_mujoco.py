"""Local check (run by hand): MJCF models loaded by merganser vs MuJoCo.

For each file given on the command line: nq, nv, then the mass matrix M and the bias
(Coriolis + gravity; MuJoCo's ``qfrc_bias``) at random states, mapped between the two
conventions (MuJoCo's free joint q = [p; quat], v = [v_W; w_B]; its ball joint
v = w_B; merganser: q = [quat; p], v = [w_W; v_W] and w_F). Prints one line per model
and the count of models that load and match to `--tol` (relative, default 1e-6).

    python benchmarks/check_mjcf_vs_mujoco.py path/to/*.xml
"""

from __future__ import annotations

import argparse
import traceback
import warnings

import numpy as np


def _rotation(quat):
    import mujoco

    R = np.zeros(9)
    mujoco.mju_quat2Mat(R, np.asarray(quat, dtype=float))
    return R.reshape(3, 3)


def compare(path, tol, num_states, rng):
    import mujoco

    from merganser.multibody.parsing import Parser, ParseWarning
    from merganser.multibody.plant import MultibodyPlant

    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    plant = MultibodyPlant(0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParseWarning)
        [mi] = Parser(plant).add_models(path)
    plant.finalize()
    if (plant.num_velocities() != m.nv) or (plant.num_positions() != m.nq):
        return False, f"nq/nv {plant.num_positions()}/{plant.num_velocities()} vs {m.nq}/{m.nv}"
    ctx = plant.create_default_context()
    # Map each MuJoCo joint to ours (by body name and index among the body's joints).
    joints = []
    named = {mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b) for b in range(m.nbody)}
    plant.finalize() if not plant.is_finalized() else None
    unnamed_free = iter([plant.get_body(b) for b in plant.get_body_indices(mi)
                         if plant.get_body(b).is_floating()
                         and plant.get_body(b).name() not in named])
    # Our bodies in creation order without the massless ones that chain several joints of
    # one body (named <body><k>): the same depth-first order as MuJoCo's body ids.
    real, last = [], None
    for index in plant.get_body_indices(mi):
        name = plant.get_body(index).name()
        if last is not None and name.startswith(last) and name[len(last):].isdigit():
            continue
        real.append(name)
        last = name
    for j in range(m.njnt):
        b = m.jnt_bodyid[j]
        bname = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b) or (
            real[b - 1] if b - 1 < len(real) else None)
        kind = m.jnt_type[j]
        if kind == mujoco.mjtJoint.mjJNT_FREE:
            body = (plant.get_body_by_name(bname, mi) if bname else next(unnamed_free))
            if body.is_floating_base_body():
                joints.append((j, kind, body.floating_positions_start(),
                               body.floating_velocities_start()))
            else:       # an explicit floating joint (armature or damping on it)
                jt = [plant.get_joint(k) for k in plant.get_joint_indices(mi)
                      if plant.get_joint(k).child_body() is body][0]
                joints.append((j, kind, jt.position_start(), jt.velocity_start()))
            continue
        mine = [k for k in range(m.njnt) if m.jnt_bodyid[k] == b]
        idx, n = mine.index(j), len(mine)
        child = bname if idx == n - 1 else f"{bname}{idx}"
        jt = [jt for jt in (plant.get_joint(plant_j) for plant_j in plant.get_joint_indices(mi))
              if jt.child_body().name() == child and jt.num_velocities() > 0][0]
        joints.append((j, kind, jt.position_start(), jt.velocity_start()))
    worst = worst_offdiag = 0.0
    for _ in range(num_states):
        qpos = m.qpos0.copy()
        qvel = rng.standard_normal(m.nv)
        q = np.zeros(m.nq)
        T = np.zeros((m.nv, m.nv))
        for j, kind, qs, vs in joints:
            qa, va = m.jnt_qposadr[j], m.jnt_dofadr[j]
            if kind == mujoco.mjtJoint.mjJNT_FREE:
                quat = rng.standard_normal(4)
                quat /= np.linalg.norm(quat)
                pos = rng.standard_normal(3)
                qpos[qa:qa + 3], qpos[qa + 3:qa + 7] = pos, quat
                q[qs:qs + 4], q[qs + 4:qs + 7] = quat, pos
                R = _rotation(quat)
                T[va:va + 3, vs + 3:vs + 6] = np.eye(3)   # v_W
                T[va + 3:va + 6, vs:vs + 3] = R.T         # w_B = R^T w_W
            elif kind == mujoco.mjtJoint.mjJNT_BALL:
                quat = rng.standard_normal(4)
                quat /= np.linalg.norm(quat)
                qpos[qa:qa + 4] = quat
                q[qs:qs + 4] = quat
                T[va:va + 3, vs:vs + 3] = _rotation(quat).T
            else:
                x = m.qpos0[qa] + rng.uniform(-1.0, 1.0)
                qpos[qa] = x
                q[qs] = x
                T[va, vs] = 1.0
        d.qpos[:], d.qvel[:] = qpos, qvel
        mujoco.mj_forward(m, d)
        M_mj = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, M_mj)
        v = np.linalg.solve(T, qvel)
        plant.set_positions(ctx, q)
        plant.set_velocities(ctx, v)
        M = plant.calc_mass_matrix(ctx)
        bias = plant.calc_bias_term(ctx) - plant.calc_gravity_generalized_forces(ctx)
        M_ref, b_ref = T.T @ M_mj @ T, T.T @ d.qfrc_bias
        if m.nv == 0:
            break
        eM = np.abs(M - M_ref).max() / max(1.0, np.abs(M_ref).max())
        eb = np.abs(bias - b_ref).max() / max(1.0, np.abs(b_ref).max())
        worst = max(worst, eM, eb)
        off = np.abs(M - M_ref - np.diag(np.diag(M - M_ref))).max()
        worst_offdiag = max(worst_offdiag, off / max(1.0, np.abs(M_ref).max()), eb)
    msg = f"nq {m.nq} nv {m.nv} max rel err {worst:.2e}"
    if worst > tol and worst_offdiag < worst:    # e.g. armature: only diag(M) differs
        msg += f" ({worst_offdiag:.2e} off the diagonal of M)"
    return worst <= tol, msg


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument("--states", type=int, default=3)
    ap.add_argument("--verbose", action="store_true", help="print tracebacks")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    counts = {"mujoco fails": 0, "merganser fails": 0, "match": 0, "differ": 0}
    for path in args.files:
        try:
            import mujoco

            mujoco.MjModel.from_xml_path(path)
        except Exception as err:  # the reference cannot load it: not counted
            counts["mujoco fails"] += 1
            print(f"SKIP    {path}: MuJoCo: {str(err).splitlines()[0][:100]}")
            continue
        try:
            ok, msg = compare(path, args.tol, args.states, rng)
        except Exception as err:
            counts["merganser fails"] += 1
            print(f"FAIL    {path}: {type(err).__name__}: {str(err).splitlines()[0][:160]}")
            if args.verbose:
                traceback.print_exc()
            continue
        counts["match" if ok else "differ"] += 1
        print(f"{'OK' if ok else 'DIFFER':7} {path}: {msg}")
    print(counts)


if __name__ == "__main__":
    main()
