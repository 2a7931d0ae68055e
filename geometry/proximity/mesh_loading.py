"""Loading mesh files (through trimesh) and computing their convex hulls."""

import numpy as np

__all__ = ["load_convex_hull_vertices"]


def load_convex_hull_vertices(filename, scale):
    """Vertices (n, 3) of the convex hull of the mesh in `filename`, scaled by `scale` (3,).

    Raises
    ------
    ImportError
        If trimesh is not installed.
    ValueError
        If the file holds no 3D geometry or its hull is degenerate.
    """
    try:
        import trimesh
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("Mesh/Convex shapes need the 'trimesh' package "
                          "(pip install trimesh)") from e
    mesh = trimesh.load(filename, force="mesh", process=False)
    vertices = np.asarray(getattr(mesh, "vertices", np.zeros((0, 3))), dtype=np.float64)
    if vertices.ndim != 2 or vertices.shape[0] < 4:
        raise ValueError(f"load_convex_hull_vertices: {filename!r} has "
                         f"{vertices.shape[0] if vertices.ndim == 2 else 0} vertices; a convex "
                         f"shape needs at least 4")
    vertices = vertices * np.asarray(scale, dtype=np.float64).reshape(1, 3)
    try:
        from scipy.spatial import ConvexHull
        hull = ConvexHull(vertices)
    except Exception as e:  # scipy's QhullError for flat or degenerate point sets
        raise ValueError(f"load_convex_hull_vertices: the vertices of {filename!r} have a "
                         f"degenerate (flat) convex hull: {e}") from None
    return np.ascontiguousarray(vertices[hull.vertices])
