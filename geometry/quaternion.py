"""Unit-quaternion helpers in [w, x, y, z] order.

A quaternion q = [w, x, y, z] with |q| = 1 represents the rotation by angle θ about the
unit axis u with w = cos(θ/2), [x, y, z] = sin(θ/2) u. q and -q represent the same
rotation; the canonical representative has w >= 0 (Drake's convention for
``RotationMatrix.ToQuaternion``).

These are small plain-numpy functions for the API boundary (RotationMatrix,
RigidTransform, free-body poses); compiled kernels carry their own loops.
"""

import numpy as np

__all__ = [
    "EIGEN_ROTATION_TOLERANCE",
    "check_rotation_matrix",
    "normalize_quaternion",
    "quaternion_conjugate",
    "quaternion_multiply",
    "quaternion_to_rotation_matrix",
    "rotation_matrix_to_quaternion",
]

# A quaternion whose norm is below this is treated as zero (no rotation can be recovered).
_MIN_QUATERNION_NORM = 1e-12


def _as_quaternion(q, caller, arg="q"):
    """Return `q` as a float64 array of shape (4,), raising with the caller's name."""
    q = np.asarray(q, dtype=np.float64)
    if q.shape != (4,):
        raise ValueError(
            f"{caller}: {arg} must be a quaternion [w, x, y, z] of shape (4,), got shape {q.shape}"
        )
    if not np.all(np.isfinite(q)):
        raise ValueError(f"{caller}: {arg} must be finite, got {q.tolist()}")
    return q


def normalize_quaternion(q):
    """Return the unit quaternion q / |q|.

    Parameters
    ----------
    q : array_like, shape (4,)
        Quaternion [w, x, y, z]; any non-zero finite norm.

    Returns
    -------
    ndarray, shape (4,)
        The unit quaternion with the same direction as `q` (the sign is kept).

    Raises
    ------
    ValueError
        If `q` is not of shape (4,), is not finite, or its norm is (near) zero.
    """
    q = _as_quaternion(q, "normalize_quaternion")
    norm = np.linalg.norm(q)
    if norm < _MIN_QUATERNION_NORM:
        raise ValueError(
            f"normalize_quaternion: q has norm {norm:.3g}, expected a non-zero quaternion "
            f"(a zero quaternion represents no rotation), got {q.tolist()}"
        )
    return q / norm


def quaternion_conjugate(q):
    """Return the conjugate [w, -x, -y, -z] (the inverse rotation for a unit quaternion).

    Parameters
    ----------
    q : array_like, shape (4,)
        Quaternion [w, x, y, z].

    Returns
    -------
    ndarray, shape (4,)
    """
    q = _as_quaternion(q, "quaternion_conjugate")
    return np.array([q[0], -q[1], -q[2], -q[3]])


def quaternion_multiply(q_AB, q_BC):
    """Return the Hamilton product q_AC = q_AB ⊗ q_BC.

    With the rotation-matrix correspondence of :func:`quaternion_to_rotation_matrix`,
    the product composes rotations like matrices: R(q_AB ⊗ q_BC) = R(q_AB) R(q_BC).

    Parameters
    ----------
    q_AB, q_BC : array_like, shape (4,)
        Quaternions [w, x, y, z].

    Returns
    -------
    ndarray, shape (4,)
        The product, not renormalized.
    """
    w1, x1, y1, z1 = _as_quaternion(q_AB, "quaternion_multiply", "q_AB")
    w2, x2, y2, z2 = _as_quaternion(q_BC, "quaternion_multiply", "q_BC")
    return np.array(
        [
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
        ]
    )


def quaternion_to_rotation_matrix(q):
    """Return the rotation matrix of a quaternion, normalizing it implicitly.

    The formula divides by |q|², so a non-unit (but non-zero) quaternion gives the
    rotation of q / |q| without a square root, as Drake does.

    Parameters
    ----------
    q : array_like, shape (4,)
        Quaternion [w, x, y, z], non-zero and finite.

    Returns
    -------
    ndarray, shape (3, 3)
        The orthonormal matrix R with det(R) = +1.

    Raises
    ------
    ValueError
        If `q` has the wrong shape, is not finite or is (near) zero.
    """
    w, x, y, z = q = _as_quaternion(q, "quaternion_to_rotation_matrix")
    norm_sq = float(q @ q)
    if norm_sq < _MIN_QUATERNION_NORM**2:
        raise ValueError(
            f"quaternion_to_rotation_matrix: q has norm {np.sqrt(norm_sq):.3g}, expected a "
            f"non-zero quaternion [w, x, y, z], got {q.tolist()}"
        )
    s = 2.0 / norm_sq
    wx, wy, wz = s * w * x, s * w * y, s * w * z
    xx, xy, xz = s * x * x, s * x * y, s * x * z
    yy, yz, zz = s * y * y, s * y * z, s * z * z
    return np.array(
        [
            [1.0 - (yy + zz), xy - wz, xz + wy],
            [xy + wz, 1.0 - (xx + zz), yz - wx],
            [xz - wy, yz + wx, 1.0 - (xx + yy)],
        ]
    )


def rotation_matrix_to_quaternion(R):
    """Return the canonical unit quaternion (w >= 0) of a rotation matrix.

    Uses the largest of the four "diagonal" combinations (trace, or one of the diagonal
    elements) as the pivot so that the division is always well conditioned.

    Parameters
    ----------
    R : array_like, shape (3, 3)
        A rotation matrix (orthonormal, det +1); not validated here.

    Returns
    -------
    ndarray, shape (4,)
        [w, x, y, z] with unit norm and w >= 0.
    """
    R = np.asarray(R, dtype=np.float64)
    if R.shape != (3, 3):
        raise ValueError(
            f"rotation_matrix_to_quaternion: R must have shape (3, 3), got shape {R.shape}"
        )
    trace = R[0, 0] + R[1, 1] + R[2, 2]
    # 4 w² = 1 + trace, 4 x² = 1 + 2 R00 - trace, and so on; pivot on the largest.
    pivots = (trace, R[0, 0], R[1, 1], R[2, 2])
    k = int(np.argmax(pivots))
    if k == 0:
        t = 1.0 + trace
        q = np.array([t, R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    elif k == 1:
        t = 1.0 + 2.0 * R[0, 0] - trace
        q = np.array([R[2, 1] - R[1, 2], t, R[0, 1] + R[1, 0], R[0, 2] + R[2, 0]])
    elif k == 2:
        t = 1.0 + 2.0 * R[1, 1] - trace
        q = np.array([R[0, 2] - R[2, 0], R[0, 1] + R[1, 0], t, R[1, 2] + R[2, 1]])
    else:
        t = 1.0 + 2.0 * R[2, 2] - trace
        q = np.array([R[1, 0] - R[0, 1], R[0, 2] + R[2, 0], R[1, 2] + R[2, 1], t])
    q /= np.linalg.norm(q)
    if q[0] < 0.0:
        q = -q
    return q


#: Loose tolerance of pydrake's Eigen value types (Quaternion, AngleAxis, Isometry3) on the
#: orthonormality and determinant of a rotation matrix they are given.
EIGEN_ROTATION_TOLERANCE = 1e-5


def check_rotation_matrix(R, caller, arg="rotation"):
    """`R` as a float64 (3, 3) rotation matrix, checked as pydrake's Eigen value types
    check one: max |R Rᵀ - I| and |det R - 1| below `EIGEN_ROTATION_TOLERANCE`.

    Parameters
    ----------
    R : array_like (3, 3) or an object with ``matrix()`` (a RotationMatrix)
    caller, arg : str
        The function and the argument named by the error.

    Returns
    -------
    numpy.ndarray, shape (3, 3)

    Raises
    ------
    RuntimeError
        If `R` is not a (3, 3) matrix, not orthonormal or a reflection (pydrake raises
        RuntimeError for these).
    """
    a = np.array(R.matrix() if hasattr(R, "matrix") else R, dtype=np.float64)
    if a.shape != (3, 3) or not np.all(np.isfinite(a)):
        raise RuntimeError(f"{caller}: argument {arg}: expected a finite (3, 3) rotation "
                           f"matrix, got {a.tolist()}")
    identity_error = np.max(np.abs(a @ a.T - np.eye(3)))
    if identity_error >= EIGEN_ROTATION_TOLERANCE:
        raise RuntimeError(f"{caller}: argument {arg}: expected an orthonormal matrix "
                           f"(max |R Rᵀ - I| < {EIGEN_ROTATION_TOLERANCE:g}), got "
                           f"max |R Rᵀ - I| = {identity_error:.3g}")
    det = np.linalg.det(a)
    if abs(det - 1.0) >= EIGEN_ROTATION_TOLERANCE:
        raise RuntimeError(f"{caller}: argument {arg}: expected a rotation (determinant "
                           f"+1), got determinant {det:.6g}")
    return a
