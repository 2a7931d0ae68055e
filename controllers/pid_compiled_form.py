"""The compiled form of PidController (``merganser.framework.compiled_diagram.protocol``).

The kernels repeat PidController's Python calc operation for operation, so a compiled
diagram with the controller equals the block-by-block path bit for bit. Inputs ``u`` are
[estimated_state (n_x); desired_state (2 n)]; parameters ``p`` are
[n, n_x, n_y, project_state, project_output, has_integral, kp, ki, kd, P_x, P_y];
the work array holds the state error e (2 n) and the unprojected control (n).
"""

import numpy as np

from merganser.framework.compilation import kernel
from merganser.framework.compiled_diagram import CompiledForm, register_compiled_form
from merganser.framework.matvec import matvec

from .pid_controller import PidController

_HEAD = 6


@kernel(inline=False)
def _state_error(u, p, e):
    """e = x_d − P_x x (or x_d − x), as PidController._state_error."""
    n, nx = int(p[0]), int(p[1])
    x = u[:nx]
    x_d = u[nx:nx + 2 * n]
    if p[3] != 0.0:
        o = _HEAD + 3 * n
        matvec(p[o:o + 2 * n * nx].reshape((2 * n, nx)), x, e)
        for i in range(2 * n):
            e[i] = x_d[i] - e[i]
    else:
        for i in range(2 * n):
            e[i] = x_d[i] - x[i]


@kernel(inline=False)
def pid_derivatives(t, x, u, p, work, out):
    """ż = q_d − q_c."""
    n = int(p[0])
    e = work[:2 * n]
    _state_error(u, p, e)
    for i in range(n):
        out[i] = e[i]


@kernel(inline=False)
def pid_control(t, x, u, p, work, out):
    """control = P_y (kp ⊙ e_q + kd ⊙ e_v + ki ⊙ z)."""
    n, nx, ny = int(p[0]), int(p[1]), int(p[2])
    e = work[:2 * n]
    _state_error(u, p, e)
    kp = p[_HEAD:_HEAD + n]
    ki = p[_HEAD + n:_HEAD + 2 * n]
    kd = p[_HEAD + 2 * n:_HEAD + 3 * n]
    project = p[4] != 0.0
    c = work[2 * n:3 * n] if project else out
    for i in range(n):
        c[i] = kp[i] * e[i]
        c[i] += kd[i] * e[n + i]
    if p[5] != 0.0:
        for i in range(n):
            c[i] += ki[i] * x[i]
    if project:
        o = _HEAD + 3 * n + 2 * n * nx
        matvec(p[o:o + ny * n].reshape((ny, n)), c, out)


def _pid_form(system):
    P_x, P_y = system.get_state_projection(), system.get_output_projection()
    n = system.get_Kp_vector().size
    constants = np.concatenate([
        [n, P_x.shape[1], P_y.shape[0], float(system._project_state),
         float(system._project_output), float(system._has_integral)],
        system.get_Kp_vector(), system.get_Ki_vector(), system.get_Kd_vector(),
        P_x.ravel(), P_y.ravel()]).astype(float)
    constants.flags.writeable = False
    return CompiledForm(outputs=(pid_control,),
                        derivatives=pid_derivatives if system._has_integral else None,
                        parameters=lambda context: constants, work_size=3 * n)


register_compiled_form(PidController, _pid_form)
