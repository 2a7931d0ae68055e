"""A discrete plant's contact steps repeated in one compiled call, for the Simulator.

When a Simulator's step is the plant's periodic discrete update and nothing else (its
plain discrete loop: no other event, no continuous state, no monitor), it hands the plant
the updates due before the boundary time at once (the ``_repeat_discrete_update`` hook of
`framework.leaf_system.LeafSystem`). `PlantLoop.advance` takes them in `repeat_contact_steps`,
which runs, per update, `multibody.batched.batched_contact.contact_step`: the compiled
functions the plant's cached step calls (forward dynamics, poses, the SceneGraph's broad
and narrow phase, the combined contact parameters, M(q), the TAMSI or SAP-family solve,
the position update), in its order, so that every update gives the state the update event
gives, bit for bit.

It stops before a step, with the state as it was before that step, wherever the Python
step must run because it raises or warns: a solver that did not converge
(`ContactSolverError`), a state that is not finite (`NonFiniteStateError`), a contact
deeper than the plant's penetration check lets through without a look
(`ContactManager.penetration_check_depth`). It takes no step (the Simulator steps in
Python) unless the plant's step is exactly what the kernel computes:

- a TAMSI (without joint-limit penalties) or SAP-family stepper with point contact
  (``"point"``, or ``"hydroelastic_with_fallback"`` with no geometry given hydroelastic
  properties), constraints (SAP family) all active with their default parameters in the
  context, and the one-call
  forward dynamics of the plant (identity actuation, gravity in the kernels, no force
  element, reflected inertia or added mass; `PlantCore.one_call_forward_dynamics`);
- no input port of the plant connected or fixed but the geometry query, whose proximity
  geometries all belong to the plant's bodies or the world (`BatchedContactScene`); a
  plant never registered with a SceneGraph has no geometry and steps with an empty scene
  (its joint limits are still the solver's constraints);
- no roll-pitch-yaw joint (their checked position update raises at gimbal lock).
"""

from __future__ import annotations

import math

import numpy as np

from merganser.framework.compilation import kernel
from merganser.multibody.batched.batched_contact import (
    BatchedContactScene, contact_step, contact_work, empty_query,
)
from merganser.multibody.batched.batched_step import env_inputs, env_scratch, load_state, store_state
from merganser.multibody.contact.discrete_stepper import SapStepper, TamsiStepper

__all__ = ["PlantLoop", "checked_contact_step", "repeat_contact_steps"]


@kernel(allocates=True, inline=False)
def repeat_contact_steps(ip, fp, X, U, I10, g, h, num_steps, actuators, damping, quat_starts,
                         qdot_is_v, scene, solver, sizes, max_depth):
    """Up to `num_steps` steps of `contact_step` on the state X[0] = [q; v], in place.

    Arguments as `multibody.batched.batched_contact.step_envs_contact` (one env, no PD);
    `max_depth` is the deepest penetration a step may start from. Returns the number of
    steps taken: fewer when the next step's solve failed, its state was not finite or
    it started deeper than `max_depth` (X then holds the state before that step).
    """
    nx, nv = X.shape[1], damping.shape[0]
    nq = nx - nv
    nu = U.shape[1]
    nb, _, ng, max_pairs, max_rows, m = sizes
    scratch = env_scratch(ip.shape[0], nq, nv)
    work = contact_work(ip, nb, nv, ng, max_pairs, max_rows, m)
    gains = np.zeros((1, nu))
    model, drive = env_inputs(0, ip, fp, g, I10, U, actuators, damping, gains, gains,
                              np.zeros((1, 2 * nu)), False)
    q, v = np.empty(nq), np.empty(nv)
    for s in range(num_steps):
        load_state(X, 0, q, v)
        if not checked_contact_step(model, drive, scratch, scene, solver, work, q, v, h,
                                    qdot_is_v, quat_starts, max_depth):
            return s
        store_state(X, 0, q, v)
    return num_steps


@kernel(allocates=True, inline=False)
def checked_contact_step(model, drive, scratch, scene, solver, work, q, v, h, qdot_is_v,
                         quat_starts, max_depth):
    """`contact_step` in place on q, v (its arguments); False where the plant's Python
    step must run instead, because it raises or warns: the solve failed, the new state is
    not finite, or the step started deeper than `max_depth` (q, v are then undefined)."""
    nc = contact_step(model, drive, scratch, scene, solver, work, q, v, h, qdot_is_v,
                      quat_starts)
    if nc < 0:
        return False
    phi0 = work[10][0]
    for i in range(nc):
        if -phi0[i] > max_depth:
            return False
    for i in range(q.shape[0]):
        if not math.isfinite(q[i]):
            return False
    for i in range(v.shape[0]):
        if not math.isfinite(v[i]):
            return False
    return True


class PlantLoop:
    """The compiled repetition of one plant's discrete contact step (module docstring).

    Parameters
    ----------
    core : PlantCore
        The finalized discrete plant's core.

    Notes
    -----
    It keeps only a memo of the contact scene (immutable tables, keyed by the proximity
    tables of the query and the solver's settings); the work arrays live in the call.
    """

    def __init__(self, core):
        self.core = core
        t = core.tables
        plant = core.plant
        stepper = core.stepper
        self._static = bool(
            isinstance(stepper, (SapStepper, TamsiStepper)) and t.nv > 0
            and core.contact_manager.step_active and core.one_call_forward_dynamics
            and plant.get_contact_model() in ("point", "hydroelastic_with_fallback")
            and not stepper._checked_mapping
            and not stepper.has_penalty_limits)    # (TAMSI's limit penalty: Python)
        query_port = core.ports.geometry_query
        self._query_port = query_port
        self._other_inputs = [plant.get_input_port(i) for i in range(plant.num_input_ports())
                              if plant.get_input_port(i) is not query_port]
        self._actuators = np.zeros((2, t.nu), np.int64)
        self._actuators[0] = t.actuator_v
        self._U = np.zeros((1, 0))
        self._damping = np.ascontiguousarray(t.damping, dtype=float)
        self._quat_starts = np.ascontiguousarray(t.quaternion_q_starts,
                                                 dtype=np.int64).reshape(-1)
        self._memo = None       # (tables, solver settings, BatchedContactScene or None)

    def _scene(self, context):
        """The `BatchedContactScene` of the query `context` sees (a plant never registered
        with a SceneGraph: an empty one's), or None."""
        core = self.core
        if core.scene_graph is None:
            query = empty_query()
        else:
            query = core.ports.geometry_query.eval(context)
        if query is None:
            return None
        tables = query._proximity_tables()
        plant = core.plant
        stepper = core.stepper
        stepper.refresh_limits()
        settings = (plant.get_stiction_tolerance(), stepper.rel_tolerance,
                    stepper.abs_tolerance, stepper.max_iterations, stepper.limits_generation)
        memo = self._memo
        if memo is not None and memo[0] is tables and memo[1] == settings:
            return memo[2]
        try:
            scene = BatchedContactScene(plant, core, query, allow_tamsi=True)
        except ValueError:
            scene = None                 # (a geometry the kernel does not model)
        self._memo = (tables, settings, scene)
        return scene

    def advance(self, context, x, num_updates):
        """Take up to `num_updates` steps of the plant's own `context` in place on its
        discrete state `x` (nq + nv,); returns how many were taken (0: not applicable)."""
        if not (self._static and x.flags.c_contiguous and x.dtype == np.float64):
            return 0
        if self.core.scene_graph is not None and not self._query_port.has_value(context):
            return 0
        for port in self._other_inputs:
            if port.has_value(context):
                return 0
        core = self.core
        active = core.eval_active_constraints(context)
        if (active is not None and not active.all()) or \
                core.eval_distance_constraint_overrides(context):
            return 0          # the kernel takes the plant's constraints, all active, as made
        scene = self._scene(context)
        if scene is None:
            return 0
        core = self.core
        t = core.tables
        U = self._U
        if t.nu:          # the actuation input's default, as the plant's step reads it
            U = np.array(core.plant.get_actuation_input_port().eval(context),
                         dtype=float).reshape(1, t.nu)
        I10 = core.cache.inertia.eval(context).I10
        max_depth = core.contact_manager.penetration_check_depth(scene.tables.ids)
        sizes = (t.nb, t.nv, scene.num_geometries, scene.max_pairs, scene.max_rows,
                 scene.constraint_rows)
        return int(repeat_contact_steps(
            core.ip, core.fp, x.reshape(1, -1), U, I10.reshape((1,) + I10.shape),
            core.gravity, core.time_step, int(num_updates), self._actuators, self._damping,
            self._quat_starts, bool(t.velocity_equals_qdot), scene.scene, scene.solver, sizes,
            float(max_depth)))
