"""MJCF meshes given by data rather than a file: ``<mesh vertex face>``, ``<mesh builtin
params>`` and ``<hfield>``.

The geometry layer's `Mesh` reads a file, so such a mesh is written once as a Wavefront
OBJ into a content-addressed cache folder (``merganser-mjcf-meshes`` in the system's
temporary folder, or ``$MERGANSER_MESH_CACHE``; the file name is the SHA-256 of its
text) and used from there like any file mesh (its ``scale`` and ``inertia`` settings
included).

- An inline mesh follows MuJoCo: ``refpos`` is subtracted from the ``vertex`` positions,
  which are then rotated by the conjugate of ``refquat``; without ``face`` the mesh is
  the convex hull of the vertices. ``normal`` and ``texcoord`` are not used.
- A built-in mesh is generated as MuJoCo 3.3+ generates it (the same vertices, rounded
  to float32 as MuJoCo stores them, and triangles): ``sphere`` (subdivisions),
  ``hemisphere`` (resolution), ``supersphere`` (resolution, e, n), ``supertorus``
  (resolution, radius, s, t) and ``cone`` (edges, top radius; its convex hull).
  ``wedge`` and ``plate`` (MuJoCo's tactile-sensor meshes) are refused.
- A height field (``<hfield size="rx ry elevation_z base_z">`` with ``elevation`` (and
  ``nrow ncol``), a PNG file (grey levels) or MuJoCo's binary file) becomes the closed
  solid MuJoCo collides with: the elevation data normalized to [0, 1] and scaled by
  ``elevation_z`` over the grid [-rx, rx] × [-ry, ry] (the first row of ``elevation``
  and of an image at y = +ry, as in MuJoCo), on a base box down to z = -base_z.
"""

from __future__ import annotations

import hashlib
import os
import struct
import tempfile

import numpy as np

from merganser.geometry import quaternion_to_rotation_matrix
from merganser.multibody.parsing.mjcf_inertia import oriented_hull

__all__ = ["builtin_mesh_obj", "hfield_obj", "inline_mesh_obj", "mesh_cache_folder"]


def mesh_cache_folder() -> str:
    """The folder the data meshes are written to (created if needed)."""
    folder = os.environ.get("MERGANSER_MESH_CACHE") or os.path.join(
        tempfile.gettempdir(), "merganser-mjcf-meshes")
    os.makedirs(folder, exist_ok=True)
    return folder


def _write_obj(vertices, faces) -> str:
    """Path of the OBJ file of `vertices` (n, 3) and triangles `faces` (k, 3), 0-based."""
    lines = [f"v {x!r} {y!r} {z!r}" for x, y, z in np.asarray(vertices, dtype=float).tolist()]
    lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in np.asarray(faces).tolist()]
    text = "\n".join(lines) + "\n"
    path = os.path.join(mesh_cache_folder(),
                        hashlib.sha256(text.encode()).hexdigest()[:32] + ".obj")
    if not os.path.isfile(path):
        partial = f"{path}.{os.getpid()}.tmp"
        with open(partial, "w", encoding="ascii") as f:
            f.write(text)
        os.replace(partial, path)          # atomic: concurrent loads see a whole file
    return path


def _numbers(doc, el, name, multiple_of, minimum_count):
    """Attribute `name` of `el` as floats, a positive multiple of `multiple_of` of them."""
    count = len(doc.attr(el, name).split())
    if count < minimum_count or count % multiple_of:
        doc.error(el, f"<{doc.tag(el)}> attribute '{name}' must have a multiple of "
                      f"{multiple_of} numbers, at least {minimum_count}, got {count}")
    return doc.attr_vector(el, name, count)


def inline_mesh_obj(doc, el, name: str) -> str:
    """The OBJ file of an inline ``<mesh vertex [face] [refpos refquat]>``."""
    vertices = _numbers(doc, el, "vertex", 3, 12).reshape(-1, 3)
    refpos = doc.attr_vector(el, "refpos", 3, default=np.zeros(3))
    refquat = doc.attr_vector(el, "refquat", 4, default=np.array([1.0, 0.0, 0.0, 0.0]))
    if not np.linalg.norm(refquat) > 0.0:
        doc.error(el, f"mesh '{name}': refquat must be a non-zero quaternion")
    R = quaternion_to_rotation_matrix(refquat / np.linalg.norm(refquat))
    vertices = (vertices - refpos) @ R         # rows: R^T (v - refpos)
    if doc.has(el, "face"):
        faces = _numbers(doc, el, "face", 3, 3).reshape(-1, 3)
        if np.any(faces != np.round(faces)) or faces.min() < 0 or faces.max() >= len(vertices):
            doc.error(el, f"mesh '{name}': face indices must be integers in "
                          f"[0, {len(vertices) - 1}]")
        faces = faces.astype(np.int64)
    else:
        try:
            faces = oriented_hull(vertices)
        except Exception as err:      # qhull: coplanar or repeated points
            doc.error(el, f"mesh '{name}': the convex hull of its vertices (it has no "
                          f"'face') cannot be computed: {str(err).splitlines()[0]}")
    doc.consume(el, "normal", "texcoord")
    return _write_obj(vertices, faces)


_F32 = np.float32


def _aux(trig, omega, m):
    """MuJoCo's superquadric helper: sign(f(ω)) |f(ω)|^m for f = cos or sin."""
    value = trig(omega)
    return np.copysign(np.abs(value) ** m, value)


def _icosphere(subdivisions):
    """MuJoCo's ``sphere`` builtin: an icosahedron subdivided, midpoints on the unit
    sphere, in float32 arithmetic as MuJoCo computes it."""
    phi = _F32((1.0 + np.sqrt(5.0)) / 2.0)
    base = np.array([[-1, phi, 0], [1, phi, 0], [-1, -phi, 0], [1, -phi, 0],
                     [0, -1, phi], [0, 1, phi], [0, -1, -phi], [0, 1, -phi],
                     [phi, 0, -1], [phi, 0, 1], [-phi, 0, -1], [-phi, 0, 1]], dtype=_F32)
    vertices = list((base / np.sqrt(1.0 + float(phi) ** 2)).astype(_F32))
    faces = np.array([0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11,
                      10, 2, 10, 7, 6, 7, 1, 8, 3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4,
                      9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1]).reshape(-1, 3)
    for _ in range(subdivisions):
        cache = {}

        def midpoint(i, j, cache=cache):
            key = (min(i, j), max(i, j))
            if key not in cache:
                m = (vertices[i] + vertices[j]) / _F32(2.0)
                vertices.append((m / np.sqrt(np.sum(m * m, dtype=_F32))).astype(_F32))
                cache[key] = len(vertices) - 1
            return cache[key]

        new = []
        for a, b, c in faces.tolist():
            ab, bc, ca = midpoint(a, b), midpoint(b, c), midpoint(c, a)
            new += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = np.array(new)
    return np.array(vertices), faces


def _hemisphere(res):
    """MuJoCo's ``hemisphere`` builtin: rows of points from the north pole to the
    equator, projected on the unit sphere, with a bottom cap around the centre."""
    pole = np.array([0.0, 0.0, 1.0])
    equator = np.array([[1.0, 0, 0], [0, 1.0, 0], [-1.0, 0, 0], [0, -1.0, 0]])
    vertices = [pole]
    for row in range(res + 1):
        factor = (row + 1) / (res + 1)
        for side in range(4):
            start = pole + factor * (equator[side] - pole)
            end = pole + factor * (equator[(side + 1) % 4] - pole)
            for i in range(row + 1):
                p = start + i * (end - start) / (row + 1)
                vertices.append(p / np.linalg.norm(p))
    vertices.append(np.zeros(3))
    last = len(vertices) - 1
    faces = [(0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 1)]
    for row in range(res):
        start, count = 2 * row * (row + 1) + 1, 4 * (row + 1)
        start_next, count_next = start + count, 4 * (row + 2)
        for side in range(4):
            for i in range(row + 2):
                curr, nxt = i + (row + 1) * side, i + (row + 2) * side
                faces.append((start + curr % count, start_next + nxt % count_next,
                              start_next + (nxt + 1) % count_next))
                if i < row + 1:
                    faces.append((start + curr % count, start_next + (nxt + 1) % count_next,
                                  start + (curr + 1) % count))
    start, count = 2 * res * (res + 1) + 1, 4 * (res + 1)
    faces += [(start + i, last, start + (i + 1) % count) for i in range(count)]
    return np.array(vertices), np.array(faces)


def _supersphere(res, e, n):
    """MuJoCo's ``supersphere`` builtin: poles and res - 1 rings of res points."""
    vertices = [(0.0, 0.0, -1.0)]
    for i in range(1, res):
        v = -np.pi / 2 + i * np.pi / res
        for j in range(res):
            u = -np.pi + j * 2 * np.pi / res
            vertices.append((_aux(np.cos, v, n) * _aux(np.cos, u, e),
                             _aux(np.cos, v, n) * _aux(np.sin, u, e), _aux(np.sin, v, n)))
    vertices.append((0.0, 0.0, 1.0))
    north = len(vertices) - 1
    faces = [(0, 1 + (j + 1) % res, 1 + j) for j in range(res)]
    for i in range(res - 2):
        for j in range(res):
            v1, v2 = 1 + i * res + j, 1 + i * res + (j + 1) % res
            v4, v3 = 1 + (i + 1) * res + j, 1 + (i + 1) * res + (j + 1) % res
            faces += [(v1, v2, v4), (v2, v3, v4)]
    last = 1 + (res - 2) * res
    faces += [(last + j, last + (j + 1) % res, north) for j in range(res)]
    return np.array(vertices), np.array(faces)


def _supertorus(res, radius, s, t):
    """MuJoCo's ``supertorus`` builtin: res x res points, tube `radius` around the
    unit circle."""
    i, j = np.meshgrid(np.arange(res), np.arange(res), indexing="ij")
    u, v = 2 * np.pi * i.ravel() / res, 2 * np.pi * j.ravel() / res
    ring = 1 + radius * _aux(np.cos, v, s)
    vertices = np.column_stack([ring * _aux(np.cos, u, t), ring * _aux(np.sin, u, t),
                                radius * _aux(np.sin, v, s)])
    i, j = i.ravel(), j.ravel()
    v1, v2 = i * res + j, (i + 1) % res * res + j
    v3, v4 = (i + 1) % res * res + (j + 1) % res, i * res + (j + 1) % res
    faces = np.column_stack([v1, v2, v4, v2, v3, v4]).reshape(-1, 3)
    return vertices, faces


def _cone(nedge, radius):
    """MuJoCo's ``cone`` builtin: a bottom polygon at z = -1 and a top one of `radius`
    (or the apex) at z = 1; vertices only (its convex hull)."""
    k = np.arange(nedge)
    bottom = np.column_stack([np.cos(2 * k * np.pi / nedge), np.sin(2 * k * np.pi / nedge),
                              -np.ones(nedge)])
    k = k + nedge
    top = (np.column_stack([radius * np.cos(2 * k * np.pi / nedge),
                            radius * np.sin(2 * k * np.pi / nedge), np.ones(nedge)])
           if radius > 0 else np.array([[0.0, 0.0, 1.0]]))
    return np.vstack([bottom, top]), None


# name: (number of params, checks [(index, test, message)], maker)
_BUILTINS = {
    "sphere": (1, [(0, lambda x: 0 <= x <= 4, "subdivision must be in [0, 4]")],
               lambda p: _icosphere(int(p[0]))),
    "hemisphere": (1, [(0, lambda x: 0 <= x <= 10, "resolution must be in [0, 10]")],
                   lambda p: _hemisphere(int(p[0]))),
    "supersphere": (3, [(0, lambda x: x >= 3, "resolution must be at least 3"),
                        (1, lambda x: x >= 0, "'e' cannot be negative"),
                        (2, lambda x: x >= 0, "'n' cannot be negative")],
                    lambda p: _supersphere(int(p[0]), p[1], p[2])),
    "supertorus": (4, [(0, lambda x: x >= 3, "resolution must be at least 3"),
                       (1, lambda x: 0 < x <= 1, "radius must be in (0, 1]"),
                       (2, lambda x: x > 0, "'s' must be positive"),
                       (3, lambda x: x > 0, "'t' must be positive")],
                   lambda p: _supertorus(int(p[0]), p[1], p[2], p[3])),
    "cone": (2, [(0, lambda x: 3 <= x <= 10000, "the number of edges must be in [3, 10000]")],
             lambda p: _cone(int(p[0]), p[1])),
}


def builtin_mesh_obj(doc, el, name: str) -> str:
    """The OBJ file of a MuJoCo built-in ``<mesh builtin params>`` (sphere, hemisphere,
    supersphere, supertorus, cone; vertices rounded to float32 as MuJoCo stores them);
    the sensor meshes ``wedge`` and ``plate`` are refused."""
    kind = doc.attr(el, "builtin")
    if kind not in _BUILTINS:
        doc.error(el, f"mesh '{name}': builtin {kind!r} is not supported; supported: "
                      f"{sorted(_BUILTINS)} (wedge and plate are sensor meshes)")
    count, checks, make = _BUILTINS[kind]
    params = doc.attr_vector(el, "params", count)
    for index, test, message in checks:
        if not test(params[index]):
            doc.error(el, f"mesh '{name}': builtin {kind}: {message}, got {params[index]!r}")
    vertices, faces = make(params)
    vertices = np.asarray(vertices, dtype=_F32).astype(np.float64)
    if faces is None:
        faces = oriented_hull(vertices)
    return _write_obj(vertices, faces)


_MAX_HFIELD_POINTS = 1 << 20     # 1024 x 1024: its OBJ is about 100 MB


def _hfield_data(doc, el, name, path):
    """The elevation rows (nrow, ncol), row 0 at y = -ry (MuJoCo's order)."""
    if path is not None:
        if doc.has(el, "nrow") or doc.has(el, "ncol"):
            doc.error(el, f"hfield '{name}': 'file' and 'nrow'/'ncol' cannot both be given")
        content = doc.attr(el, "content_type", "")
        if content == "image/png" or (not content and path.lower().endswith(".png")):
            try:
                from PIL import Image

                with Image.open(path) as image:
                    grey = np.asarray(image.convert("L"), dtype=np.float64)
            except ImportError:
                doc.error(el, f"hfield '{name}': reading a PNG height field needs the "
                              f"optional 'Pillow' package")
            except Exception as err:
                doc.error(el, f"hfield '{name}': cannot read the image {path!r}: {err}")
            return grey[::-1]
        try:
            with open(path, "rb") as f:
                raw = f.read()
            nrow, ncol = struct.unpack("<ii", raw[:8])
            if nrow < 1 or ncol < 1 or len(raw) != 4 * (2 + nrow * ncol):
                raise ValueError(f"header {nrow} x {ncol} does not match {len(raw)} bytes")
        except Exception as err:
            doc.error(el, f"hfield '{name}': {path!r} is not a MuJoCo height field file: "
                          f"{err}")
        return np.frombuffer(raw[8:], dtype="<f4").astype(np.float64).reshape(nrow, ncol)
    nrow = int(doc.attr_float(el, "nrow", 0.0, minimum=0.0))
    ncol = int(doc.attr_float(el, "ncol", 0.0, minimum=0.0))
    if nrow < 2 or ncol < 2 or nrow * ncol > _MAX_HFIELD_POINTS:
        doc.error(el, f"hfield '{name}' needs a 'file', or 'nrow' and 'ncol' of at least 2 "
                      f"(and at most {_MAX_HFIELD_POINTS} points), got {nrow} x {ncol}")
    if not doc.has(el, "elevation"):
        return np.zeros((nrow, ncol))
    data = doc.attr_vector(el, "elevation", nrow * ncol)
    return data.reshape(nrow, ncol)[::-1]


def hfield_obj(doc, el, name: str, path: str | None) -> str:
    """The OBJ file of the closed solid of an ``<hfield>`` (`path`: its resolved file)."""
    rx, ry, elevation, base = doc.attr_vector(el, "size", 4, positive=True)
    data = _hfield_data(doc, el, name, path)
    if not np.all(np.isfinite(data)):
        doc.error(el, f"hfield '{name}': the elevation data must be finite")
    nrow, ncol = data.shape
    if nrow < 2 or ncol < 2 or nrow * ncol > _MAX_HFIELD_POINTS:
        doc.error(el, f"hfield '{name}' must have at least 2 x 2 and at most "
                      f"{_MAX_HFIELD_POINTS} points, got {nrow} x {ncol}")
    low, span = data.min(), data.max() - data.min()
    z = (data - low) / span if span > np.finfo(np.float32).eps else data - low
    x = np.linspace(-rx, rx, ncol)
    y = np.linspace(-ry, ry, nrow)
    X, Y = np.meshgrid(x, y)                    # (nrow, ncol), row r at y[r]
    top = np.column_stack([X.ravel(), Y.ravel(), elevation * z.ravel()])
    bottom = np.column_stack([X.ravel(), Y.ravel(), np.full(nrow * ncol, -base)])
    n = nrow * ncol
    index = np.arange(n).reshape(nrow, ncol)
    a, b = index[:-1, :-1].ravel(), index[:-1, 1:].ravel()     # a b: row r
    c, d = index[1:, :-1].ravel(), index[1:, 1:].ravel()       # c d: row r + 1
    faces = [np.column_stack([a, b, d]), np.column_stack([a, d, c]),              # top, +z
             np.column_stack([a, d, b]) + n, np.column_stack([a, c, d]) + n]      # bottom
    # side walls along the boundary, counter-clockwise seen from above (+z up)
    ring = np.concatenate([index[0, :], index[1:, -1], index[-1, -2::-1], index[-2:0:-1, 0]])
    p, q = ring, np.roll(ring, -1)
    faces += [np.column_stack([p, q + n, q]), np.column_stack([p, p + n, q + n])]
    doc.consume(el, "content_type")
    return _write_obj(np.vstack([top, bottom]), np.vstack(faces))
