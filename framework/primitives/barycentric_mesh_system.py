"""BarycentricMeshSystem: a function tabulated on a mesh, as a system (Drake's)."""

import numpy as np

from ..barycentric import BarycentricMesh
from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem


class BarycentricMeshSystem(LeafSystem):
    """y = the barycentric interpolation of ``output_values`` at u.

    ::

        u0 ──▶ ┌───────────────────────┐
               │ BarycentricMeshSystem │ ──▶ y0
               └───────────────────────┘

    Parameters
    ----------
    mesh : BarycentricMesh
    output_values : array_like, shape (m, mesh.get_num_mesh_points())
        The output at each mesh point.
    """

    @lists_valid_keywords
    def __init__(self, mesh, output_values):
        super().__init__()
        if not isinstance(mesh, BarycentricMesh):
            raise TypeError(f"BarycentricMeshSystem: mesh must be a BarycentricMesh, got "
                            f"{type(mesh).__name__}")
        values = np.atleast_2d(np.array(output_values, dtype=float))
        if values.shape[1] != mesh.get_num_mesh_points():
            raise ValueError(f"BarycentricMeshSystem: output_values must have "
                             f"{mesh.get_num_mesh_points()} columns, got {values.shape[1]}")
        values.flags.writeable = False
        self._mesh, self._values = mesh, values
        self.declare_vector_input_port("u0", mesh.get_input_size())
        self.declare_vector_output_port("y0", values.shape[0], self._calc,
                                        {self.input_port_ticket(0)})

    def get_mesh(self):
        return self._mesh

    def get_output_values(self):
        """The tabulated outputs, shape (m, num mesh points), read-only."""
        return self._values

    def _calc(self, context, output):
        output.set_value(self._mesh.eval(self._values, self.get_input_port(0).eval(context)))
