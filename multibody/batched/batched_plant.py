"""BatchedPlant: N copies of one MultibodyPlant stepped together in one compiled kernel.

For reinforcement learning and other many-rollout workloads: every environment (env) has
its own state x = [q; v], actuation u and body inertial parameters; the model (joints,
frames, joint damping, gravity) is shared. `BatchedPlant.step` advances all N envs by
``num_steps`` steps in compiled code, chunks of envs on every core
(`multibody.batched.batched_step.step_envs` run by `multibody.batched.env_pool`; the
kernel releases the GIL and the result does not depend on the number of threads).

Integration schemes (h = time_step): ``"semi_explicit_euler"``, the discrete plant's own
step reproduced operation for operation (the default for a discrete plant), and the
fixed-step explicit Runge-Kutta schemes ``"explicit_euler"``, ``"runge_kutta2"``,
``"runge_kutta3"`` (the framework's tableaux and arithmetic) and ``"runge_kutta4"`` (the
default for a continuous plant). After every step each quaternion is re-normalized.

Actuation is the ``u`` given to `BatchedPlant.step`, plus, once
`BatchedPlant.set_pd_gains` made the actuators PD-controlled (Drake's
``JointActuator.set_controller_gains``), ``Kp (q_d - q) - Kd (v - v_d)`` evaluated
explicitly at the start of every step (every stage of a Runge-Kutta step), so that a
whole rollout under PD control is one kernel call.

Contact: a discrete plant with collision geometry and a SAP-family discrete contact
approximation (``"sap"``, ``"similar"``, ``"lagged"``) steps every env with the plant's
own point-contact step (`multibody.batched.batched_contact`: the SceneGraph's broad and
narrow phase on the plant's geometries, the combined contact parameters and the SAP
solve, the same compiled functions the plant calls), so the N envs equal N plants stepped
one by one. Not modelled (the plant is rejected, or the feature ignored with a warning,
see `BatchedPlant`): hydroelastic contact, the TAMSI and LCP solvers, contact in a
continuous plant, constraints, force elements other than uniform gravity, reflected
inertia, effort limits, and the plant's applied-force input ports.
"""

from __future__ import annotations

import warnings

import numpy as np

from merganser.framework.compilation import get_num_threads
from merganser.multibody.batched.batched_contact import (
    CONTACT_CAPACITY_EXCEEDED, BatchedContactScene, step_envs_contact,
)
from merganser.multibody.batched.batched_step import (
    BATCHED_INTEGRATION_SCHEMES, runge_kutta_tableau, step_envs,
)
from merganser.multibody.batched.env_pool import run_chunks
from merganser.multibody.contact.errors import ContactSolverError
from merganser.multibody.plant.discrete_solvers import JointLimitsWarning
from merganser.multibody.plant.plant_core import get_plant_core
from merganser.multibody.plant.plant_parameters import body_parameters

__all__ = ["BatchedPlant", "BATCHED_INTEGRATION_SCHEMES"]


class BatchedPlant:
    """N environments of one finalized `MultibodyPlant`, stepped in one parallel kernel.

    Each env has its own state x = [q; v] (Drake's order, as the plant), actuation u and
    body inertial parameters (Drake's per-body ``[m, p_BoBcm_B, G_BBo_B]``, as in the
    plant's context); joints, frames, joint damping and gravity are the plant's.

    Parameters
    ----------
    plant : MultibodyPlant
        A finalized plant without constraints, force elements other than gravity (which
        must act on every body) and actuators' reflected inertia. With collision geometry
        a discrete plant must use point contact and a SAP-family approximation (see the
        module docstring; contact is then modelled), a continuous plant's geometry is
        ignored with a warning. Its input ports are not read: the actuation is `step`'s
        u (and the PD law of `set_pd_gains`).
    num_envs : int
        Number of environments N (>= 1).
    time_step : float, optional
        Step size h (s); defaults to the plant's time_step. Required (> 0) for a
        continuous plant.
    integration_scheme : str, optional
        One of `BATCHED_INTEGRATION_SCHEMES`; defaults to ``"semi_explicit_euler"`` (the
        discrete plant's step) for a discrete plant and ``"runge_kutta4"`` for a
        continuous one. With contact only ``"semi_explicit_euler"`` (the plant's
        discrete contact step) is accepted.

    Notes
    -----
    Every env starts in the plant's default state [q0; 0] (the plant's default positions
    when the BatchedPlant is made) with the default body parameters. Arrays passed in
    are copied; arrays returned are copies. A state that becomes NaN stays NaN in its own
    env only; nothing is checked per step. The discrete plant's step is reproduced
    operation for operation, so N serial simulations of a discrete plant give the same
    numbers (to rounding of the quaternion norm).

    Examples
    --------
    A policy evaluated outside the kernel, one step per call::

        envs = BatchedPlant(plant, 1000)
        envs.set_positions(q0 + 0.1 * rng.standard_normal((1000, plant.num_positions())))
        for _ in range(5000):
            x = envs.get_state()
            envs.step(policy(x))                      # u, shape (1000, nu)

    PD-controlled actuators tracking targets, 20 kernel steps per policy step::

        envs.set_pd_gains(kp, kd)                     # shape (nu,) or (1000, nu)
        envs.step(num_steps=20, desired_state=np.hstack([q_d, v_d]))   # (1000, 2 nu)
    """

    def __init__(self, plant, num_envs, *, time_step=None, integration_scheme=None):
        fn = "BatchedPlant"
        core, has_contact = _check_plant(plant)
        t = core.tables
        self._plant = plant
        self._tables = t
        self._n = _positive_int(fn, "num_envs", num_envs)
        self._h = _time_step(fn, plant, time_step)
        if integration_scheme is None:
            integration_scheme = "runge_kutta4" if plant.time_step() == 0.0 else \
                "semi_explicit_euler"
        if integration_scheme not in BATCHED_INTEGRATION_SCHEMES:
            raise ValueError(f"{fn}: integration_scheme {integration_scheme!r} is not one of "
                             f"{', '.join(BATCHED_INTEGRATION_SCHEMES)}")
        self._scheme = integration_scheme
        self._contact = None
        if has_contact and not core.has_collision and integration_scheme != "semi_explicit_euler":
            has_contact = False   # another scheme than the plant's: its own integration
            solver = core.contact_manager.stepper
            if solver.has_limits:
                names = ", ".join(repr(j.name()) for j in solver.limited_joints())
                warnings.warn(JointLimitsWarning(
                    f"{fn}: plant '{plant.get_name()}' has joint position limits ({names}), "
                    f"which its discrete step enforces (SAP limit constraints) and the "
                    f"{integration_scheme!r} scheme does not: the envs may pass through "
                    f"them"), stacklevel=2)
        if has_contact:
            if integration_scheme != "semi_explicit_euler":
                raise ValueError(f"{fn}: plant '{plant.get_name()}' has contact, which the "
                                 f"batched kernel steps with the plant's discrete contact "
                                 f"step; integration_scheme must be 'semi_explicit_euler', "
                                 f"got {integration_scheme!r}")
            self._contact = BatchedContactScene(plant, core)
            self._sizes = (t.nb, t.nv, self._contact.num_geometries, self._contact.max_pairs,
                           self._contact.max_rows, self._contact.constraint_rows)
        self._tab_a, self._tab_b = runge_kutta_tableau(integration_scheme)
        self._ip, self._fp = core.ip, core.fp        # the plant's packed model (shared)
        self._g = np.array(plant.gravity_field().gravity_vector(), dtype=float)
        self._actuators = np.zeros((2, t.nu), dtype=np.int64)    # [velocity; position] index
        self._actuators[0] = t.actuator_v
        self._pd_capable = np.ones(t.nu, dtype=bool)
        for a, index in enumerate(plant.get_joint_actuator_indices()):
            joint = plant.get_joint_actuator(index).joint()
            self._actuators[1, a] = joint.position_start()
            self._pd_capable[a] = joint.num_positions() == 1 and joint.num_velocities() == 1
        self._KP = self._KD = np.zeros((1, t.nu))
        self._XD0 = np.zeros((1, 2 * t.nu))
        self._use_pd = False
        self._damping = np.ascontiguousarray(t.damping, dtype=float)
        self._quat_starts = np.ascontiguousarray(t.quaternion_q_starts, dtype=np.int64)
        self._qdot_is_v = bool(t.velocity_equals_qdot)
        self._nq, self._nv, self._nu, self._nb = t.nq, t.nv, t.nu, t.nb
        self._x_default = np.zeros(t.nq + t.nv)
        self._x_default[:t.nq] = plant.get_default_positions()
        self._X = np.tile(self._x_default, (self._n, 1))
        self._U0 = np.zeros((self._n, t.nu))
        context = plant.create_default_context()
        self._P = np.zeros((self._n, t.nb, 10))       # body order; row 0 (world) unused
        for b in range(1, t.nb):
            self._P[:, b] = context.get_numeric_parameter(int(t.parameter_of_body[b]))
        self._I10 = np.zeros((self._n, t.nb, 10))     # node order, as the kernels read it
        for b in range(1, t.nb):
            self._update_I10(b)
        self._status = np.zeros((self._n, 2), dtype=np.int64)
        self._t0 = 0.0
        self._num_steps = 0

    # ---- sizes -----------------------------------------------------------------------------
    def num_envs(self):
        """Number of environments N."""
        return self._n

    def num_positions(self):
        """nq."""
        return self._nq

    def num_velocities(self):
        """nv."""
        return self._nv

    def num_actuators(self):
        """nu (columns of `step`'s u)."""
        return self._nu

    def time_step(self):
        """Step size h (s)."""
        return self._h

    def integration_scheme(self):
        """The scheme's name (see `BATCHED_INTEGRATION_SCHEMES`)."""
        return self._scheme

    def plant(self):
        """The MultibodyPlant this batch copies."""
        return self._plant

    def has_contact(self):
        """True when the kernel models contact (the plant's discrete contact step)."""
        return self._contact is not None

    def get_num_contacts(self):
        """Number of point contacts of each env in its last step, shape (N,) int (zeros
        without contact)."""
        if self._contact is None:
            return np.zeros(self._n, dtype=np.int64)
        return self._status[:, 0].copy()

    def get_time(self):
        """Time (s) of every env: h times the number of steps taken since construction or
        the last `set_time`."""
        return self._t0 + self._num_steps * self._h

    def set_time(self, time):
        """Set the time (s) reported by `get_time` (the dynamics do not depend on it)."""
        self._t0 = float(time)
        self._num_steps = 0

    # ---- stepping --------------------------------------------------------------------------
    def step(self, u=None, num_steps=1, desired_state=None):
        """Advance every env by `num_steps` steps of size h, holding u (and the desired
        state of the PD-controlled actuators).

        Parameters
        ----------
        u : array_like, shape (N, nu) or (nu,), optional
            Feedforward actuation per env (a (nu,) vector applies to all); zero when
            omitted.
        num_steps : int
            Number of steps (>= 0).
        desired_state : array_like, shape (N, 2 nu) or (2 nu,), optional
            ``[q_d; v_d]`` per actuator (actuator order), required when PD gains are set
            (`set_pd_gains`); the actuation is then u + Kp (q_d - q) - Kd (v - v_d),
            evaluated at the start of every step (at every stage of a Runge-Kutta step).
        """
        fn = "BatchedPlant.step"
        U = self._U0 if u is None else self._rows(fn, "u", u, self._nu, "nu")
        if (type(num_steps) is not int and (isinstance(num_steps, bool) or not isinstance(
                num_steps, (int, np.integer)))) or num_steps < 0:
            raise ValueError(f"{fn}: num_steps must be an integer >= 0, got {num_steps!r}")
        num_steps = int(num_steps)
        if self._use_pd:
            if desired_state is None:
                raise ValueError(f"{fn}: PD gains are set, so desired_state ([q_d; v_d] per "
                                 f"actuator) is required")
            XD = self._rows(fn, "desired_state", desired_state, 2 * self._nu, "2 nu")
        elif desired_state is not None:
            raise ValueError(f"{fn}: desired_state given but no PD gains are set; call "
                             f"set_pd_gains(kp, kd) first")
        else:
            XD = self._XD0
        args = (self._ip, self._fp, self._X, U, self._I10, self._g, self._h, num_steps,
                self._actuators, self._damping, self._quat_starts, self._qdot_is_v)
        if self._contact is None:
            args += (self._tab_a, self._tab_b, self._KP, self._KD, XD, self._use_pd)
            run_chunks(lambda lo, hi: step_envs(lo, hi, *args), self._n, get_num_threads())
            self._num_steps += num_steps
            return
        c = self._contact
        args += (self._KP, self._KD, XD, self._use_pd, c.scene, c.solver, self._sizes,
                 self._status)
        run_chunks(lambda lo, hi: step_envs_contact(lo, hi, *args), self._n,
                   get_num_threads())
        self._num_steps += num_steps
        failed = np.flatnonzero(self._status[:, 1] < 0)
        if failed.size:
            self._raise_contact_failure(failed, num_steps)
    # ---- PD-controlled actuators --------------------------------------------------------------
    def set_pd_gains(self, kp, kd):
        """Make every actuator PD-controlled with gains `kp`, `kd` (Drake's
        ``JointActuator.set_controller_gains``, evaluated explicitly here).

        Parameters
        ----------
        kp, kd : float or array_like, shape (nu,) or (N, nu)
            Proportional (N m / rad or N / m) and derivative gains per actuator, shared
            or per env; >= 0.

        Notes
        -----
        Each actuator's joint must have one position and one velocity. The actuation is
        not clamped to the effort limits (as the plant's actuation input).
        """
        fn = "BatchedPlant.set_pd_gains"
        if not np.all(self._pd_capable):
            a = int(np.flatnonzero(~self._pd_capable)[0])
            index = self._plant.get_joint_actuator_indices()[a]
            raise ValueError(f"{fn}: actuator {self._plant.get_joint_actuator(index).name()!r} "
                             f"drives a joint with more than one degree of freedom; PD "
                             f"control needs single-dof joints")
        gains = []
        for arg, value in (("kp", kp), ("kd", kd)):
            a = np.asarray(value, dtype=float)
            if a.ndim == 0:
                a = np.full(self._nu, float(a))
            n = 1 if a.ndim == 1 else self._n
            g = self._rows(fn, arg, a.reshape(1, -1) if a.ndim == 1 else a, self._nu, "nu", n)
            if not np.all(np.isfinite(g)) or np.any(g < 0.0):
                raise ValueError(f"{fn}: {arg} must be finite and >= 0")
            gains.append(g.copy())          # (g may be the caller's array)
        self._KP, self._KD = gains
        self._use_pd = True

    def clear_pd_gains(self):
        """Remove the PD control set by `set_pd_gains` (u alone drives the actuators)."""
        self._KP = self._KD = np.zeros((1, self._nu))
        self._use_pd = False

    def has_pd_gains(self):
        """True when the actuators are PD-controlled (see `set_pd_gains`)."""
        return self._use_pd

    # ---- state -------------------------------------------------------------------------------
    def get_state(self, out=None):
        """States x = [q; v] of all envs, shape (N, nq + nv): a copy, or written into
        `out` (a float64 array of that shape, reused across calls) and returned."""
        return self._copy_out("BatchedPlant.get_state", self._X, out)

    def get_positions(self, out=None):
        """q of all envs, shape (N, nq) (a copy, or into `out` as `get_state`)."""
        return self._copy_out("BatchedPlant.get_positions", self._X[:, :self._nq], out)

    def get_velocities(self, out=None):
        """v of all envs, shape (N, nv) (a copy, or into `out` as `get_state`)."""
        return self._copy_out("BatchedPlant.get_velocities", self._X[:, self._nq:], out)

    @staticmethod
    def _copy_out(fn, block, out):
        if out is None:
            return block.copy()
        if not (isinstance(out, np.ndarray) and out.dtype == np.float64
                and out.shape == block.shape):
            raise ValueError(f"{fn}: out must be a float64 array of shape {block.shape}, got "
                             f"{getattr(out, 'dtype', type(out).__name__)} "
                             f"{getattr(out, 'shape', '')}")
        np.copyto(out, block)
        return out

    def set_state(self, x, envs=None):
        """Set x = [q; v] of the envs `envs` (all by default).

        Parameters
        ----------
        x : array_like, shape (len(envs), nq + nv) or (nq + nv,)
            A (nq + nv,) vector is given to every selected env.
        envs : array_like of int or bool mask, optional
        """
        self._set_columns("BatchedPlant.set_state", "x", x, slice(None), self._nq + self._nv,
                          "nq + nv", envs)

    def set_positions(self, q, envs=None):
        """Set q, shape (len(envs), nq) or (nq,), of the envs `envs` (all by default)."""
        self._set_columns("BatchedPlant.set_positions", "q", q, slice(0, self._nq), self._nq,
                          "nq", envs)

    def set_velocities(self, v, envs=None):
        """Set v, shape (len(envs), nv) or (nv,), of the envs `envs` (all by default)."""
        self._set_columns("BatchedPlant.set_velocities", "v", v, slice(self._nq, None),
                          self._nv, "nv", envs)

    def set_default_state(self, envs=None):
        """Reset the envs `envs` (all by default) to the plant's default [q0; 0]."""
        self.set_state(self._x_default, envs)

    def set_state_and_parameters_from_context(self, context, envs=None):
        """Copy x and the body parameters of a plant `context` into the envs `envs`."""
        fn = "BatchedPlant.set_state_and_parameters_from_context"
        plant = self._plant
        try:
            ctx = plant.get_my_context_from_root(context)
        except Exception as exc:
            raise ValueError(f"{fn}: context is not a context of the plant or of a diagram "
                             f"containing it ({exc})") from None
        self.set_state(plant.get_positions_and_velocities(ctx), envs)
        rows = self._env_rows(fn, envs)
        for b in range(1, self._nb):
            self._P[rows, b] = ctx.get_numeric_parameter(int(self._tables.parameter_of_body[b]))
            self._update_I10(b)

    # ---- body parameters -----------------------------------------------------------------------
    def get_body_parameters(self, body):
        """Parameters ``[m, p_BoBcm_B, G_BBo_B (xx yy zz xy xz yz)]`` of `body` per env,
        shape (N, 10) (a copy)."""
        return self._P[:, self._body_index("BatchedPlant.get_body_parameters", body)].copy()

    def set_body_parameters(self, body, parameters, envs=None):
        """Set `body`'s parameters ``[m, p_BoBcm_B, G_BBo_B]``, shape (len(envs), 10) or
        (10,), in the envs `envs` (all by default)."""
        fn = "BatchedPlant.set_body_parameters"
        b = self._body_index(fn, body)
        rows = self._env_rows(fn, envs)
        P = self._rows(fn, "parameters", parameters, 10, "10", len(self._P[rows]))
        if not np.all(np.isfinite(P)) or np.any(P[:, 0] < 0.0):
            raise ValueError(f"{fn}: parameters of body {body.name()!r} must be finite with "
                             f"mass >= 0")
        self._P[rows, b] = P
        self._update_I10(b)

    def get_body_masses(self, body):
        """Mass of `body` in every env, shape (N,)."""
        return self.get_body_parameters(body)[:, 0]

    def set_body_masses(self, body, masses, envs=None):
        """Set `body`'s mass in the envs `envs` (all by default), keeping its center of
        mass and unit inertia, so the rotational inertia scales with the mass (as
        ``RigidBody.set_mass``).

        Parameters
        ----------
        body : RigidBody
        masses : float or array_like, shape (len(envs),)
        envs : array_like of int or bool mask, optional
        """
        fn = "BatchedPlant.set_body_masses"
        b = self._body_index(fn, body)
        rows = self._env_rows(fn, envs)
        n = len(self._P[rows])
        m = np.array(masses, dtype=float)
        if m.ndim == 0:
            m = np.full(n, float(m))
        if m.shape != (n,):
            raise ValueError(f"{fn}: masses has shape {m.shape}, expected ({n},) (one per "
                             f"selected env) or a scalar")
        if not np.all(np.isfinite(m)) or np.any(m < 0.0):
            raise ValueError(f"{fn}: masses of body {body.name()!r} must be finite and >= 0")
        self._P[rows, b, 0] = m
        self._update_I10(b)

    def set_body_spatial_inertias(self, body, M_BBo_B, envs=None):
        """Set `body`'s SpatialInertia M_BBo_B (about Bo, expressed in B) in the envs
        `envs` (all by default); `M_BBo_B` is one SpatialInertia or a list of them, one
        per selected env."""
        fn = "BatchedPlant.set_body_spatial_inertias"
        items = M_BBo_B if isinstance(M_BBo_B, (list, tuple)) else [M_BBo_B]
        try:
            P = np.array([body_parameters(M) for M in items])
        except AttributeError:
            raise TypeError(f"{fn}: M_BBo_B must be a SpatialInertia or a list of them, got "
                            f"{type(M_BBo_B).__name__}") from None
        self.set_body_parameters(body, P if len(items) > 1 else P[0], envs)

    # ---- helpers ---------------------------------------------------------------------------
    def _raise_contact_failure(self, failed, num_steps):
        e = int(failed[0])
        step, code = (int(x) for x in self._status[e])
        self._status[failed] = 0
        c = self._contact
        if code == CONTACT_CAPACITY_EXCEEDED:
            reason = "more contact points than the work arrays hold"
        else:
            reason = (f"the '{c.approximation}' solver did not converge (iteration limit "
                      f"{c.solver[4]})")
        raise ContactSolverError(
            f"BatchedPlant.step: in {failed.size} env(s) (first: env {e}, at step {step} of "
            f"{num_steps}, t = {self.get_time() - (num_steps - step + 1) * self._h:.6g} s) "
            f"{reason}; those envs hold the state before their failing step, the others "
            f"took all {num_steps} steps. Remedy: reduce the time step (now {self._h} s) or "
            f"soften the contacts (a larger penetration allowance or point_contact_stiffness)")

    def _update_I10(self, b):
        """I10 row of body b (node order) from its parameters: [m, m p, m G] (the plant's
        arithmetic)."""
        node = self._tables.node_of_body[b]
        P = self._P[:, b]
        self._I10[:, node, 0] = P[:, 0]
        self._I10[:, node, 1:] = P[:, 1:] * P[:, :1]

    def _body_index(self, fn, body):
        index = getattr(body, "index", None)
        if index is None or not callable(index):
            raise TypeError(f"{fn}: body must be a RigidBody of the plant, got "
                            f"{type(body).__name__}")
        b = int(index())
        if not 1 <= b < self._nb or self._plant.get_body(b) is not body:
            raise ValueError(f"{fn}: body {getattr(body, 'name', lambda: '?')()!r} is not a "
                             f"non-world body of this plant")
        return b

    def _env_rows(self, fn, envs):
        if envs is None:
            return slice(None)
        idx = np.asarray(envs)
        if idx.dtype == bool:
            if idx.shape != (self._n,):
                raise ValueError(f"{fn}: envs mask has shape {idx.shape}, expected "
                                 f"({self._n},)")
            return np.flatnonzero(idx)
        if idx.dtype.kind not in "iu" or idx.ndim > 1:
            raise TypeError(f"{fn}: envs must be integer indices or a boolean mask, got "
                            f"{idx.dtype} array of shape {idx.shape}")
        idx = idx.reshape(-1)
        if idx.size and (idx.min() < -self._n or idx.max() >= self._n):
            raise ValueError(f"{fn}: envs has indices outside 0..{self._n - 1}")
        return idx

    def _rows(self, fn, arg, value, width, name, n=None):
        """`value` as a C-contiguous float array (n, width); a (width,) vector is tiled."""
        n = self._n if n is None else n
        if (type(value) is np.ndarray and value.dtype == np.float64
                and value.shape == (n, width) and value.flags.c_contiguous):
            return value                 # read during the call only: no copy needed
        try:
            a = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{fn}: {arg} must be an array of numbers, got "
                            f"{type(value).__name__}") from None
        if a.shape == (width,):
            a = np.broadcast_to(a, (n, width))
        if a.shape != (n, width):
            raise ValueError(f"{fn}: {arg} has shape {a.shape}, expected ({n}, {name} = "
                             f"{width}) or ({width},)")
        return np.ascontiguousarray(a)

    def _set_columns(self, fn, arg, value, columns, width, name, envs):
        rows = self._env_rows(fn, envs)
        n = len(self._X[rows])
        values = self._rows(fn, arg, value, width, name, n)
        if not np.all(np.isfinite(values)):
            raise ValueError(f"{fn}: {arg} must be finite")
        block = self._X[rows]
        block[:, columns] = values
        self._X[rows] = block

    def __repr__(self):
        return (f"<BatchedPlant of '{self._plant.get_name()}': {self._n} envs, nq={self._nq}, "
                f"nv={self._nv}, nu={self._nu}, h={self._h}, {self._scheme}>")


def _positive_int(fn, arg, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{fn}: {arg} must be an integer >= 1, got {value!r}")
    return int(value)


def _time_step(fn, plant, time_step):
    h = plant.time_step() if time_step is None else time_step
    try:
        h = float(h)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: time_step must be a number, got {type(time_step).__name__}") \
            from None
    if not (np.isfinite(h) and h > 0.0):
        if time_step is None:
            raise ValueError(f"{fn}: the plant is continuous (time_step 0); give time_step > 0")
        raise ValueError(f"{fn}: time_step must be finite and > 0, got {time_step!r}")
    return h


def _check_plant(plant):
    """(the plant's core, whether the batched contact step is the plant's step: collision
    geometry, or a discrete SAP-family step with joint limits or damping), after checking
    that the batch kernel models the plant exactly."""
    fn = "BatchedPlant"
    if not hasattr(plant, "is_finalized"):
        raise TypeError(f"{fn}: plant must be a MultibodyPlant, got {type(plant).__name__}")
    if not plant.is_finalized():
        raise ValueError(f"{fn}: plant must be finalized; call plant.finalize() first")
    try:
        core = get_plant_core(plant)
    except TypeError:
        raise TypeError(f"{fn}: plant must be a MultibodyPlant, got "
                        f"{type(plant).__name__}") from None
    t = core.tables
    unsupported = []
    if t.has_force_elements:
        unsupported.append("force elements other than gravity")
    if not t.gravity_in_kernel:
        unsupported.append("gravity disabled for some model instance")
    if t.has_reflected_inertia:
        unsupported.append("reflected inertia (actuators) or joint armature")
    if plant.num_constraints():
        unsupported.append("constraints")
    if core.added_mass is not None:
        unsupported.append("added-mass spatial inertias")
    if core.pd_control.num_controlled:
        unsupported.append("PD-controlled actuators (set_controller_gains; the batched "
                           "kernel's PD is BatchedPlant.set_pd_gains)")
    if unsupported:
        raise ValueError(f"{fn}: plant '{plant.get_name()}' has {', '.join(unsupported)}; "
                         f"the batched kernel models rigid bodies, joints, joint damping, "
                         f"actuation and uniform gravity only")
    if not core.has_collision:
        # the plant's step is its solver's (joint limits, implicit damping): the
        # batched contact step, on no geometry, when the scheme is the plant's
        solver = core.contact_manager.stepper       # None: a continuous plant
        return core, (solver is not None and core.stepper is solver
                      and solver.implicit_damping)          # (the SAP family)
    if plant.time_step() == 0.0:
        warnings.warn(f"{fn}: plant '{plant.get_name()}' is continuous and has collision "
                      f"geometry; contact is modelled for discrete plants only (the plant's "
                      f"discrete contact step) and is ignored here", stacklevel=3)
        return core, False
    return core, True
