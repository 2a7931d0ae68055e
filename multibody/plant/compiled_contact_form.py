"""The compiled form (``framework.compiled_diagram``) of a discrete MultibodyPlant with
point contact: its discrete update is the plant's TAMSI or SAP-family contact step.

It applies where the plant's own compiled loop does (`multibody.batched.plant_loop`:
point contact, constraints (SAP family) all active with their default parameters in the
context, the one-call forward dynamics, no roll-pitch-yaw joint;
its proximity geometries belong to the plant's bodies or the world), with the geometry
query connected, no applied-force or per-instance actuation input connected or fixed,
no locked joint and no PD-controlled actuator. The update is
`multibody.batched.plant_loop.checked_contact_step` (forward dynamics, poses, broad and
narrow phase, contact parameters, M(q), the solve, the position update: the kernels the
plant's Python step calls, in its order) on the state ``x`` with the actuation ``u``;
where that step must raise or warn (a solve that did not converge, a state that is not
finite, a contact deeper than the penetration check lets through) the form declines the
call (NaN), so that the compiled simulation loop hands the update to the Python loop and
the plant's own step raises or warns as block by block. Only the ``state`` output port
is compiled.

Parameters ``p`` = [nq, nv, nu, offset of the actuation in u, h, N(q) = I (0 or 1), the
penetration check's depth, whether the context deactivated a constraint or changed a
distance constraint's parameters (1: the form declines every call, the plant's Python
step applies them), I10 (nb x 10)]; arrays = (ip, fp, gravity, U (1, nu),
actuators (2, nu), damping, quaternion starts, gains (1, nu), desired state (1, 2 nu),
the contact scene's tables, the solver's settings, `env_scratch`, `contact_work`,
q scratch, v scratch). The scene (geometries, collision filter, contact parameters) is
the one of the query the plant's context sees when the diagram is compiled.
"""

import numpy as np

from merganser.framework.compilation import kernel
from merganser.framework.compiled_diagram import CompiledForm, CompiledPort
from merganser.framework.compiled_diagram.forms import copy_state
from merganser.multibody.batched.batched_contact import contact_work
from merganser.multibody.batched.batched_step import env_inputs, env_scratch
from merganser.multibody.batched.plant_loop import checked_contact_step

__all__ = ["contact_plant_form", "plant_contact_update"]

_HEAD = 8


@kernel(allocates=True, inline=False)
def plant_contact_update(t, x, u, p, work, out, arrays):
    """x' = the plant's contact step of x = [q; v] under the actuation in u (module
    docstring); NaN where the Python step must run."""
    (ip, fp, g, U, actuators, damping, quat_starts, gains, XD, scene, solver, scratch,
     cwork, q, v) = arrays
    nq, nv, nu, off = int(p[0]), int(p[1]), int(p[2]), int(p[3])
    if p[7] != 0.0:                  # the context's own constraint settings: Python's step
        for i in range(out.shape[0]):
            out[i] = np.nan
        return
    nb = (p.shape[0] - _HEAD) // 10
    I10 = p[_HEAD:_HEAD + 10 * nb].reshape((1, nb, 10))
    for i in range(nu):
        U[0, i] = u[off + i]
    model, drive = env_inputs(0, ip, fp, g, I10, U, actuators, damping, gains, gains, XD,
                              False)
    for i in range(nq):
        q[i] = x[i]
    for i in range(nv):
        v[i] = x[nq + i]
    if not checked_contact_step(model, drive, scratch, scene, solver, cwork, q, v, p[4],
                                p[5] != 0.0, quat_starts, p[6]):
        for i in range(out.shape[0]):
            out[i] = np.nan
        return
    for i in range(nq):
        out[i] = q[i]
    for i in range(nv):
        out[nq + i] = v[i]


def _check(plant, loop):
    ports = plant._ports
    optional = [ports.applied_generalized_force, ports.applied_spatial_force] + [
        port for _, port in ports.instance_actuation_active]
    query = ports.geometry_query

    def check(context):
        for port in optional:
            if context._inputs[port.get_index()] is not None:
                return (f"input port '{port.get_name()}' is connected or fixed (the "
                        f"compiled contact step applies the actuation only)")
        if plant._core.scene_graph is not None and not query.has_value(context):
            return f"input port '{query.get_name()}' is not connected"
        reason = plant._context_element_overrides(context)
        if reason is not None:
            return reason
        if loop._scene(context) is None:
            return ("a proximity geometry is not modeled by the compiled contact step "
                    "(hydroelastic, or posed by another source)")
        return None

    return check


def contact_plant_form(plant, offset):
    """The `CompiledForm` of the finalized discrete contact `plant`, or None where its
    step is not the compiled contact step (module docstring); `offset` is the start of
    the actuation input in the plant's vector inputs."""
    loop = plant._discrete_loop
    if loop is None or not loop._static or plant._pd_controlled_actuators:
        return None
    core = plant._core
    t = core.tables
    head = np.array([t.nq, t.nv, t.nu, offset, core.time_step,
                     float(bool(t.velocity_equals_qdot)), 0.0, 0.0])

    def parameters(context):
        scene = loop._scene(context)
        head[6] = core.contact_manager.penetration_check_depth(scene.tables.ids)
        active = core.eval_active_constraints(context)
        head[7] = float((active is not None and not active.all())
                        or bool(core.eval_distance_constraint_overrides(context)))
        return np.concatenate([head, core.cache.inertia.eval(context).I10.ravel()])

    def arrays(context):
        scene = loop._scene(context)
        return (core.ip, core.fp, np.ascontiguousarray(core.gravity, float),
                np.zeros((1, t.nu)), loop._actuators, loop._damping, loop._quat_starts,
                np.zeros((1, t.nu)), np.zeros((1, 2 * t.nu)), scene.scene, scene.solver,
                env_scratch(core.ip.shape[0], t.nq, t.nv),
                contact_work(core.ip, t.nb, t.nv, scene.num_geometries, scene.max_pairs,
                             scene.max_rows, scene.constraint_rows),
                np.zeros(t.nq), np.zeros(t.nv))

    outputs = [None] * plant.num_output_ports()
    outputs[plant.get_state_output_port().get_index()] = CompiledPort(copy_state)
    return CompiledForm(outputs=tuple(outputs), discrete_update=plant_contact_update,
                        parameters=parameters, arrays=arrays, check=_check(plant, loop))
