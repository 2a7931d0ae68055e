"""SDFormat frame semantics: named frames, ``<pose relative_to>`` and ``attached_to``.

Each ``<model>`` (and the ``<world>``) is a `FrameScope` whose named frames are the
model frame ``__model__``, its links, joints, explicit ``<frame>``s and nested models
(``nested::name`` reaches into a nested model; ``world`` is the world frame). Every
frame has a pose relative to another frame, with SDFormat 1.7+'s defaults:

========  ==============================  ======================================
element   pose relative to (default)       attached to
========  ==============================  ======================================
link      ``__model__``                    itself
joint     its child link                   its child link
frame     its ``attached_to``              ``attached_to`` (default ``__model__``)
model     ``__model__`` of the parent      its canonical link
========  ==============================  ======================================

Poses are resolved lazily, with cycle detection, to X_MF (relative to the scope's model
frame M) and to X_WF at the default configuration (the model placed at its pose).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from merganser.multibody.parsing.poses import inverse_pose, pose_from_xyz_rpy

__all__ = ["FrameNode", "FrameScope", "parse_pose"]


def _quat_xyzw_to_R(q):
    x, y, z, w = q / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def parse_pose(doc, el):
    """(X (4, 4), relative_to or None) of the ``<pose>`` child of `el` (identity, None if
    absent). Supports ``degrees="true"`` and ``rotation_format="quat_xyzw"``; the legacy
    ``frame`` attribute is read as ``relative_to``."""
    pose = doc.child(el, "pose")
    if pose is None:
        return np.eye(4), None
    doc.mark(pose)
    relative_to = doc.attr(pose, "relative_to", None) or doc.attr(pose, "frame", None)
    fmt = doc.attr(pose, "rotation_format", "euler_rpy")
    degrees = doc.parse_bool(pose, doc.attr(pose, "degrees", "false"), "attribute 'degrees'")
    text = doc.text(pose, "")
    if not text:
        return np.eye(4), relative_to or None
    if fmt == "quat_xyzw":
        v = doc.text_vector(pose, 7)
        X = np.eye(4)
        X[:3, :3] = _quat_xyzw_to_R(v[3:])
        X[:3, 3] = v[:3]
        return X, relative_to or None
    if fmt != "euler_rpy":
        doc.error(pose, f"rotation_format must be euler_rpy or quat_xyzw, got {fmt!r}")
    v = doc.text_vector(pose, 6)
    rpy = np.deg2rad(v[3:]) if degrees else v[3:]
    return pose_from_xyz_rpy(v[:3], rpy), relative_to or None


@dataclass
class FrameNode:
    """A named frame of a scope.

    Attributes
    ----------
    kind : str
        ``"link"``, ``"joint"``, ``"frame"`` or ``"model"``.
    el : element
        Its element (for messages).
    X_RF : ndarray (4, 4)
        Its pose relative to `relative_to`.
    relative_to : str
        Name of the frame the pose is given in.
    attached_to : str or None
        For frames: the frame it is fixed to; for joints: the child link.
    """

    kind: str
    el: object
    X_RF: np.ndarray
    relative_to: str
    attached_to: str | None = None


@dataclass
class FrameScope:
    """The named frames of one ``<model>`` (or the ``<world>``), see module docstring.

    Attributes
    ----------
    doc : XmlDocument
        Document of the model's elements (an included model has its own).
    name : str
        Local name; `full_name` is the model instance name (``outer::inner``).
    model_instance : int or None
        None for the world scope.
    parent : FrameScope or None
    X_WM : ndarray (4, 4)
        Default pose of the model frame in world (set once resolvable).
    canonical_link : str or None
        Link the model frame is attached to.
    bodies : dict
        Link name -> RigidBody, filled when the links are added to the plant.
    """

    doc: object
    name: str
    full_name: str
    model_instance: int | None
    parent: FrameScope | None
    el: object = None
    nodes: dict = field(default_factory=dict)
    nested: dict = field(default_factory=dict)
    canonical_link: str | None = None
    static: bool = False
    bodies: dict = field(default_factory=dict)
    X_WM: np.ndarray | None = None
    _resolved: dict = field(default_factory=dict)
    _resolving: set = field(default_factory=set)

    def add(self, name: str, node: FrameNode) -> None:
        """Register a named frame (ParseError if the name is taken in this scope)."""
        if name in self.nodes or name in ("__model__", "world") or "::" in name:
            what = "reserved" if name in ("__model__", "world") or "::" in name else "taken"
            self.doc.error(node.el, f"model '{self.full_name}': the name '{name}' of this "
                                    f"<{node.kind}> is {what}; frame, link, joint and model "
                                    f"names must be unique within a model")
        self.nodes[name] = node

    def lookup(self, name: str, el):
        """(scope, local name) for a possibly scoped `name` (``a::b``), or ParseError."""
        if "::" in name:
            head, rest = name.split("::", 1)
            if head == "__model__":
                return self.lookup(rest, el)
            nested = self.nested.get(head)
            if nested is None:
                self.doc.error(el, f"model '{self.full_name}' has no nested model '{head}' "
                                   f"(in frame name '{name}')")
            return nested.lookup(rest, el)
        if name not in self.nodes and name not in ("__model__", "world"):
            known = sorted(self.nodes)
            self.doc.error(el, f"model '{self.full_name}' has no frame, link, joint or model "
                               f"named '{name}'; known names: {known}")
        return self, name

    # ---- poses ----------------------------------------------------------------------------
    def pose_in_model(self, name: str, el=None) -> np.ndarray:
        """X_MF (4, 4) of frame `name` relative to this scope's model frame M."""
        scope, local = self.lookup(name, el)
        if scope is not self:
            return self.pose_in_model_of_scope(scope) @ scope.pose_in_model(local, el)
        if local == "__model__":
            return np.eye(4)
        if local == "world":
            return inverse_pose(self.model_pose_in_world())
        if local in self._resolved:
            return self._resolved[local]
        node = self.nodes[local]
        if local in self._resolving:
            self.doc.error(node.el, f"model '{self.full_name}': the poses of '{local}' form a "
                                    f"cycle of relative_to references")
        self._resolving.add(local)
        X = self.pose_in_model(node.relative_to, node.el) @ node.X_RF
        self._resolving.discard(local)
        self._resolved[local] = X
        return X

    def pose_in_model_of_scope(self, scope) -> np.ndarray:
        """X_M,N: pose of the model frame of descendant `scope` N in this model frame M."""
        chain = []
        while scope is not self:
            chain.append(scope)
            scope = scope.parent
        X = np.eye(4)
        for s in reversed(chain):
            X = X @ s.parent.pose_in_model(s.name, s.el)
        return X

    def model_pose_in_world(self) -> np.ndarray:
        """X_WM of this scope's model frame at the default configuration."""
        if self.X_WM is None:
            if self.parent is None:
                self.X_WM = np.eye(4)
            else:
                self.X_WM = self.parent.model_pose_in_world() @ self.parent.pose_in_model(
                    self.name, self.el)
        return self.X_WM

    def link_pose_in_model(self, link_scope, link: str) -> np.ndarray:
        """X_ML of link `link` of descendant scope `link_scope` (None: the world)."""
        if link_scope is None:
            return inverse_pose(self.model_pose_in_world())
        return self.pose_in_model_of_scope(link_scope) @ link_scope.pose_in_model(link)

    def body_of(self, name: str, el, world_body):
        """(RigidBody, X_ML) of the link that frame `name` is attached to (`world_body` and
        X_MW for the world), with X_ML the link's pose in this model frame."""
        link_scope, link = self.attached_link(name, el)
        X_ML = self.link_pose_in_model(link_scope, link)
        if link_scope is None:
            return world_body, X_ML
        if link not in link_scope.bodies:
            self.doc.error(el, f"link '{link}' of model '{link_scope.full_name}' is not "
                               f"available here")
        return link_scope.bodies[link], X_ML

    def pose_in_world(self, name: str, el=None) -> np.ndarray:
        """X_WF of frame `name` at the default configuration."""
        return self.model_pose_in_world() @ self.pose_in_model(name, el)

    # ---- attachment --------------------------------------------------------------------------
    def attached_link(self, name: str, el=None, _seen=None):
        """(scope, link name) of the link frame `name` is fixed to; (None, "world") for
        the world."""
        seen = set() if _seen is None else _seen
        scope, local = self.lookup(name, el)
        key = (id(scope), local)
        if key in seen:
            self.doc.error(el, f"model '{self.full_name}': the attached_to references of "
                               f"'{name}' form a cycle")
        seen.add(key)
        if local == "world":
            return None, "world"
        if local == "__model__":
            if scope.model_instance is None:
                return None, "world"
            if scope.canonical_link is None:
                scope.doc.error(scope.el, f"model '{scope.full_name}' has no link to attach "
                                          f"its model frame to")
            return scope.attached_link(scope.canonical_link, el, seen)
        node = scope.nodes[local]
        if node.kind == "link":
            return scope, local
        if node.kind == "model":
            return scope.nested[local].attached_link("__model__", node.el, seen)
        return scope.attached_link(node.attached_to, node.el, seen)
