"""Loading mesh data (a path or in memory, through trimesh) and computing convex hulls."""

import io
import os

import numpy as np

__all__ = ["GLTF_EXTENSIONS", "HULL_EXTENSIONS", "R_ZUP_GLTF", "convex_hull_mesh",
           "load_convex_hull_vertices", "load_triangles"]

# The file types whose convex hull we compute (what trimesh reads as a triangle mesh).
HULL_EXTENSIONS = (".obj", ".stl", ".ply", ".off", ".gltf", ".glb", ".dae", ".vtk")


#: glTF files are y-up; Drake, and merganser, read them into their z-up frames by this
#: rotation (+90° about x): p = R_ZUP_GLTF p_gltf = (x, -z, y).
GLTF_EXTENSIONS = (".gltf", ".glb")
R_ZUP_GLTF = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])


def _raw(source):
    """(bytes, description) of the mesh data of MeshSource `source`."""
    where = source.description()
    if source.is_path():
        if not os.path.isfile(where):
            raise RuntimeError(f"Mesh/Convex: cannot read the mesh file {where!r}: it does not "
                               f"exist")
        with open(where, "rb") as f:
            return f.read(), where
    contents = source.in_memory().mesh_file.contents()
    return (contents.encode("utf-8") if isinstance(contents, str) else bytes(contents)), where


def _supporting_files(source):
    """{name: bytes} of an in-memory mesh's supporting files (a glTF's buffers), for
    trimesh's resolver."""
    out = {}
    for name, item in source.in_memory().supporting_files.items():
        if hasattr(item, "contents"):
            data = item.contents()
        else:
            with open(os.fspath(item), "rb") as f:
                data = f.read()
        out[name] = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    return out


def load_triangles(source):
    """The triangles of the mesh data of `source` (a MeshSource or a path), in the
    geometry's (z-up) frame: glTF's y-up coordinates are turned by `R_ZUP_GLTF`, as Drake
    does; a glTF's external buffers are read beside its file (or from an in-memory mesh's
    supporting files).

    Returns
    -------
    vertices : ndarray (nv, 3)
    faces : ndarray (nf, 3) int64
    where : str
        The file (or in-memory mesh) the data came from.

    Raises
    ------
    ImportError
        If trimesh is not installed.
    RuntimeError
        If the file does not exist or trimesh cannot read it (naming the file).
    """
    from ..mesh_source import MeshSource
    if not isinstance(source, MeshSource):
        source = MeshSource(path=source)
    ext = source.extension()
    raw, where = _raw(source)
    try:
        import trimesh
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("Mesh/Convex shapes need the 'trimesh' package "
                          "(pip install trimesh)") from e
    try:
        if source.is_path():
            mesh = trimesh.load(where, force="mesh", process=False)
        else:
            mesh = trimesh.load(io.BytesIO(raw), file_type=ext[1:], force="mesh",
                                process=False, resolver=_supporting_files(source))
    except Exception as err:    # trimesh raises many types for a file it cannot read
        raise RuntimeError(f"Mesh/Convex: cannot read the mesh {where!r}: "
                           f"{type(err).__name__}: {err}") from None
    vertices = np.asarray(getattr(mesh, "vertices", np.zeros((0, 3))), dtype=np.float64)
    faces = np.asarray(getattr(mesh, "faces", np.zeros((0, 3))), dtype=np.int64)
    vertices, faces = vertices.reshape(-1, 3), faces.reshape(-1, 3)
    if ext in GLTF_EXTENSIONS:
        vertices = vertices @ R_ZUP_GLTF.T
    return vertices, faces, where


def _load_vertices(source):
    """All vertices (n, 3) of the mesh data in `source` (MeshSource or path)."""
    from ..mesh_source import MeshSource
    if not isinstance(source, MeshSource):
        source = MeshSource(path=source)
    ext = source.extension()
    where = source.description()
    if ext not in HULL_EXTENSIONS:
        raise RuntimeError(f"MakeConvexHull only applies to {', '.join(HULL_EXTENSIONS)} "
                           f"meshes; unsupported extension {ext!r} for geometry data: {where}")
    if ext == ".vtk":       # a tetrahedral mesh (Drake's compliant hydroelastic meshes)
        from .vtk_volume_mesh import read_vtk_tetrahedra
        return read_vtk_tetrahedra(_raw(source)[0], where)[0], where
    if ext == ".obj":       # the "v x y z" lines (a points-only .obj has no faces)
        raw, where = _raw(source)
        rows = [line.split()[1:4] for line in raw.decode("utf-8", "replace").splitlines()
                if line.startswith("v ")]
        return np.array(rows, dtype=np.float64).reshape(-1, 3), where
    vertices, _, where = load_triangles(source)
    return vertices, where


def load_convex_hull_vertices(source, scale):
    """Vertices (n, 3) of the convex hull of the mesh in `source` (a MeshSource or a path),
    scaled by `scale` (3,).

    Raises
    ------
    ImportError
        If trimesh is not installed.
    RuntimeError
        If the extension is not one of `HULL_EXTENSIONS` or the file does not exist.
    ValueError
        If the data holds no 3D geometry or its hull is degenerate.
    """
    vertices, where = _load_vertices(source)
    if vertices.ndim != 2 or vertices.shape[0] < 4:
        raise ValueError(f"load_convex_hull_vertices: {where!r} has "
                         f"{vertices.shape[0] if vertices.ndim == 2 else 0} vertices; a convex "
                         f"shape needs at least 4")
    vertices = vertices * np.asarray(scale, dtype=np.float64).reshape(1, 3)
    try:
        from scipy.spatial import ConvexHull
        hull = ConvexHull(vertices)
    except Exception as e:  # scipy's QhullError for flat or degenerate point sets
        raise ValueError(f"load_convex_hull_vertices: the vertices of {where!r} have a "
                         f"degenerate (flat) convex hull: {e}") from None
    return np.ascontiguousarray(vertices[hull.vertices])


def convex_hull_mesh(vertices):
    """The convex hull of `vertices` (n, 3) as a PolygonSurfaceMesh of triangles wound
    counter-clockwise seen from outside."""
    from scipy.spatial import ConvexHull

    from ..polygon_surface_mesh import PolygonSurfaceMesh
    hull = ConvexHull(vertices)
    used = np.unique(hull.simplices)
    index = {int(v): k for k, v in enumerate(used)}
    centre = vertices[used].mean(axis=0)
    face_data = []
    for tri in hull.simplices:
        a, b, c = (vertices[i] for i in tri)
        if np.dot(np.cross(b - a, c - a), a - centre) < 0.0:
            tri = tri[::-1]
        face_data += [3] + [index[int(i)] for i in tri]
    return PolygonSurfaceMesh(face_data, vertices[used])
