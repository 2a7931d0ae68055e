"""Identifiers, GeometryFrame and GeometryInstance: what a source registers with SceneGraph.

`SourceId`, `FrameId` and `GeometryId` are unique, hashable, ordered identifiers
(``get_new_id()``, ``get_value()``), as in Drake. A `GeometryInstance` is a shape posed in
its parent frame (X_PG) with a name and, optionally, role properties; SceneGraph gives it
the GeometryId it was created with.
"""

import itertools

from .rigid_transform import RigidTransform
from .shapes import Shape

__all__ = ["Identifier", "SourceId", "FrameId", "GeometryId", "GeometryFrame",
           "GeometryInstance"]

_counter = itertools.count(1)


class Identifier:
    """A unique integer identifier of a given kind (compare only with the same kind).

    ``Identifier()`` with no value is Drake's default: an invalid identifier
    (``is_valid()`` False) that equals only other invalid ones of its kind.
    """

    __slots__ = ("_value",)
    _KIND = "Identifier"

    def __init_subclass__(cls, **kwargs):
        # A kind is a direct subclass (SourceId, FrameId, GeometryId); a subclass of a
        # kind (e.g. a callable GeometryId) compares, orders and hashes as that kind.
        super().__init_subclass__(**kwargs)
        if Identifier in cls.__bases__:
            cls._KIND = cls.__name__

    def __init__(self, value=None):
        self._value = -1 if value is None else int(value)

    def is_valid(self):
        """False for a default-constructed (invalid) identifier."""
        return self._value >= 0

    @classmethod
    def get_new_id(cls):
        """A new, never used identifier."""
        return cls(next(_counter))

    def get_value(self):
        return self._value

    def __eq__(self, other):
        return getattr(other, "_KIND", None) == self._KIND and other._value == self._value

    def __lt__(self, other):
        if getattr(other, "_KIND", None) != self._KIND:
            return NotImplemented
        return self._value < other._value

    def __hash__(self):
        return hash((self._KIND, self._value))

    def __reduce__(self):
        return (type(self), (self._value,))

    def __repr__(self):
        return f"{self._KIND}({self._value})"


class SourceId(Identifier):
    """Identifies a geometry source (e.g. a MultibodyPlant)."""

    __slots__ = ()


class FrameId(Identifier):
    """Identifies a frame registered with SceneGraph."""

    __slots__ = ()


class GeometryId(Identifier):
    """Identifies a geometry registered with SceneGraph."""

    __slots__ = ()


class GeometryFrame:
    """A frame to register with SceneGraph: a name and a frame group (an int)."""

    def __init__(self, frame_name, frame_group_id=0):
        if not isinstance(frame_name, str) or not frame_name:
            raise ValueError(f"GeometryFrame: frame_name must be a non-empty str, got "
                             f"{frame_name!r}")
        self._name = frame_name
        self._group = int(frame_group_id)
        self._id = FrameId.get_new_id()

    def id(self):
        return self._id

    def name(self):
        return self._name

    def frame_group(self):
        return self._group

    def __repr__(self):
        return f"GeometryFrame({self._name!r}, {self._id})"


class GeometryInstance:
    """A shape posed in its parent frame P, with a name and optional role properties.

    Parameters
    ----------
    X_PG : RigidTransform
        Pose of the geometry frame G in the parent frame P.
    shape : Shape
    name : str
        Unique among the geometries of the same frame (checked at registration).
    """

    def __init__(self, X_PG, shape, name):
        if not isinstance(shape, Shape):
            raise TypeError(f"GeometryInstance: shape must be a Shape, got "
                            f"{type(shape).__name__}")
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"GeometryInstance: name must be a non-empty str, got {name!r}")
        self._X_PG = X_PG if isinstance(X_PG, RigidTransform) else RigidTransform(X_PG)
        self._shape = shape
        self._name = name
        self._id = GeometryId.get_new_id()
        self._proximity = None
        self._illustration = None
        self._perception = None

    def id(self):
        return self._id

    def pose(self):
        """X_PG (RigidTransform)."""
        return self._X_PG

    def set_pose(self, X_PG):
        self._X_PG = X_PG if isinstance(X_PG, RigidTransform) else RigidTransform(X_PG)

    def shape(self):
        return self._shape

    def name(self):
        return self._name

    def set_name(self, name):
        self._name = name

    def set_proximity_properties(self, properties):
        self._proximity = properties

    def set_illustration_properties(self, properties):
        self._illustration = properties

    def set_perception_properties(self, properties):
        self._perception = properties

    def proximity_properties(self):
        return self._proximity

    def illustration_properties(self):
        return self._illustration

    def perception_properties(self):
        return self._perception

    def mutable_proximity_properties(self):
        """The proximity properties, to edit in place (they must have been set)."""
        return self._mutable("proximity", self._proximity)

    def mutable_illustration_properties(self):
        """The illustration properties, to edit in place (they must have been set)."""
        return self._mutable("illustration", self._illustration)

    def mutable_perception_properties(self):
        """The perception properties, to edit in place (they must have been set)."""
        return self._mutable("perception", self._perception)

    def _mutable(self, role, properties):
        if properties is None:
            raise RuntimeError(f"GeometryInstance.mutable_{role}_properties: geometry "
                               f"{self._name!r} has no {role} properties; set them first")
        return properties

    def __repr__(self):
        return f"GeometryInstance({self._name!r}, {self._shape!r}, {self._id})"
