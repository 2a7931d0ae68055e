"""The compiled form of a MultibodyPlant (``framework.compiled_diagram``), continuous or
discrete without contact (a discrete plant with point contact:
`multibody.plant.compiled_contact_form`).

It applies when the plant's forward dynamics is one kernel call for every context
(``_one_call_fd``: identity actuation or none, gravity the only force element, no
reflected inertia, no added mass, no continuous contact), its velocities are q̇, and no
applied-force or per-instance actuation input is connected or fixed: then v̇ comes from
``calc_forward_dynamics_damped``, the kernel the plant's own path calls, with the same
arguments. The continuous plant's time derivatives are [v; v̇]; the discrete plant
(time_step h, the contact-free `SemiExplicitEulerStepper`) steps as that stepper does,
v' = v̇ h + v, q' = q + h v' (``position_update.next_state``, the stepper's kernel). The
``state`` output port is compiled; the others are not (a diagram that needs them
evaluates block by block).

Parameters ``p`` = [nq, nv, nu, offset of the actuation in u, h, I10 (nb x 10)] (the
inertias are parameters of the context); arrays = (ip, fp, workspace, damping, gravity,
F_Bo_W, tau, vdot, zero actuation, quaternion starts, q̇ scratch). When the kernel fails
(a singular mass matrix) the form declines the call (non-finite values), so the diagram
evaluates that call block by block (the compiled simulation loop hands the update back
to the Python loop) and the plant's own path raises its located SingularDynamicsError.
"""

import numpy as np

from merganser.framework.compilation import kernel
from merganser.framework.compiled_diagram import (CompiledForm, CompiledPort,
                                                  register_compiled_form)
from merganser.framework.compiled_diagram.forms import copy_state
from merganser.framework.ports import VECTOR
from merganser.multibody.kernels.aba import calc_forward_dynamics_damped
from merganser.multibody.kernels.layout import make_workspace
from merganser.multibody.kernels.position_update import next_state
from merganser.multibody.plant.compiled_contact_form import contact_plant_form
from merganser.multibody.plant.discrete_update import SemiExplicitEulerStepper
from merganser.multibody.plant.multibody_plant import MultibodyPlant

_HEAD = 5


@kernel(inline=False)
def _plant_vdot(x, u, p, arrays):
    """v̇ = ABA(q, v, u − D v) with gravity into arrays[7]; returns True when it failed
    (then ``out`` is NaN: the call is declined)."""
    ip, fp, ws, damping, g, F, tau, vd, zero_u = arrays[:9]
    nq, nv, nu, off = int(p[0]), int(p[1]), int(p[2]), int(p[3])
    nb = (p.shape[0] - _HEAD) // 10
    I10 = p[_HEAD:_HEAD + 10 * nb].reshape((nb, 10))
    q = x[:nq]
    v = x[nq:nq + nv]
    if nu:
        return calc_forward_dynamics_damped(ip, fp, ws, q, v, u[off:off + nu], damping,
                                            I10, g, F, False, tau, vd)
    return calc_forward_dynamics_damped(ip, fp, ws, q, v, zero_u, damping, I10, g, F,
                                        False, tau, vd)


@kernel(inline=False)
def _decline(out):
    """The plant's own path reports (or handles) what the kernel could not do."""
    for i in range(out.shape[0]):
        out[i] = np.nan


@kernel(inline=False)
def plant_derivatives(t, x, u, p, work, out, arrays):
    """ẋ = [v; v̇], v̇ = ABA(q, v, u − D v) with gravity."""
    if _plant_vdot(x, u, p, arrays):
        _decline(out)
        return
    nq, nv = int(p[0]), int(p[1])
    vd = arrays[7]
    for i in range(nq):
        out[i] = x[nq + i]
    for i in range(nv):
        out[nq + i] = vd[i]


@kernel(inline=False)
def plant_discrete_update(t, x, u, p, work, out, arrays):
    """x' = [q + h v'; v'], v' = v̇ h + v (the contact-free discrete step)."""
    if _plant_vdot(x, u, p, arrays):
        _decline(out)
        return
    nq, nv, h = int(p[0]), int(p[1]), p[4]
    ip, vd, quat_starts, qdot = arrays[0], arrays[7], arrays[9], arrays[10]
    v_next = out[nq:]
    for i in range(nv):
        v_next[i] = vd[i] * h
    for i in range(nv):
        v_next[i] += x[nq + i]
    if next_state(ip, x[:nq], v_next, h, True, quat_starts, qdot, out):
        _decline(out)


def _check(plant):
    ports = plant._ports
    optional = [ports.applied_generalized_force, ports.applied_spatial_force] + [
        port for _, port in ports.instance_actuation_active]

    def check(context):
        for port in optional:
            if context._inputs[port.get_index()] is not None:
                return (f"input port '{port.get_name()}' is connected or fixed (the "
                        f"compiled form applies the actuation only)")
        reason = plant._context_element_overrides(context)
        if reason is not None:
            return reason
        return None

    return check


def _plant_form(plant):
    t = plant._tables
    if not plant._tree.is_finalized() or not plant._one_call_fd:
        return None
    if t.continuous or type(plant._stepper) is SemiExplicitEulerStepper:
        if not t.velocity_equals_qdot or t.nq != t.nv:
            return None
    discrete = not t.continuous
    if discrete and plant._pd.num_controlled:
        return None             # PD-controlled actuators: the implicit step in Python
    actuation = plant._ports.actuation
    offset = sum(plant.get_input_port(i).size() for i in range(actuation.get_index())
                 if plant.get_input_port(i).get_data_type() == VECTOR)
    if discrete and type(plant._stepper) is not SemiExplicitEulerStepper:
        return contact_plant_form(plant, offset)        # a contact solver's step
    if discrete and not plant._core.dyn._identity_n:
        return None             # a joint with N(q) != I
    head = np.array([t.nq, t.nv, t.nu, offset, plant._core.time_step if discrete else 0.0],
                    dtype=float)

    def parameters(context):
        return np.concatenate([head, plant._cache.inertia.eval(context).I10.ravel()])

    core = plant._core

    def arrays(context):
        return (core.ip, core.fp, make_workspace(t.nb), np.ascontiguousarray(t.damping, float),
                np.ascontiguousarray(plant._kernel_gravity(), float), np.zeros((t.nb, 6)),
                np.zeros(t.nv), np.zeros(t.nv), np.zeros(t.nv),
                np.array(core.dyn._quat_starts), np.zeros(t.nq))

    outputs = [None] * plant.num_output_ports()
    outputs[plant.get_state_output_port().get_index()] = CompiledPort(copy_state)
    return CompiledForm(outputs=tuple(outputs),
                        derivatives=None if discrete else plant_derivatives,
                        discrete_update=plant_discrete_update if discrete else None,
                        parameters=parameters, arrays=arrays, check=_check(plant))


register_compiled_form(MultibodyPlant, _plant_form)
