"""An Eigen-style quaternion value (pydrake's ``Quaternion``), stored as [w, x, y, z].

The plain-array helpers of ``quaternion.py`` do the arithmetic; this class gives pydrake's
object interface over them; a Quaternion is the numpy array [w, x, y, z] itself. A
Quaternion holds a unit quaternion (construction from coefficients checks the norm to
1e-10, as pydrake does).
"""

import numpy as np

from merganser.framework.templates import ScalarCast

from .quaternion import (check_rotation_matrix, quaternion_conjugate, quaternion_multiply,
                         quaternion_to_rotation_matrix, rotation_matrix_to_quaternion)

__all__ = ["Quaternion"]

_UNIT_NORM_TOLERANCE = 1e-10


def _unit(fn, wxyz):
    q = np.array(wxyz, dtype=np.float64).reshape(-1)
    if q.shape != (4,) or not np.all(np.isfinite(q)):
        raise ValueError(f"{fn}: argument wxyz: expected 4 finite values, got {wxyz!r}")
    if abs(np.linalg.norm(q) - 1.0) > _UNIT_NORM_TOLERANCE:
        raise RuntimeError(f"{fn}: argument wxyz: expected a unit quaternion (norm within "
                           f"{_UNIT_NORM_TOLERANCE:g} of 1), got norm {np.linalg.norm(q):.12g}")
    return q


class Quaternion(np.ndarray):
    """A unit quaternion q = [w, x, y, z] (Eigen's order of arguments, Drake's wxyz()).

    A Quaternion is a float64 numpy array of shape (4,) holding [w, x, y, z] (so code that
    takes `RotationMatrix.to_quaternion()` as that array keeps working: indexing, slicing,
    arithmetic, ``.shape``, ``np.asarray``), with pydrake's Quaternion methods on top.
    Arithmetic, ufuncs and slices give plain arrays; ``@`` is the Hamilton product with a
    Quaternion (and the rotation of a (3,) vector), as in pydrake, and `conjugate` the
    quaternion conjugate.

    Parameters
    ----------
    wxyz : array_like, shape (4,), optional
        Identity when omitted. Or give w, x, y, z as four numbers, or ``rotation=`` a
        (3, 3) rotation matrix (or a RotationMatrix).
    """

    def __new__(cls, wxyz=None, x=None, y=None, z=None, *, w=None, rotation=None, other=None):
        if other is not None:                   # pydrake's copy constructor
            if not isinstance(other, Quaternion):
                raise TypeError(f"Quaternion: other must be a Quaternion, got "
                                f"{type(other).__name__}")
            wxyz = np.array(other, dtype=float)
        if rotation is None and wxyz is not None and x is None and (
                hasattr(wxyz, "matrix") or np.shape(wxyz) == (3, 3)):
            rotation = wxyz                     # pydrake's Quaternion(rotation) overload
        if rotation is not None:
            R = check_rotation_matrix(rotation, "Quaternion")
            return cls._raw(rotation_matrix_to_quaternion(R))
        if w is not None:
            wxyz = w
        if x is not None or y is not None or z is not None:
            wxyz = [wxyz, x, y, z]
        return cls._raw(np.array([1.0, 0.0, 0.0, 0.0]) if wxyz is None
                        else _unit("Quaternion", wxyz))

    @classmethod
    def _raw(cls, q):
        """A Quaternion of the (4,) coefficients `q` (not checked)."""
        return np.array(q, dtype=np.float64).reshape(4).view(cls)

    # results of arithmetic, ufuncs and slices are plain arrays (not unit quaternions)
    def __array_wrap__(self, array, context=None, return_scalar=False):
        if return_scalar:
            return array[()]
        return array.view(np.ndarray) if isinstance(array, np.ndarray) else array

    def __getitem__(self, index):
        return self.view(np.ndarray)[index]

    @staticmethod
    def identity():
        """The identity quaternion [1, 0, 0, 0] (pydrake's Identity())."""
        return Quaternion()

    def w(self):
        return float(self.view(np.ndarray)[0])

    def x(self):
        return float(self.view(np.ndarray)[1])

    def y(self):
        return float(self.view(np.ndarray)[2])

    def z(self):
        return float(self.view(np.ndarray)[3])

    def wxyz(self):
        """The coefficients [w, x, y, z], shape (4,) (a plain array, a copy)."""
        return np.array(self.view(np.ndarray))

    def xyz(self):
        """The vector part [x, y, z], shape (3,)."""
        return np.array(self.view(np.ndarray)[1:])

    def set_wxyz(self, wxyz=None, x=None, y=None, z=None, *, w=None):
        """Replace the coefficients: a unit quaternion [w, x, y, z], or the four numbers
        (``set_wxyz(w, x, y, z)`` or ``set_wxyz(w=, x=, y=, z=)``, pydrake's overloads)."""
        if w is not None:
            wxyz = w
        if x is not None or y is not None or z is not None:
            wxyz = [wxyz, x, y, z]
        self.view(np.ndarray)[:] = _unit("Quaternion.set_wxyz", wxyz)

    def rotation(self):
        """The rotation matrix, shape (3, 3)."""
        return quaternion_to_rotation_matrix(self.wxyz())

    def set_rotation(self, rotation):
        """Replace the coefficients by the canonical quaternion of a (3, 3) rotation.

        Raises
        ------
        RuntimeError
            If `rotation` is not orthonormal with determinant +1 (to 1e-5, as pydrake).
        """
        R = check_rotation_matrix(rotation, "Quaternion.set_rotation")
        self.view(np.ndarray)[:] = rotation_matrix_to_quaternion(R)

    def conjugate(self):
        """The conjugate [w, -x, -y, -z] (a Quaternion)."""
        return Quaternion._raw(quaternion_conjugate(self.wxyz()))

    def inverse(self):
        """The inverse (the conjugate, for a unit quaternion)."""
        return self.conjugate()

    def multiply(self, other=None, *, vector=None):
        """The Hamilton product self ⊗ other (a Quaternion), or the rotation by self of a
        vector (shape (3,)) or of the columns of a (3, N) array (``vector=``, pydrake's
        keyword)."""
        if vector is not None:
            other = vector
        if isinstance(other, Quaternion):
            return Quaternion._raw(quaternion_multiply(self.wxyz(), other.wxyz()))
        return self.rotation() @ np.asarray(other, dtype=np.float64)

    def slerp(self, t, other):
        """The spherical linear interpolation from self (t = 0) to `other` (t = 1) along
        the shorter arc (Eigen's slerp: `other` is negated when the two are more than a
        half turn apart; nearly equal quaternions are interpolated linearly).

        Parameters
        ----------
        t : float
            The interpolation parameter, in [0, 1].
        other : Quaternion

        Returns
        -------
        Quaternion
        """
        if not isinstance(other, Quaternion):
            raise TypeError(f"Quaternion.slerp: argument other: expected a Quaternion, got "
                            f"{type(other).__name__}")
        a, b = self.wxyz(), other.wxyz()
        d = float(a @ b)
        cos_theta = abs(d)
        t = float(t)
        if cos_theta >= 1.0 - np.finfo(np.float64).eps:
            s0, s1 = 1.0 - t, t
        else:
            theta = np.arccos(cos_theta)
            sin_theta = np.sin(theta)
            s0, s1 = np.sin((1.0 - t) * theta) / sin_theta, np.sin(t * theta) / sin_theta
        if d < 0.0:
            s1 = -s1
        q = s0 * a + s1 * b
        return Quaternion._raw(q / np.linalg.norm(q))

    def __matmul__(self, other):
        if isinstance(other, Quaternion) or np.shape(other)[:1] == (3,):
            return self.multiply(other)
        return self.view(np.ndarray) @ other

    def __reduce__(self):
        return (Quaternion._raw, (self.wxyz(),))

    #: ``q.cast[float]()``: a copy (Drake's cast<U>(); float64 only).
    cast = ScalarCast()

    def __repr__(self):
        w, x, y, z = self.view(np.ndarray).tolist()
        return f"Quaternion(w={w!r}, x={x!r}, y={y!r}, z={z!r})"

    __str__ = __repr__
