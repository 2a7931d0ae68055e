"""Spanning-tree topology: which body is each node's parent, and in which order nodes come.

``finalize()`` works in two steps, on plain integers (body indices with world = 0, and
one (parent body, child body) pair per joint, in joint-index order):

1. `choose_base_bodies` walks the joint graph breadth first from the world, as
   Drake's SpanningForest does, and checks that it is a tree whose joints all point
   away from the world. It raises `TopologyError` for a kinematic loop (a joint that
   connects two bodies already connected, e.g. a body with two inboard joints) and for
   a reversed joint (one whose child is closer to the world than its parent, which
   Drake supports but this project does not yet). Bodies not reached from the world
   become base bodies of new trees, in Drake 1.51's order: roots of articulated
   subgraphs first (fewest joints as child, then most joints as parent, then lowest
   index), then lone bodies by index. The caller adds a joint from the world to each.
2. `order_nodes` numbers the nodes depth-first pre-order from the world, visiting
   children in joint-index (creation) order, so that ``parent[k] < k``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from merganser.multibody.tree.errors import TopologyError

__all__ = ["Topology", "choose_base_bodies", "order_nodes"]


@dataclass(frozen=True)
class Topology:
    """Node numbering of a spanning tree.

    Attributes
    ----------
    body_of_node : ndarray, shape (nb,), int64
        Body index of each node; node 0 is the world (body 0).
    node_of_body : ndarray, shape (nb,), int64
        Inverse of `body_of_node`.
    parent_node : ndarray, shape (nb,), int64
        Parent node of each node (-1 for the world); ``parent_node[k] < k``.
    joint_of_node : ndarray, shape (nb,), int64
        Index of each node's inboard joint (-1 for the world).
    """

    body_of_node: np.ndarray
    node_of_body: np.ndarray
    parent_node: np.ndarray
    joint_of_node: np.ndarray


def _incident_joints(num_bodies: int, joints: Sequence[tuple[int, int]]) -> list[list[int]]:
    incident: list[list[int]] = [[] for _ in range(num_bodies)]
    for j, (parent, child) in enumerate(joints):
        incident[parent].append(j)
        incident[child].append(j)
    return incident


def _extend_breadth_first(
    root, joints, incident, tree_parent_joint, reached, body_names, joint_names
):
    """Reach every body connected to `root`, checking each joint's direction and loops."""
    queue = deque([root])
    reached[root] = True
    used = set()
    while queue:
        body = queue.popleft()
        for j in incident[body]:
            if j in used or j == tree_parent_joint[body]:
                continue
            used.add(j)
            parent, child = joints[j]
            other = child if parent == body else parent
            if reached[other]:
                raise TopologyError(
                    f"finalize: kinematic loop: joint {joint_names[j]!r} connects bodies "
                    f"{body_names[parent]!r} and {body_names[child]!r}, which are already "
                    f"connected through other joints (a body may have only one inboard joint). "
                    f"Loops are not supported; remove the joint and close the loop with a "
                    f"constraint (add_ball_constraint, add_weld_constraint, ...)"
                )
            if other == parent:
                raise TopologyError(
                    f"finalize: joint {joint_names[j]!r} is reversed: its child body "
                    f"{body_names[child]!r} is closer to the world than its parent body "
                    f"{body_names[parent]!r}. Reversed joints are not supported; swap "
                    f"frame_on_parent and frame_on_child (and invert the joint's sign "
                    f"convention) so that every joint points away from the world"
                )
            reached[other] = True
            tree_parent_joint[other] = j
            queue.append(other)


def _component_names(start, joints, incident, body_names):
    seen, stack = {start}, [start]
    while stack:
        body = stack.pop()
        for j in incident[body]:
            for other in joints[j]:
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
    return [body_names[b] for b in sorted(seen)]


def choose_base_bodies(
    num_bodies: int,
    joints: Sequence[tuple[int, int]],
    body_names: Sequence[str],
    joint_names: Sequence[str],
) -> list[int]:
    """Validate the joint graph and return the bodies that need a joint to the world.

    Parameters
    ----------
    num_bodies : int
        Number of bodies, world (index 0) included.
    joints : sequence of (int, int)
        (parent body, child body) of each user joint, in joint-index order.
    body_names, joint_names : sequence of str
        Names used in error messages.

    Returns
    -------
    list of int
        Base bodies in the order their joints to the world must be added.

    Raises
    ------
    TopologyError
        For a kinematic loop or a reversed joint.
    """
    incident = _incident_joints(num_bodies, joints)
    reached = [False] * num_bodies
    tree_parent_joint = [-1] * num_bodies
    _extend_breadth_first(0, joints, incident, tree_parent_joint, reached, body_names, joint_names)

    num_as_child = [0] * num_bodies
    num_as_parent = [0] * num_bodies
    for parent, child in joints:
        num_as_parent[parent] += 1
        num_as_child[child] += 1

    jointed = [b for b in range(num_bodies) if not reached[b] and incident[b]]
    jointed.sort(key=lambda b: (num_as_child[b], -num_as_parent[b], b))
    bases = []
    for body in jointed:
        if reached[body]:
            continue
        if num_as_child[body] > 0:
            raise TopologyError(
                f"finalize: kinematic loop: the joints among bodies "
                f"{_component_names(body, joints, incident, body_names)} form a closed chain "
                f"that is not connected to the world (every one of these bodies is the child "
                f"of a joint). Loops are not supported; remove a joint and close the loop with "
                f"a constraint"
            )
        bases.append(body)
        _extend_breadth_first(
            body, joints, incident, tree_parent_joint, reached, body_names, joint_names
        )
    bases.extend(b for b in range(num_bodies) if not reached[b])
    return bases


def order_nodes(
    num_bodies: int, joints: Sequence[tuple[int, int]], body_names: Sequence[str]
) -> Topology:
    """Number the nodes depth-first pre-order from the world.

    Parameters
    ----------
    num_bodies : int
        Number of bodies, world (index 0) included.
    joints : sequence of (int, int)
        (parent body, child body) of every joint (user joints and the joints added for
        base bodies), in joint-index order; every body but the world must be the child
        of exactly one joint and be connected to the world.
    body_names : sequence of str
        Names used in error messages.

    Returns
    -------
    Topology
        The node numbering; children of a node follow their joints' index order.

    Raises
    ------
    TopologyError
        If some body is not connected to the world.
    """
    children: list[list[tuple[int, int]]] = [[] for _ in range(num_bodies)]
    for j, (parent, child) in enumerate(joints):
        children[parent].append((j, child))

    body_of_node, parent_node, joint_of_node = [], [], []
    node_of_body = np.full(num_bodies, -1, dtype=np.int64)
    stack = [(0, -1, -1)]  # (body, parent node, inboard joint)
    while stack:
        body, parent, joint = stack.pop()
        if node_of_body[body] >= 0:
            continue
        node_of_body[body] = len(body_of_node)
        body_of_node.append(body)
        parent_node.append(parent)
        joint_of_node.append(joint)
        for j, child in reversed(children[body]):
            stack.append((child, node_of_body[body], j))

    missing = [body_names[b] for b in range(num_bodies) if node_of_body[b] < 0]
    if missing:
        raise TopologyError(
            f"finalize: bodies {missing} are not connected to the world (their joints form a "
            f"cycle with no base body)"
        )
    return Topology(
        body_of_node=np.array(body_of_node, dtype=np.int64),
        node_of_body=node_of_body,
        parent_node=np.array(parent_node, dtype=np.int64),
        joint_of_node=np.array(joint_of_node, dtype=np.int64),
    )
