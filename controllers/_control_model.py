"""The multibody model a controller computes with (private).

A model-based controller owns a plant for control (often not the simulated one) and needs a
plant Context to evaluate it. As in Drake, that context is a cache entry of the controller's
own Context, one per controller context, updated from the controller's state input;
`PlantContextHolder` makes it survive ``Context.clone()`` (a deep copy) as a clone of the
plant context rather than a copy of the plant. A second cache entry holds the plant's own
forces (force elements, gravity and joint damping) at that state.

`ControlModel` computes, for x = [q; v] from the state input::

    inverse_dynamics(v̇)  = M(q) v̇ + C(q, v) v − τ_g(q) − τ_app(q, v)
    gravity_compensation = −τ_g(q)
    passive_compensation = −τ_g(q) − τ_app(q, v)        (= inverse_dynamics(0) − C v)

with τ_app the force elements other than gravity and the joint damping −D v.

Two paths give the same values (a test checks it):

- the public plant API, as Drake does it: the plant context from the cache entry,
  ``calc_force_elements_contribution`` into MultibodyForces, ``calc_inverse_dynamics``;
- for the common model whose only force element is gravity (applied in the kernels) and
  whose actuators have no reflected inertia: one call of the plant's compiled RNEA
  kernel with gravity, τ = RNEA(q, v, v̇, g) + D v, straight from the state input without
  writing a plant context. Inverse dynamics goes through the public
  ``MultibodyPlant.calc_generalized_forces_for_acceleration`` (the model's context
  supplies the inertial parameters); the gravity and passive compensations use the
  plant's core (`multibody.plant.plant_core.PlantCore`: its kernel facade and tables) —
  see `_KernelPath`.
  This cuts the cost of a controller evaluation about threefold (the plant API path
  writes a context on every call). A computed-torque controller (PID acceleration law then
  inverse dynamics) goes one step further with `ControlModel.computed_torque_into`: the
  gains, the RNEA passes and the damping term in one compiled call
  (`multibody.kernels.computed_torque`), same arithmetic in the same order.
"""

import numpy as np

from merganser.multibody import MultibodyForces, UniformGravityFieldElement
from merganser.multibody.plant.plant_core import get_plant_core
from merganser.multibody.kernels.computed_torque import calc_computed_torque


class PlantContextHolder:
    """A plant Context stored in a controller's cache entry.

    Attributes
    ----------
    context : Context
        A root context of the control plant.
    """

    __slots__ = ("context",)

    def __init__(self, context):
        self.context = context

    def __deepcopy__(self, memo):
        return PlantContextHolder(self.context.clone())


class _KernelPath:
    """τ from the plant's compiled kernels, without a plant context (see module docstring).

    Parameters
    ----------
    plant : MultibodyPlant
    template : Context
        The model's plant context; its inertial parameters are copied once.
    damping : ndarray, shape (nv,)
    """

    def __init__(self, plant, template, damping):
        core = self._core = get_plant_core(plant)
        self._I10 = np.array(core.eval_I10(template))
        self._g = np.array(plant.gravity_field().gravity_vector(), dtype=float)
        self._damping = damping
        self._has_damping = bool(np.any(damping))
        self._nq = plant.num_positions()
        # The fused computed-torque kernel has no added-mass (added mass) variant.
        self._fused = core.added_mass is None and self._nq == plant.num_velocities()
        self._F = np.zeros((plant.num_bodies(), 6))

    def computed_torque_into(self, x, x_d, kp, kd, ki, z, vd_ref, vd, tau):
        """`multibody.kernels.computed_torque` into ``vd`` and ``tau`` (n,); False when
        the model needs the general path (added mass, nq != nv) or an input has the wrong
        size (nothing is written then)."""
        if not self._fused:
            return False
        core = self._core
        return not calc_computed_torque(core.ip, core.fp, core.dyn.workspace, x, x_d, kp, kd, ki, z,
                                        vd_ref, self._damping, self._I10, self._g, self._F,
                                        vd, tau)

    @staticmethod
    def applies(plant, gravity_only):
        if not gravity_only:
            return False
        tables = get_plant_core(plant).tables
        return tables.gravity_in_kernel and not tables.has_reflected_inertia

    def _q_v(self, x):
        return np.ascontiguousarray(x[:self._nq]), np.ascontiguousarray(x[self._nq:])

    def gravity_compensation(self, x):
        q, _ = self._q_v(x)
        return -self._core.dyn.gravity_generalized_forces(q, self._I10, self._g)

    def passive_compensation(self, x):
        tau = self.gravity_compensation(x)
        if self._has_damping:
            tau += self._damping * x[self._nq:]
        return tau


class ControlModel:
    """A finalized plant used by a controller system, with its cache entries.

    Parameters
    ----------
    fn : str
        The constructing class, for error messages.
    system : LeafSystem
        The controller, on which the cache entries are declared (in its constructor).
    plant : MultibodyPlant
        Finalized (the caller checks it).
    state_port : InputPort
        The controller's input x = [q; v] (nq + nv,).
    plant_context : Context or None
        Parameters (and defaults) for the model; the plant's defaults when None.
    zero_velocities : bool
        Keep v = 0 in the plant context (gravity compensation uses q only).
    """

    def __init__(self, fn, system, plant, state_port, plant_context=None, zero_velocities=False):
        self.plant = plant
        self.nq, self.nv = plant.num_positions(), plant.num_velocities()
        if state_port.size() != self.nq + self.nv:
            raise ValueError(f"{fn}: the state input has size {state_port.size()}, expected "
                             f"nq + nv = {self.nq + self.nv}")
        self._state = state_port
        self._zero_velocities = zero_velocities
        template = plant.create_default_context()
        if plant_context is not None:
            if getattr(plant_context, "_system", None) is not plant:
                raise ValueError(
                    f"{fn}: plant_context is not a context of the given plant (create it with "
                    f"plant.create_default_context())")
            template.set_time_state_and_parameters_from(plant_context)
        self._template = template
        gravity_only = all(isinstance(plant.get_force_element(i), UniformGravityFieldElement)
                           for i in range(plant.num_force_elements()))
        damping = np.zeros(self.nv)
        for j in plant.get_joint_indices():
            joint = plant.get_joint(j)
            if joint.num_velocities():
                start = joint.velocity_start()
                damping[start:start + joint.num_velocities()] = joint.default_damping_vector()
        self._kernel = (_KernelPath(plant, template, damping)
                        if _KernelPath.applies(plant, gravity_only) else None)
        self._plant_context = system.declare_cache_entry(
            "plant_context", self._allocate_plant_context, self._calc_plant_context,
            [system.input_port_ticket(state_port)])
        self._forces = system.declare_cache_entry(
            "applied_forces", self._allocate_forces, self._calc_applied_forces,
            [self._plant_context.ticket()])

    def computed_torque_into(self, x, x_d, kp, kd, ki, z, vd_ref, vd, tau):
        """τ of a PID acceleration law and inverse dynamics in one compiled call (see
        `multibody.kernels.computed_torque`): writes ``vd`` and ``tau`` (n,) and returns
        True, or returns False (nothing written) when the model needs the general path.

        ``x``, ``x_d`` (2n,) are the estimated and desired states, ``ki`` and ``z`` the
        integral gains and state (both empty without an integral), ``vd_ref`` the
        reference acceleration (empty without one).
        """
        if self._kernel is None:
            return False
        return self._kernel.computed_torque_into(x, x_d, kp, kd, ki, z, vd_ref, vd, tau)

    def uses_kernel_path(self):
        """True when τ comes straight from the plant's kernels (see module docstring)."""
        return self._kernel is not None

    def use_plant_api(self):
        """Switch to the public plant API path (for tests comparing the two)."""
        self._kernel = None

    # ---- cache entries -------------------------------------------------------------------------
    def _allocate_plant_context(self):
        return PlantContextHolder(self._template.clone())

    def _allocate_forces(self):
        return MultibodyForces(self.plant)

    def _calc_plant_context(self, context, holder):
        x = self._state.eval(context)
        if self._zero_velocities:
            self.plant.set_positions(holder.context, x[:self.nq])
        else:
            self.plant.set_positions_and_velocities(holder.context, x)

    def _calc_applied_forces(self, context, forces):
        self.plant.calc_force_elements_contribution(self.eval_plant_context(context), forces)

    def eval_plant_context(self, context):
        """The plant context at the state input of the controller ``context``."""
        return self._plant_context.eval(context).context

    # ---- dynamics ------------------------------------------------------------------------------
    def inverse_dynamics(self, context, vdot):
        """M v̇ + C v − τ_g − τ_app (nv,) at the state input of ``context``."""
        if self._kernel is not None:
            return self.plant.calc_generalized_forces_for_acceleration(
                self._template, self._state.eval(context), vdot)
        return self.plant.calc_inverse_dynamics(self.eval_plant_context(context), vdot,
                                                self._forces.eval(context))

    def inverse_dynamics_into(self, context, vdot, out, x=None):
        """`inverse_dynamics` written into ``out`` (nv,); ``vdot`` must be a C-contiguous
        float64 ndarray (nv,); ``x`` the state input's value when the caller has it."""
        if self._kernel is not None:
            self.plant.calc_generalized_forces_for_acceleration(
                self._template, self._state.eval(context) if x is None else x, vdot, out)
        else:
            out[:] = self.inverse_dynamics(context, vdot)

    def gravity_compensation(self, context):
        """−τ_g(q) (nv,) at the state input of ``context``."""
        if self._kernel is not None:
            return self._kernel.gravity_compensation(self._state.eval(context))
        return -self.plant.calc_gravity_generalized_forces(self.eval_plant_context(context))

    def passive_compensation(self, context):
        """−τ_g − τ_app (nv,) at the state input of ``context``: ID(q, v, 0) − C(q, v) v."""
        if self._kernel is not None:
            return self._kernel.passive_compensation(self._state.eval(context))
        plant_context = self.eval_plant_context(context)
        tau = self.plant.calc_inverse_dynamics(plant_context, np.zeros(self.nv),
                                               self._forces.eval(context))
        return tau - self.plant.calc_bias_term(plant_context)
