"""Mesh and Convex from a path (read on use, not at construction) or in-memory data."""

import copy
import pickle

import numpy as np
import pytest

from merganser.geometry import (
    Convex, InMemoryMesh, MemoryFile, Mesh, MeshSource, calc_obb,
)

CUBE_OBJ = "".join(f"v {x} {y} {z}\n" for x in (-1, 1) for y in (-1, 1) for z in (-1, 1))


def test_missing_path_is_accepted_and_reported_on_use(tmp_path):
    missing = tmp_path / "nowhere" / "box.obj"
    mesh = Mesh(missing, scale=2.0)
    assert mesh.source().is_path() and mesh.extension() == ".obj"
    assert mesh.filename() == str(missing)
    with pytest.raises(RuntimeError, match="box.obj"):
        mesh.convex_hull_vertices()
    with pytest.raises(RuntimeError, match="MakeConvexHull only applies to .*'.ext'"):
        Convex("relative/junk.ext").get_convex_hull()


def test_in_memory_cube_hull_scale_and_obb():
    data = InMemoryMesh(mesh_file=MemoryFile(CUBE_OBJ, ".obj", "cube"))
    mesh = Mesh(mesh_data=data, scale3=[1.0, 2.0, 3.0])
    assert mesh.source().is_in_memory() and mesh.source().description() == "cube"
    np.testing.assert_array_equal(mesh.scale3(), [1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="not uniform"):
        mesh.scale()
    V = mesh.convex_hull_vertices()
    assert V.shape == (8, 3)
    np.testing.assert_allclose(np.sort(np.abs(V).max(axis=0)), [1.0, 2.0, 3.0])
    obb = calc_obb(mesh)
    np.testing.assert_allclose(np.sort(obb.half_width()), [1.0, 2.0, 3.0])
    hull = mesh.get_convex_hull()
    assert hull.num_vertices() == 8
    assert hull.total_area() == pytest.approx(2 * (2 * 4 + 2 * 6 + 4 * 6))


def test_convex_from_points_is_an_in_memory_obj():
    P = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float).T
    convex = Convex(points=P, label="tet", scale=2)
    file = convex.source().in_memory().mesh_file
    assert file.filename_hint() == "tet" and file.extension() == ".obj"
    assert file.contents().startswith(b"v 0 0 0\nv 1 0 0\n")
    assert convex.scale() == 2.0
    hull = convex.get_convex_hull()
    assert hull.num_vertices() == 4 and hull.num_faces() == 4
    assert hull.total_area() == pytest.approx(4.0 * (1.5 + np.sqrt(3.0) / 2.0))


def test_mesh_source_sources_repr_copy_pickle():
    src = MeshSource(path="/a/path.obj")
    assert src.is_path() and not src.is_in_memory() and src.extension() == ".obj"
    with pytest.raises(RuntimeError, match="not in memory"):
        src.in_memory()
    assert MeshSource().in_memory().mesh_file.contents() == b""
    mem = MeshSource(mesh=InMemoryMesh(MemoryFile("a", ".EXT", "hint")))
    assert mem.extension() == ".ext" and mem.description() == "hint"
    with pytest.raises(RuntimeError, match="in memory"):
        mem.path()
    for obj in (src, mem, Mesh("/x/y.obj", scale=1.5),
                Convex(mesh_data=InMemoryMesh(MemoryFile(CUBE_OBJ, ".obj", "c")), scale=2)):
        assert pickle.loads(pickle.dumps(obj)) == obj
        assert copy.deepcopy(obj) == obj
        ns = {"MeshSource": MeshSource, "InMemoryMesh": InMemoryMesh, "MemoryFile": MemoryFile,
              "Mesh": Mesh, "Convex": Convex}
        assert eval(repr(obj), ns) == obj
