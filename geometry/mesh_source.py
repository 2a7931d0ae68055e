"""Where a Mesh or Convex shape gets its data: a file path or an in-memory mesh
(Drake's MemoryFile, InMemoryMesh and MeshSource).

Nothing is read at construction: a path need not exist until the mesh is used.
"""

import copy
import os
import pathlib

__all__ = ["MemoryFile", "InMemoryMesh", "MeshSource"]


class MemoryFile:
    """The contents of a file held in memory.

    Parameters
    ----------
    contents : bytes or str
        The file's bytes (a str is encoded as UTF-8).
    extension : str
        The file type, e.g. ``".obj"``.
    filename_hint : str
        A name for messages (not a path that is read).
    """

    __slots__ = ("_contents", "_extension", "_hint")

    def __init__(self, contents=b"", extension="", filename_hint=""):
        if isinstance(contents, str):
            contents = contents.encode("utf-8")
        if not isinstance(contents, (bytes, bytearray)):
            raise TypeError(f"MemoryFile: contents must be bytes or str, got "
                            f"{type(contents).__name__}")
        self._contents = bytes(contents)
        self._extension = str(extension)
        self._hint = str(filename_hint)

    @staticmethod
    def make(path):
        """A MemoryFile with the contents of the file at `path` (RuntimeError if unreadable)."""
        path = os.fspath(path)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise RuntimeError(f"MemoryFile.make: cannot read the file {path!r}: {e}") from None
        return MemoryFile(data, os.path.splitext(path)[1], path)

    def contents(self):
        return self._contents

    def extension(self):
        return self._extension

    def filename_hint(self):
        return self._hint

    def _key(self):
        return (self._contents, self._extension, self._hint)

    def __eq__(self, other):
        return isinstance(other, MemoryFile) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __reduce__(self):
        return (MemoryFile, self._key())

    def __repr__(self):
        return (f"MemoryFile(contents={self._contents!r}, extension={self._extension!r}, "
                f"filename_hint={self._hint!r})")


class InMemoryMesh:
    """A mesh file in memory (`mesh_file`) and the files it refers to (`supporting_files`,
    a dict from the name used inside the mesh file to a MemoryFile or a path)."""

    def __init__(self, mesh_file=None, supporting_files=None):
        self.mesh_file = MemoryFile() if mesh_file is None else mesh_file
        if not isinstance(self.mesh_file, MemoryFile):
            raise TypeError(f"InMemoryMesh: mesh_file must be a MemoryFile, got "
                            f"{type(mesh_file).__name__}")
        self.supporting_files = dict(supporting_files or {})

    def empty(self):
        return not self.mesh_file.contents()

    def _key(self):
        return (self.mesh_file, tuple(sorted((k, repr(v)) for k, v in
                                             self.supporting_files.items())))

    def __eq__(self, other):
        return isinstance(other, InMemoryMesh) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        extra = (f", supporting_files={self.supporting_files!r}" if self.supporting_files
                 else "")
        return f"InMemoryMesh(mesh_file={self.mesh_file!r}{extra})"


class MeshSource:
    """A mesh's data: ``MeshSource(path=...)``, ``MeshSource(mesh=InMemoryMesh)``,
    ``MeshSource(other=MeshSource)`` or ``MeshSource()`` (an empty in-memory mesh)."""

    def __init__(self, path=None, mesh=None, other=None):
        given = [x is not None for x in (path, mesh, other)]
        if sum(given) > 1:
            raise TypeError("MeshSource: give one of path, mesh or other")
        if other is not None:
            if not isinstance(other, MeshSource):
                raise TypeError(f"MeshSource: other must be a MeshSource, got "
                                f"{type(other).__name__}")
            path, mesh = other._path, copy.copy(other._mesh)
        elif path is not None:
            if not isinstance(path, (str, os.PathLike)):
                raise TypeError(f"MeshSource: path must be a str or os.PathLike, got "
                                f"{type(path).__name__}")
            path = os.fspath(path)
        elif mesh is None:
            mesh = InMemoryMesh()
        if mesh is not None and not isinstance(mesh, InMemoryMesh):
            raise TypeError(f"MeshSource: mesh must be an InMemoryMesh, got "
                            f"{type(mesh).__name__}")
        self._path, self._mesh = path, mesh

    def is_path(self):
        return self._path is not None

    def is_in_memory(self):
        return self._mesh is not None

    def path(self):
        """The path (pathlib.Path); RuntimeError for an in-memory source."""
        if self._path is None:
            raise RuntimeError(f"MeshSource.path: the source is in memory "
                               f"({self.description()!r}), not a path")
        return pathlib.Path(self._path)

    def in_memory(self):
        """The InMemoryMesh; RuntimeError for a path source."""
        if self._mesh is None:
            raise RuntimeError(f"MeshSource.in_memory: the source is the path {self._path!r}, "
                               f"not in memory")
        return self._mesh

    def description(self):
        """The path, or the in-memory mesh file's filename hint."""
        return self._path if self._path is not None else self._mesh.mesh_file.filename_hint()

    def extension(self):
        """The file type, lowercase (e.g. ``".obj"``)."""
        if self._path is not None:
            return os.path.splitext(self._path)[1].lower()
        return self._mesh.mesh_file.extension().lower()

    def _key(self):
        return ("path", self._path) if self._path is not None else ("mesh", self._mesh._key())

    def __eq__(self, other):
        return isinstance(other, MeshSource) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        if self._path is not None:
            return f"MeshSource(path={self._path!r})"
        return f"MeshSource(mesh={self._mesh!r})"
