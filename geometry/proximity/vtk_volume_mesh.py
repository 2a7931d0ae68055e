"""Tetrahedral meshes from VTK files (``.vtk``), as Drake reads them for hydroelastic
contact.

Drake's model files give a compliant hydroelastic geometry its own tetrahedral mesh in
the legacy VTK format (``# vtk DataFile Version 3.0``, ``ASCII``, ``DATASET
UNSTRUCTURED_GRID``, ``POINTS``, ``CELLS`` and ``CELL_TYPES`` all tetrahedra, type 10).
`read_vtk_tetrahedra` reads such a file; `boundary_triangles` gives the surface of the
tetrahedra (the faces that belong to one tetrahedron only, wound outward) and
`distance_to_boundary` the distance of points to it, from which
`geometry.hydroelastic.meshes.make_tetrahedral_volume_mesh` makes Drake's pressure
field.
"""

import numpy as np

__all__ = ["VTK_TETRA", "boundary_triangles", "distance_to_boundary", "load_vtk_tetrahedra",
           "read_vtk_tetrahedra"]

#: The VTK cell type of a tetrahedron.
VTK_TETRA = 10


def _fail(where, message):
    raise ValueError(f"read_vtk_tetrahedra: {where}: {message}")


def load_vtk_tetrahedra(source, scale):
    """`read_vtk_tetrahedra` of the ``.vtk`` mesh data of `source` (a MeshSource), its
    vertices scaled by `scale` (3,)."""
    if source.is_path():
        where = str(source.path())
        try:
            with open(where, "rb") as f:
                raw = f.read()
        except OSError as err:
            raise RuntimeError(f"load_vtk_tetrahedra: cannot read the mesh file {where!r}: "
                               f"{err.strerror}") from None
    else:
        where = source.description()
        raw = source.in_memory().mesh_file.contents()
        raw = raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)
    return read_vtk_tetrahedra(raw, where, scale)


def read_vtk_tetrahedra(raw, where, scale=(1.0, 1.0, 1.0)):
    """The vertices and tetrahedra of a legacy ASCII VTK unstructured grid.

    Parameters
    ----------
    raw : bytes
        The file's content.
    where : str
        The file (or in-memory mesh) named in errors.
    scale : array_like (3,)
        Factors applied to the vertices (before the tetrahedra are wound).

    Returns
    -------
    vertices : ndarray (nv, 3)
    tetrahedra : ndarray (nt, 4) int64
        Vertex indices, each tetrahedron wound so that its signed volume is positive.

    Raises
    ------
    ValueError
        Naming `where` and the line: not ASCII legacy VTK, not an unstructured grid, a
        cell that is not a tetrahedron, an index out of range, a malformed or short
        section, or a tetrahedron without volume.
    """
    lines = raw.decode("utf-8", "replace").splitlines()
    if not lines or not lines[0].lower().startswith("# vtk datafile"):
        _fail(where, "not a legacy VTK file (its first line must be '# vtk DataFile "
                     "Version ...')")
    if len(lines) < 4 or lines[2].strip().upper() != "ASCII":
        _fail(where, f"line 3: only ASCII VTK files are read, got "
                     f"{lines[2].strip() if len(lines) > 2 else 'nothing'!r}")
    tokens, token_line = [], []
    for number, line in enumerate(lines[3:], start=4):
        for token in line.split():
            tokens.append(token)
            token_line.append(number)
    position = 0

    def take(count, what):
        nonlocal position
        if count < 0:
            _fail(where, f"line {token_line[position - 1]}: a negative count in {what}")
        if position + count > len(tokens):
            _fail(where, f"the file ends inside {what}")
        out = tokens[position:position + count]
        position += count
        return out

    def integers(values, what):
        try:
            return np.array([int(v) for v in values], dtype=np.int64)
        except ValueError:
            _fail(where, f"line {token_line[position - 1]}: {what} must be integers")

    vertices = cells = types = None
    while position < len(tokens):
        keyword = tokens[position].upper()
        line = token_line[position]
        position += 1
        if keyword == "DATASET":
            kind = take(1, "DATASET")[0].upper()
            if kind != "UNSTRUCTURED_GRID":
                _fail(where, f"line {line}: DATASET must be UNSTRUCTURED_GRID, got {kind}")
        elif keyword == "POINTS":
            count, _dtype = take(2, "POINTS")
            n = int(integers([count], "the POINTS count")[0])
            if n < 0:
                _fail(where, f"line {line}: a negative count in POINTS ({n})")
            try:
                vertices = np.array(take(3 * n, "POINTS"), dtype=np.float64).reshape(n, 3)
            except ValueError:
                _fail(where, f"line {line}: the {n} POINTS must be numbers")
            if not np.isfinite(vertices).all():
                _fail(where, f"line {line}: the POINTS must be finite")
        elif keyword == "CELLS":
            n, size = integers(take(2, "CELLS"), "the CELLS counts")
            flat = integers(take(int(size), "CELLS"), "the CELLS")
            if n * 5 != size or not (flat[0::5] == 4).all():
                _fail(where, f"line {line}: every cell must be a tetrahedron (4 vertex "
                             f"indices); got {n} cells in {size} numbers")
            cells = flat.reshape(n, 5)[:, 1:]
        elif keyword == "CELL_TYPES":
            n = int(integers(take(1, "CELL_TYPES"), "the CELL_TYPES count")[0])
            types = integers(take(n, "CELL_TYPES"), "the CELL_TYPES")
        elif keyword in ("CELL_DATA", "POINT_DATA"):
            break                            # fields after the geometry are not read
        else:
            _fail(where, f"line {line}: unexpected {tokens[position - 1]!r}")
    if vertices is None or cells is None:
        _fail(where, "it needs POINTS and CELLS sections")
    if types is not None and (types.size != len(cells) or (types != VTK_TETRA).any()):
        _fail(where, f"every CELL_TYPE must be {VTK_TETRA} (a tetrahedron)")
    if cells.size and (cells.min() < 0 or cells.max() >= len(vertices)):
        _fail(where, f"a cell refers to a vertex outside 0..{len(vertices) - 1}")
    if not len(cells):
        _fail(where, "it has no tetrahedra")
    vertices = vertices * np.asarray(scale, dtype=np.float64).reshape(1, 3)
    a, b, c, d = (vertices[cells[:, i]] for i in range(4))
    volume6 = np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a)
    scale = np.abs(vertices).max() or 1.0
    if (np.abs(volume6) <= 1e-14 * scale ** 3).any():
        _fail(where, f"tetrahedron {int(np.argmin(np.abs(volume6)))} has no volume")
    flip = volume6 < 0.0
    cells = cells.copy()
    cells[flip, 1], cells[flip, 2] = cells[flip, 2], cells[flip, 1].copy()
    return np.ascontiguousarray(vertices), np.ascontiguousarray(cells)


def boundary_triangles(tetrahedra):
    """The faces (nf, 3) of positively wound `tetrahedra` (nt, 4) that belong to one
    tetrahedron only, wound counter-clockwise seen from outside."""
    # the four faces of a positive tet (a, b, c, d), each wound outward
    faces = np.concatenate([tetrahedra[:, [1, 2, 3]], tetrahedra[:, [0, 3, 2]],
                            tetrahedra[:, [0, 1, 3]], tetrahedra[:, [0, 2, 1]]])
    key = np.sort(faces, axis=1)
    _, first, counts = np.unique(key, axis=0, return_index=True, return_counts=True)
    return np.ascontiguousarray(faces[np.sort(first[counts == 1])])


def distance_to_boundary(points, vertices, triangles):
    """Unsigned distance (n,) of each of `points` (n, 3) to the triangles (nf, 3) over
    `vertices` (nv, 3): the exact point-triangle distance to every triangle that can be
    the closest one.

    A point's distance to its nearest triangle vertex bounds its distance from above; a
    triangle whose bounding sphere (about its centroid) lies farther than that cannot be
    the closest, so only the triangles a k-d tree of centroids returns within that bound
    plus the largest bounding radius are measured.
    """
    from scipy.spatial import cKDTree

    A, B, C = (vertices[triangles[:, i]] for i in range(3))
    centroid = (A + B + C) / 3.0
    radius = np.sqrt(np.max([np.einsum("ij,ij->i", X - centroid, X - centroid)
                             for X in (A, B, C)], axis=0))
    corners = np.unique(triangles)
    upper, _ = cKDTree(vertices[corners]).query(points)
    candidates = cKDTree(centroid).query_ball_point(points, upper + radius.max() + 1e-12)
    counts = np.fromiter((len(c) for c in candidates), np.int64, len(points))
    point = np.repeat(np.arange(len(points)), counts)
    tri = np.fromiter((t for c in candidates for t in c), np.int64, int(counts.sum()))
    d2 = _squared_distance_to_triangles(points[point], A[tri], B[tri], C[tri])
    out = np.full(len(points), np.inf)
    np.minimum.at(out, point, d2)
    return np.sqrt(np.minimum(out, upper ** 2))


def _squared_distance_to_triangles(P, A, B, C):
    """|P - closest point of triangle ABC|², row by row (all (k, 3)): the closest point by
    its Voronoi region (a vertex, an edge or the face)."""
    AB, AC = B - A, C - A

    def dot(X, Y):
        return np.einsum("ki,ki->k", X, Y)

    AP, BP, CP = P - A, P - B, P - C
    d1, d2 = dot(AP, AB), dot(AP, AC)
    d3, d4 = dot(BP, AB), dot(BP, AC)
    d5, d6 = dot(CP, AB), dot(CP, AC)
    va = d3 * d6 - d5 * d4
    vb = d5 * d2 - d1 * d6
    vc = d1 * d4 - d3 * d2
    with np.errstate(divide="ignore", invalid="ignore"):
        # the face region by default: barycentric (1 - v - w, v, w)
        denom = va + vb + vc
        v = np.where(denom != 0.0, vb / denom, 0.0)
        w = np.where(denom != 0.0, vc / denom, 0.0)
        # edges AB, AC and BC, then the vertices (disjoint regions but for their borders)
        rule = (vc <= 0.0) & (d1 >= 0.0) & (d3 <= 0.0)
        v, w = np.where(rule, d1 / (d1 - d3), v), np.where(rule, 0.0, w)
        rule = (vb <= 0.0) & (d2 >= 0.0) & (d6 <= 0.0)
        v, w = np.where(rule, 0.0, v), np.where(rule, d2 / (d2 - d6), w)
        t_bc = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        rule = (va <= 0.0) & ((d4 - d3) >= 0.0) & ((d5 - d6) >= 0.0)
        v, w = np.where(rule, 1.0 - t_bc, v), np.where(rule, t_bc, w)
    for rule, vv, ww in (((d1 <= 0.0) & (d2 <= 0.0), 0.0, 0.0),       # vertex A
                         ((d3 >= 0.0) & (d4 <= d3), 1.0, 0.0),        # vertex B
                         ((d6 >= 0.0) & (d5 <= d6), 0.0, 1.0)):       # vertex C
        v, w = np.where(rule, vv, v), np.where(rule, ww, w)
    D = P - (A + v[:, None] * AB + w[:, None] * AC)
    return dot(D, D)
