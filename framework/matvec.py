"""Matrix-vector products shared by the blocks' Python calcs and their compiled forms.

A block whose calc multiplies a matrix by a vector calls these kernels in both paths, so
that its compiled form gives the same bits: numpy routes small products to different
BLAS routines by shape (a 1 x n matrix goes to a dot product), which a compiled kernel
does not reproduce. Explicit loops, summing left to right.
"""

from .compilation import kernel

__all__ = ["matvec", "matvec_add"]


@kernel(inline=False)
def matvec(M, x, out):
    """out = M x.

    Parameters
    ----------
    M : ndarray, shape (k, n)
    x : ndarray, shape (n,)
    out : ndarray, shape (k,)
        Written (must not alias x).
    """
    for i in range(M.shape[0]):
        acc = 0.0
        for j in range(M.shape[1]):
            acc += M[i, j] * x[j]
        out[i] = acc


@kernel(inline=False)
def matvec_add(M, x, out):
    """out += M x (the product summed first, then added), shapes as `matvec`."""
    for i in range(M.shape[0]):
        acc = 0.0
        for j in range(M.shape[1]):
            acc += M[i, j] * x[j]
        out[i] += acc
