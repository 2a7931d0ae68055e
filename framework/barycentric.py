"""BarycentricMesh: interpolation on a grid split into simplices (Drake's
math::BarycentricMesh).

Each grid cell (a box) is split into n! simplices (the Freudenthal/Kuhn
triangulation): a point with fractional coordinates f in its cell lies in the simplex
whose vertices step from the cell's lower corner one dimension at a time, in the order
of decreasing f. Its n + 1 barycentric weights are then 1 − f₍₁₎, f₍₁₎ − f₍₂₎, …, f₍ₙ₎
for the sorted f, so interpolation reproduces affine functions exactly. Points outside
the grid are projected onto it first.
"""

import numpy as np


class BarycentricMesh:
    """A grid ``mesh_grid`` (one increasing set of coordinates per dimension) with mesh
    points indexed with the first dimension varying fastest, as in Drake.

    Parameters
    ----------
    mesh_grid : list of iterables of float
        Coordinates per dimension (sets, lists or arrays; sorted, duplicates dropped).
    """

    def __init__(self, mesh_grid):
        self._grid = [np.array(sorted(set(float(v) for v in axis))) for axis in mesh_grid]
        if not self._grid or any(axis.size == 0 for axis in self._grid):
            raise ValueError("BarycentricMesh: every dimension needs at least one coordinate")
        sizes = [axis.size for axis in self._grid]
        self._stride = np.cumprod([1] + sizes[:-1]).astype(int)
        self._num_points = int(np.prod(sizes))

    def get_input_grid(self):
        return [set(axis.tolist()) for axis in self._grid]

    def get_input_size(self):
        return len(self._grid)

    def get_num_mesh_points(self):
        return self._num_points

    def get_num_interpolants(self):
        """Vertices per interpolation: one more than the dimensions with more than one
        coordinate."""
        return 1 + sum(axis.size > 1 for axis in self._grid)

    def get_mesh_point(self, index):
        """Mesh point ``index``, shape (input size,)."""
        if not 0 <= int(index) < self._num_points:
            raise IndexError(f"BarycentricMesh.get_mesh_point: index {index} out of range for "
                             f"{self._num_points} mesh points")
        index = int(index)
        point = np.empty(len(self._grid))
        for d, axis in enumerate(self._grid):
            point[d] = axis[index // self._stride[d] % axis.size]
        return point

    def get_all_mesh_points(self):
        """Every mesh point, shape (input size, num mesh points)."""
        return np.column_stack([self.get_mesh_point(i) for i in range(self._num_points)])

    def eval_barycentric_weights(self, input):
        """(indices, weights): the mesh points (shape (k,), int, k = num interpolants)
        and weights (summing to 1, nonnegative) interpolating at ``input`` (shape (n,)),
        in Drake's order: from the upper corner of the point's grid cell down, one
        dimension at a time in increasing order of the point's fractional position (a
        coordinate beyond the grid is moved to its edge)."""
        x = np.asarray(input, dtype=float).reshape(-1)
        n = len(self._grid)
        if x.size != n:
            raise ValueError(f"BarycentricMesh.eval_barycentric_weights: input has size "
                             f"{x.size}, expected {n}")
        corner = 0
        positions = []              # (fractional position in the cell, dimension)
        inside = np.zeros(n, dtype=bool)
        for d, axis in enumerate(self._grid):
            if axis.size == 1:
                continue
            right = int(np.searchsorted(axis, x[d], side="left"))
            if right == axis.size or right == 0:        # beyond an edge: on that edge
                right = min(right, axis.size - 1)
                position = 1.0
            else:
                inside[d] = True
                position = (x[d] - axis[right - 1]) / (axis[right] - axis[right - 1])
            corner += self._stride[d] * right
            positions.append((position, d))
        positions.sort()
        k = len(positions) + 1
        indices = np.empty(k, dtype=int)
        weights = np.empty(k)
        indices[0] = corner
        weights[0] = positions[0][0] if positions else 1.0
        for i in range(1, k):
            d = positions[i - 1][1]
            if inside[d]:
                corner -= self._stride[d]
            indices[i] = corner
            weights[i] = (1.0 - positions[i - 1][0] if i == k - 1
                          else positions[i][0] - positions[i - 1][0])
        return indices, weights

    def eval(self, mesh_values, input):
        """The interpolated value at ``input`` of ``mesh_values`` (shape (m, num mesh
        points)), shape (m,)."""
        values = np.atleast_2d(np.asarray(mesh_values, dtype=float))
        if values.shape[1] != self._num_points:
            raise ValueError(f"BarycentricMesh.eval: mesh_values has {values.shape[1]} columns, "
                             f"expected {self._num_points}")
        indices, weights = self.eval_barycentric_weights(input)
        return values[:, indices] @ weights

    def mesh_values_from(self, vector_func):
        """``vector_func(point)`` at every mesh point, shape (m, num mesh points)."""
        return np.column_stack([np.atleast_1d(np.asarray(vector_func(self.get_mesh_point(i)),
                                                         dtype=float))
                                for i in range(self._num_points)])
