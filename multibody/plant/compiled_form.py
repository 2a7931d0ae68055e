"""The compiled form of a continuous MultibodyPlant (``framework.compiled_diagram``).

It applies when the plant's forward dynamics is one kernel call for every context
(``_one_call_fd``: identity actuation or none, gravity the only force element, no
reflected inertia, no added mass, no continuous contact), its velocities are q̇, and no
applied-force or per-instance actuation input is connected or fixed: then the time
derivatives are [v; v̇] with v̇ from ``calc_forward_dynamics_damped``, the kernel the
plant's own path calls, with the same arguments. The ``state`` output port is compiled;
the others are not (a diagram that needs them evaluates block by block).

Parameters ``p`` = [nq, nv, nu, offset of the actuation in u, I10 (nb x 10)] (the
inertias are parameters of the context); arrays = (ip, fp, workspace, damping, gravity,
F_Bo_W, tau, vdot, zero actuation). When the kernel fails (a singular mass matrix) the
form declines the call (non-finite derivatives), so the diagram evaluates that call
block by block and the plant's own path raises its located SingularDynamicsError.
"""

import numpy as np

from merganser.framework.compilation import kernel
from merganser.framework.compiled_diagram import (CompiledForm, CompiledPort,
                                                  register_compiled_form)
from merganser.framework.compiled_diagram.forms import copy_state
from merganser.framework.ports import VECTOR
from merganser.multibody.kernels.aba import calc_forward_dynamics_damped
from merganser.multibody.kernels.layout import make_workspace
from merganser.multibody.plant.multibody_plant import MultibodyPlant

_HEAD = 4


@kernel(inline=False)
def plant_derivatives(t, x, u, p, work, out, arrays):
    """ẋ = [v; v̇], v̇ = ABA(q, v, u − D v) with gravity."""
    ip, fp, ws, damping, g, F, tau, vd, zero_u = arrays
    nq, nv, nu, off = int(p[0]), int(p[1]), int(p[2]), int(p[3])
    nb = (p.shape[0] - _HEAD) // 10
    I10 = p[_HEAD:_HEAD + 10 * nb].reshape((nb, 10))
    q = x[:nq]
    v = x[nq:nq + nv]
    if nu:
        failed = calc_forward_dynamics_damped(ip, fp, ws, q, v, u[off:off + nu], damping,
                                              I10, g, F, False, tau, vd)
    else:
        failed = calc_forward_dynamics_damped(ip, fp, ws, q, v, zero_u, damping, I10, g, F,
                                              False, tau, vd)
    if failed:              # declined: the plant's own path reports (or handles) it
        for i in range(nq + nv):
            out[i] = np.nan
        return
    for i in range(nq):
        out[i] = v[i]
    for i in range(nv):
        out[nq + i] = vd[i]


def _check(plant):
    ports = plant._ports
    optional = [ports.applied_generalized_force, ports.applied_spatial_force] + [
        port for _, port in ports.instance_actuation_active]

    def check(context):
        for port in optional:
            if context._inputs[port.get_index()] is not None:
                return (f"input port '{port.get_name()}' is connected or fixed (the "
                        f"compiled form applies the actuation only)")
        if plant._locked_velocities(context) is not None:
            return "joints are locked in the context (the compiled form has no locking)"
        return None

    return check


def _plant_form(plant):
    t = plant._tables
    if (not plant._tree.is_finalized() or not t.continuous or not plant._one_call_fd
            or not t.velocity_equals_qdot or t.nq != t.nv):
        return None
    actuation = plant._ports.actuation
    offset = sum(plant.get_input_port(i).size() for i in range(actuation.get_index())
                 if plant.get_input_port(i).get_data_type() == VECTOR)
    head = np.array([t.nq, t.nv, t.nu, offset], dtype=float)

    def parameters(context):
        return np.concatenate([head, plant._cache.inertia.eval(context).I10.ravel()])

    core = plant._core

    def arrays(context):
        return (core.ip, core.fp, make_workspace(t.nb), np.ascontiguousarray(t.damping, float),
                np.ascontiguousarray(plant._kernel_gravity(), float), np.zeros((t.nb, 6)),
                np.zeros(t.nv), np.zeros(t.nv), np.zeros(t.nv))

    outputs = [None] * plant.num_output_ports()
    outputs[plant.get_state_output_port().get_index()] = CompiledPort(copy_state)
    return CompiledForm(outputs=tuple(outputs), derivatives=plant_derivatives,
                        parameters=parameters, arrays=arrays, check=_check(plant))


register_compiled_form(MultibodyPlant, _plant_form)
