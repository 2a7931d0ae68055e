"""SingularDynamicsError: the mass matrix of the model is singular at this state.

Drake accepts bodies with zero mass and inertia (``add_rigid_body(name)``) and reports
the problem only when the dynamics need the inverse of an articulated inertia, as here:
the articulated body algorithm (`multibody.kernels.aba`) checks each joint's pivot, and
the solves with the mass matrix M(q) (reflected inertia, contact solvers) check their
factorization. Every path raises this one error, naming the body, its inboard joint and
the likely cause.
"""

import numpy as np

from merganser.multibody.kernels.aba import PIVOT_TOLERANCE
from merganser.multibody.tree.compiled_model import JointType

__all__ = ["SingularDynamicsError", "singular_dynamics_error", "singular_node_of_mass_matrix"]


class SingularDynamicsError(RuntimeError):
    """The articulated inertia of a joint (hence M(q)) is singular.

    Usually a massless body (zero mass, or zero rotational inertia) on a free or otherwise
    unconstrained joint, with no massive body outboard that could carry the inertia of
    each of the joint's degrees of freedom. A RuntimeError, as Drake raises.

    Attributes
    ----------
    body_name : str
        The body whose inboard joint is singular ('' when unknown).
    joint_name : str
        That joint ('' when unknown).
    node : int
        The body's node in the compiled model.
    source_location : str or None
        ``"file:line"`` of the model-file element that caused it: the body's, else its
        joint's (`MultibodyElement.source_location`); None for bodies not from a file.
    """

    def __init__(self, message, body_name="", joint_name="", node=-1, source_location=None):
        super().__init__(message)
        self.body_name = body_name
        self.joint_name = joint_name
        self.node = int(node)
        self.source_location = source_location


def singular_dynamics_error(fn, model, node, joint_names=(), locations=()):
    """The `SingularDynamicsError` for node `node` of `model` (a CompiledModel).

    Parameters
    ----------
    fn : str
        The public operation, named first in the message.
    model : CompiledModel
    node : int
        The node whose joint's articulated inertia is singular.
    joint_names : sequence of str, optional
        The name of each node's inboard joint (node order), if known.
    locations : sequence of (str or None, str or None), optional
        Per node, the ``file:line`` of its body and of its inboard joint, if known.
    """
    node = int(node)
    body = model.node_names[node] if len(model.node_names) > node else f"node {node}"
    parent = int(model.parent[node])
    parent_name = model.node_names[parent] if len(model.node_names) > parent else f"node {parent}"
    joint = joint_names[node] if len(joint_names) > node else ""
    jtype = JointType(int(model.jtype[node])).name.lower()
    dofs = ("translation and rotation" if jtype in ("quaternion_floating", "rpy_floating",
                                                     "planar")
            else "translation" if jtype == "prismatic" else "rotation")
    joint_text = f"joint {joint!r} ({jtype})" if joint else f"its {jtype} joint"
    body_at, joint_at = locations[node] if len(locations) > node else (None, None)
    found = [f"{kind} {name!r} at {at}" for kind, name, at in
             (("body", body, body_at), ("joint", joint, joint_at)) if at]
    where = f" ({'; '.join(found)})" if found else ""
    return SingularDynamicsError(
        f"{fn}: the articulated inertia of body {body!r} on {joint_text} to {parent_name!r} "
        f"is singular, so the mass matrix cannot be inverted. Likely cause: a massless body "
        f"(zero mass or zero rotational inertia) on a free or unconstrained joint, without "
        f"enough mass outboard; the joint allows {dofs}: give {body!r} (or the bodies "
        f"outboard of it) a mass and rotational inertia, or weld it.{where}",
        body_name=body, joint_name=joint, node=node,
        source_location=body_at or joint_at)


def singular_node_of_mass_matrix(model, M):
    """The node of the first velocity at which M (nv, nv) stops being positive definite
    (by a Cholesky without pivoting, relative tolerance as the ABA check), or -1 if none."""
    M = np.asarray(M, dtype=np.float64)
    n = M.shape[0]
    scale = float(np.max(np.abs(np.diag(M)))) if n else 0.0
    L = M.copy()
    for c in range(n):
        d = L[c, c] - L[c, :c] @ L[c, :c]
        if not (PIVOT_TOLERANCE * scale < d < np.inf):
            nodes = np.flatnonzero((model.v_start <= c) & (c < model.v_start + model.nv_j)
                                   & (model.nv_j > 0))
            return int(nodes[0]) if nodes.size else -1
        L[c, c] = np.sqrt(d)
        L[c + 1:, c] = (L[c + 1:, c] - L[c + 1:, :c] @ L[c, :c]) / L[c, c]
    return -1
