"""The compiled form of InverseDynamicsController (``framework.compiled_diagram``).

It applies when the controller computes τ with the plant's fused computed-torque kernel
(``calc_computed_torque``: the model's kernel path, no added mass, nq = nv) and its
actuation matrix is the identity: then both outputs are that kernel's τ, called with the
arguments the controller's own path passes, and the integral state (when some ki is
nonzero) has ż = q_d − q. Inputs ``u`` = [estimated_state (2 n); desired_state (2 n);
desired_acceleration (n) when declared]; parameters ``p`` = [n, has_integral,
has_reference, kp, kd, ki]; arrays = (ip, fp, workspace, damping, I10, g, F, v̇).
When the kernel fails, τ is written non-finite: the diagram's derivatives that depend on
it then decline the compiled call and that call is evaluated block by block, where the
controller's own path answers with its general path.
"""

import numpy as np

from merganser.framework.compilation import kernel
from merganser.framework.compiled_diagram import CompiledForm, register_compiled_form
from merganser.multibody.kernels.computed_torque import calc_computed_torque
from merganser.multibody.kernels.layout import make_workspace

from .inverse_dynamics_controller import InverseDynamicsController

_HEAD = 3
_EMPTY = np.zeros(0)


@kernel(inline=False)
def computed_torque_output(t, x, u, p, work, out, arrays):
    """τ = M(q) (kp ⊙ e_q + kd ⊙ e_v + ki ⊙ z + v̇_ref) + C(q, v) v − τ_g + D v."""
    ip, fp, ws, damping, I10, g, F, vd, empty = arrays
    n = int(p[0])
    kp = p[_HEAD:_HEAD + n]
    kd = p[_HEAD + n:_HEAD + 2 * n]
    estimated = u[:2 * n]
    desired = u[2 * n:4 * n]
    reference = u[4 * n:5 * n] if p[2] != 0.0 else empty
    if p[1] != 0.0:
        failed = calc_computed_torque(ip, fp, ws, estimated, desired, kp, kd,
                                      p[_HEAD + 2 * n:_HEAD + 3 * n], x, reference, damping,
                                      I10, g, F, vd, out)
    else:
        failed = calc_computed_torque(ip, fp, ws, estimated, desired, kp, kd, empty, empty,
                                      reference, damping, I10, g, F, vd, out)
    if failed:              # declined: non-finite τ makes the diagram's call block by block
        for i in range(n):
            out[i] = np.nan


@kernel(inline=False)
def integral_derivatives(t, x, u, p, work, out):
    """ż = q_d − q."""
    n = int(p[0])
    for i in range(n):
        out[i] = u[2 * n + i] - u[i]


def _form(system):
    path = system._model._kernel
    if path is None or not path._fused or not system._actuation_is_identity:
        return None
    n = system._n
    constants = np.concatenate([[n, float(system._has_integral),
                                 float(system._has_reference_acceleration)],
                                system._kp, system._kd, system._ki]).astype(float)
    constants.flags.writeable = False
    core = path._core

    def arrays(context):
        return (core.ip, core.fp, make_workspace(core.tables.nb), path._damping, path._I10,
                path._g, path._F, np.zeros(n), _EMPTY)

    return CompiledForm(outputs=(computed_torque_output, computed_torque_output),
                        derivatives=integral_derivatives if system._has_integral else None,
                        parameters=lambda context: constants, arrays=arrays)


register_compiled_form(InverseDynamicsController, _form)
