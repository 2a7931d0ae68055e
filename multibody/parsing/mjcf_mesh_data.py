"""MJCF meshes given by data rather than a file: ``<mesh vertex face>`` and ``<hfield>``.

The geometry layer's `Mesh` reads a file, so such a mesh is written once as a Wavefront
OBJ into a content-addressed cache folder (``merganser-mjcf-meshes`` in the system's
temporary folder, or ``$MERGANSER_MESH_CACHE``; the file name is the SHA-256 of its
text) and used from there like any file mesh (its ``scale`` and ``inertia`` settings
included).

- An inline mesh follows MuJoCo: ``refpos`` is subtracted from the ``vertex`` positions,
  which are then rotated by the conjugate of ``refquat``; without ``face`` the mesh is
  the convex hull of the vertices. ``normal`` and ``texcoord`` are not used.
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

__all__ = ["hfield_obj", "inline_mesh_obj", "mesh_cache_folder"]


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
    if nrow < 2 or ncol < 2 or nrow * ncol > 10**7:
        doc.error(el, f"hfield '{name}' needs a 'file', or 'nrow' and 'ncol' of at least 2 "
                      f"(and at most 10^7 points), got {nrow} x {ncol}")
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
    if nrow < 2 or ncol < 2:
        doc.error(el, f"hfield '{name}' must have at least 2 x 2 points, got {nrow} x {ncol}")
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
