"""Type-named element indices, as pydrake's BodyIndex, JointIndex, ModelInstanceIndex...

Each is a plain ``int`` subclass: it indexes, compares, hashes and does arithmetic as an
int (arithmetic gives a plain int), numpy and the kernels take it as an int, and only its
``repr`` (``BodyIndex(0)``) and ``isinstance`` tell its kind. The tree returns them from
``element.index()`` and ``element.model_instance()``.

``world_index()``, ``world_frame_index()``, ``world_model_instance()`` and
``default_model_instance()`` are Drake's free functions for the fixed indices.
"""

__all__ = [
    "BodyIndex",
    "ForceElementIndex",
    "FrameIndex",
    "JointActuatorIndex",
    "JointIndex",
    "ModelInstanceIndex",
    "default_model_instance",
    "world_frame_index",
    "world_index",
    "world_model_instance",
]


class _TypedIndex(int):
    """An int that prints as its kind: ``BodyIndex(3)``."""

    __slots__ = ()

    def __repr__(self):
        return f"{type(self).__name__}({int(self)})"

    __str__ = int.__repr__

    def __reduce__(self):
        return (type(self), (int(self),))


class BodyIndex(_TypedIndex):
    """Index of a RigidBody in its plant (0 is the world body)."""

    __slots__ = ()


class FrameIndex(_TypedIndex):
    """Index of a Frame in its plant (0 is the world frame)."""

    __slots__ = ()


class JointIndex(_TypedIndex):
    """Index of a Joint in its plant."""

    __slots__ = ()


class JointActuatorIndex(_TypedIndex):
    """Index of a JointActuator in its plant."""

    __slots__ = ()


class ForceElementIndex(_TypedIndex):
    """Index of a ForceElement in its plant (0 is the gravity field)."""

    __slots__ = ()


class ModelInstanceIndex(_TypedIndex):
    """Index of a model instance (0: world, 1: default, then one per added model)."""

    __slots__ = ()


def world_index():
    """BodyIndex of the world body, 0."""
    return BodyIndex(0)


def world_frame_index():
    """FrameIndex of the world frame, 0."""
    return FrameIndex(0)


def world_model_instance():
    """ModelInstanceIndex of the world model instance, 0."""
    return ModelInstanceIndex(0)


def default_model_instance():
    """ModelInstanceIndex of the default model instance, 1."""
    return ModelInstanceIndex(1)
