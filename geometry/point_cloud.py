"""PointCloud, Fields and BaseField: a set of points with optional normals and colors
(pydrake.perception's PointCloud, float only).

A cloud of ``size()`` points stores, for each field it was made with, one column per
point: ``xyzs()`` (3, N) float32 positions (m, in the cloud's frame), ``normals()`` (3, N)
float32 unit normals and ``rgbs()`` (3, N) uint8 colors. A field the cloud does not have
raises RuntimeError when read. New points (at construction and `resize`) get Drake's
defaults: NaN positions and normals (`PointCloud.kDefaultValue`), black colors (0).

Descriptors (Drake's ``DescriptorType``) are not supported: ``Fields`` holds base fields
only.
"""

from __future__ import annotations

import numpy as np

from merganser.framework.drake_enum import DrakeIntEnum

__all__ = ["BaseField", "Fields", "PointCloud"]


class BaseField(DrakeIntEnum):
    """The fields a PointCloud can hold, as bit flags (``kXYZs | kRGBs`` is an int, as
    pydrake's arithmetic enum gives)."""

    kNone = 0
    kXYZs = 1 << 1
    kNormals = 1 << 2
    kRGBs = 1 << 3


_FLAG_OF = {"xyzs": "kXYZs", "normals": "kNormals", "rgbs": "kRGBs"}
_ALL_BITS = BaseField.kXYZs | BaseField.kNormals | BaseField.kRGBs
_ARRAYS = ((BaseField.kXYZs, "xyzs", np.float32, np.nan),
           (BaseField.kNormals, "normals", np.float32, np.nan),
           (BaseField.kRGBs, "rgbs", np.uint8, 0))


def _base_bits(fn, value):
    """The int bit mask of a Fields, a BaseField or an int."""
    if isinstance(value, Fields):
        return value.base_fields()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{fn}: base_fields must be a BaseField, an int of BaseField bits or "
                        f"a Fields, got {type(value).__name__}")
    bits = int(value)
    if bits < 0 or bits & ~int(_ALL_BITS):
        raise ValueError(f"{fn}: base_fields must combine BaseField.kXYZs, kNormals and "
                         f"kRGBs (bits {int(_ALL_BITS)}), got {bits}")
    return bits


class Fields:
    """A set of PointCloud fields (Drake's pc_flags::Fields, base fields only).

    Parameters
    ----------
    base_fields : BaseField or int
        A BaseField or an or-combination of them (``BaseField.kXYZs | BaseField.kRGBs``).

    Raises
    ------
    ValueError
        For bits that are no BaseField.
    """

    __slots__ = ("_bits",)

    def __init__(self, base_fields):
        self._bits = _base_bits("Fields", base_fields)

    def base_fields(self):
        """The fields as an int bit mask."""
        return self._bits

    def has_base_fields(self):
        """True unless the set is empty (kNone)."""
        return self._bits != 0

    def contains(self, rhs):
        """True when every field of `rhs` (Fields, BaseField or int) is in this set."""
        bits = _base_bits("Fields.contains", rhs)
        return self._bits & bits == bits

    def __or__(self, other):
        return Fields(self._bits | _base_bits("Fields.__or__", other))

    __ror__ = __or__

    def __and__(self, other):
        return Fields(self._bits & _base_bits("Fields.__and__", other))

    __rand__ = __and__

    def __eq__(self, other):
        if isinstance(other, (Fields, int, np.integer)) and not isinstance(other, bool):
            return self._bits == _base_bits("Fields.__eq__", other)
        return NotImplemented

    def __hash__(self):
        return hash(self._bits)

    def __repr__(self):
        return f"Fields(base_fields={self._bits})"


class PointCloud:
    """Points with optional normals and colors (see the module docstring).

    Parameters
    ----------
    new_size : int or PointCloud
        Number of points (default 0), or a PointCloud to copy (pydrake's
        ``PointCloud(other)``).
    fields : Fields, BaseField or int
        The fields held (default xyzs only).
    other : PointCloud, optional
        A cloud to copy (pydrake's keyword).

    Raises
    ------
    ValueError
        For a negative size or no fields.
    """

    #: Element types: positions and normals, colors, descriptors (as Drake's T, C, D).
    T = np.float32
    C = np.uint8
    D = np.float32
    #: The value of a new point's position and normal.
    kDefaultValue = float("nan")

    def __init__(self, new_size=0, fields=BaseField.kXYZs, *, other=None):
        if isinstance(new_size, PointCloud):
            new_size, other = 0, new_size
        if other is not None:
            if not isinstance(other, PointCloud):
                raise TypeError(f"PointCloud: other must be a PointCloud, got "
                                f"{type(other).__name__}")
            self._bits = other._bits
            self._arrays = {name: array.copy() for name, array in other._arrays.items()}
            return
        size = self._size_of("PointCloud", "new_size", new_size)
        self._bits = _base_bits("PointCloud", fields)
        if self._bits == 0:
            raise ValueError("PointCloud: fields must hold at least one BaseField (kXYZs, "
                             "kNormals or kRGBs), got Fields(base_fields=0)")
        self._arrays = {name: np.full((3, size), default, dtype=dtype)
                        for bit, name, dtype, default in _ARRAYS if self._bits & bit}

    @staticmethod
    def _size_of(fn, name, value):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
                or value < 0:
            raise ValueError(f"{fn}: {name} must be an int >= 0, got {value!r}")
        return int(value)

    @staticmethod
    def is_default_value(value):
        """True for the default (NaN) position or normal value."""
        return bool(np.isnan(value))

    @staticmethod
    def is_invalid_value(value):
        """True for a non-finite position or normal value."""
        return not bool(np.isfinite(value))

    # ---- size and fields -----------------------------------------------------------------
    def fields(self):
        """The Fields held."""
        return Fields(self._bits)

    def size(self):
        """The number of points."""
        return next(iter(self._arrays.values())).shape[1]

    def resize(self, new_size):
        """Keep the first `new_size` points (or add points with the default values)."""
        size = self._size_of("PointCloud.resize", "new_size", new_size)
        old = self.size()
        for bit, name, dtype, default in _ARRAYS:
            if self._bits & bit:
                array = np.full((3, size), default, dtype=dtype)
                keep = min(old, size)
                array[:, :keep] = self._arrays[name][:, :keep]
                self._arrays[name] = array

    def _array(self, fn, name):
        array = self._arrays.get(name)
        if array is None:
            raise RuntimeError(f"PointCloud.{fn}: this cloud has no {name} (its fields are "
                               f"{self.fields()!r}); make it with Fields(BaseField."
                               f"{_FLAG_OF[name]})")
        return array

    def _column(self, fn, name, i):
        array = self._array(fn, name)
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) \
                or not 0 <= i < array.shape[1]:
            raise IndexError(f"PointCloud.{fn}: i must be an int in [0, {array.shape[1]}), "
                             f"got {i!r}")
        return array[:, int(i)]

    @staticmethod
    def _read_only(array):
        view = array.view()
        view.flags.writeable = False
        return view

    # ---- xyzs ----------------------------------------------------------------------------
    def has_xyzs(self):
        """True when the cloud holds positions."""
        return "xyzs" in self._arrays

    def xyzs(self):
        """The positions, ndarray (3, N) float32 (read-only view), m."""
        return self._read_only(self._array("xyzs", "xyzs"))

    def mutable_xyzs(self):
        """The positions, ndarray (3, N) float32, writable in place."""
        return self._array("mutable_xyzs", "xyzs")

    def xyz(self, i):
        """The position of point `i`, ndarray (3,) (a copy)."""
        return self._column("xyz", "xyzs", i).copy()

    def mutable_xyz(self, i):
        """The position of point `i`, ndarray (3,) writable in place."""
        return self._column("mutable_xyz", "xyzs", i)

    # ---- normals -------------------------------------------------------------------------
    def has_normals(self):
        """True when the cloud holds normals."""
        return "normals" in self._arrays

    def normals(self):
        """The normals, ndarray (3, N) float32 (read-only view)."""
        return self._read_only(self._array("normals", "normals"))

    def mutable_normals(self):
        """The normals, ndarray (3, N) float32, writable in place."""
        return self._array("mutable_normals", "normals")

    def normal(self, i):
        """The normal of point `i`, ndarray (3,) (a copy)."""
        return self._column("normal", "normals", i).copy()

    def mutable_normal(self, i):
        """The normal of point `i`, ndarray (3,) writable in place."""
        return self._column("mutable_normal", "normals", i)

    # ---- rgbs ----------------------------------------------------------------------------
    def has_rgbs(self):
        """True when the cloud holds colors."""
        return "rgbs" in self._arrays

    def rgbs(self):
        """The colors, ndarray (3, N) uint8 (read-only view)."""
        return self._read_only(self._array("rgbs", "rgbs"))

    def mutable_rgbs(self):
        """The colors, ndarray (3, N) uint8, writable in place."""
        return self._array("mutable_rgbs", "rgbs")

    def rgb(self, i):
        """The color of point `i`, ndarray (3,) uint8 (a copy)."""
        return self._column("rgb", "rgbs", i).copy()

    def mutable_rgb(self, i):
        """The color of point `i`, ndarray (3,) uint8 writable in place."""
        return self._column("mutable_rgb", "rgbs", i)

    # ---- whole-cloud operations ----------------------------------------------------------
    def set_from(self, other):
        """Copy every point of `other`, which must hold the same fields (resized to its
        size).

        Raises
        ------
        RuntimeError
            When the fields differ.
        """
        if not isinstance(other, PointCloud):
            raise TypeError(f"PointCloud.set_from: other must be a PointCloud, got "
                            f"{type(other).__name__}")
        if other._bits != self._bits:
            raise RuntimeError(f"PointCloud.set_from: other must have this cloud's fields "
                               f"{self.fields()!r}, got {other.fields()!r}")
        self._arrays = {name: array.copy() for name, array in other._arrays.items()}

    def crop(self, lower_xyz, upper_xyz):
        """A new cloud of the points with lower_xyz <= xyz <= upper_xyz (every field kept).

        Raises
        ------
        RuntimeError
            Without xyzs.
        ValueError
            When a bound is not (3,) or lower > upper.
        """
        xyzs = self._array("crop", "xyzs")
        lower = np.asarray(lower_xyz, dtype=float).reshape(-1)
        upper = np.asarray(upper_xyz, dtype=float).reshape(-1)
        if lower.shape != (3,) or upper.shape != (3,) or np.any(lower > upper):
            raise ValueError(f"PointCloud.crop: lower_xyz and upper_xyz must be (3,) with "
                             f"lower <= upper, got {lower.tolist()} and {upper.tolist()}")
        keep = np.all((xyzs >= lower[:, None]) & (xyzs <= upper[:, None]), axis=0)
        out = PointCloud(int(keep.sum()), self._bits)
        out._arrays = {name: array[:, keep].copy() for name, array in self._arrays.items()}
        return out

    def __copy__(self):
        return PointCloud(self)

    def __deepcopy__(self, memo):
        return PointCloud(self)

    def __repr__(self):
        return f"<PointCloud {self.size()} points, {self.fields()!r}>"
