"""MeshcatAnimation: keyframes of transforms and properties, lowered to meshcat's
``set_animation`` command (three.js AnimationClips, one per scene path).

Times are stored as frame numbers at ``frames_per_second``; a transform becomes
``.position`` (vector3), ``.quaternion`` (x, y, z, w, three.js order) and, when it is not
rigid, ``.scale`` tracks; a property becomes a track of its own (``.visible`` is a
boolean track).
"""

from __future__ import annotations

import numpy as np

__all__ = ["MeshcatAnimation", "decompose_transform"]


def decompose_transform(X):
    """(position (3,), quaternion [x, y, z, w], scale (3,)) of a (4, 4) matrix whose
    rotation part may have positive column scales."""
    X = np.asarray(X, dtype=float)
    scale = np.linalg.norm(X[:3, :3], axis=0)
    safe = np.where(scale > 0.0, scale, 1.0)
    R = X[:3, :3] / safe
    # Shepperd's method on the rotation part.
    t = np.trace(R)
    if t > 0.0:
        s = 2.0 * np.sqrt(1.0 + t)
        w, x, y, z = 0.25 * s, (R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, \
            (R[1, 0] - R[0, 1]) / s
    elif R[0, 0] > R[1, 1] and R[0, 0] > R[2, 2]:
        s = 2.0 * np.sqrt(1.0 + R[0, 0] - R[1, 1] - R[2, 2])
        w, x, y, z = (R[2, 1] - R[1, 2]) / s, 0.25 * s, (R[0, 1] + R[1, 0]) / s, \
            (R[0, 2] + R[2, 0]) / s
    elif R[1, 1] > R[2, 2]:
        s = 2.0 * np.sqrt(1.0 + R[1, 1] - R[0, 0] - R[2, 2])
        w, x, y, z = (R[0, 2] - R[2, 0]) / s, (R[0, 1] + R[1, 0]) / s, 0.25 * s, \
            (R[1, 2] + R[2, 1]) / s
    else:
        s = 2.0 * np.sqrt(1.0 + R[2, 2] - R[0, 0] - R[1, 1])
        w, x, y, z = (R[1, 0] - R[0, 1]) / s, (R[0, 2] + R[2, 0]) / s, \
            (R[1, 2] + R[2, 1]) / s, 0.25 * s
    return X[:3, 3].copy(), np.array([x, y, z, w]), scale


_JS_TYPES = {bool: "boolean", float: "number", int: "number"}


class MeshcatAnimation:
    """Recorded keyframes (Drake's MeshcatAnimation).

    Parameters
    ----------
    frames_per_second : float
        Frame rate of the recording; a time t is stored at frame round(t · fps).
    """

    def __init__(self, frames_per_second=64.0):
        fps = float(frames_per_second)
        if not (np.isfinite(fps) and fps > 0.0):
            raise ValueError(f"MeshcatAnimation: frames_per_second must be > 0, got "
                             f"{frames_per_second!r}")
        self._fps = fps
        self._transforms = {}      # path -> {frame: (4, 4)}
        self._properties = {}      # (path, property) -> {frame: value}
        self.play = True
        self.repetitions = 1

    def frames_per_second(self):
        return self._fps

    def frame(self, time):
        """The frame number of `time` (s)."""
        return int(round(float(time) * self._fps))

    def set_transform(self, frame, path, X):
        """Keyframe the transform (4, 4) of `path` at `frame`."""
        self._transforms.setdefault(path, {})[int(frame)] = np.array(X, dtype=float)

    def set_property(self, frame, path, prop, value):
        """Keyframe property `prop` of `path` at `frame` (bool, number or list)."""
        self._properties.setdefault((path, prop), {})[int(frame)] = value

    def paths(self):
        """Every animated path."""
        return sorted(set(self._transforms) | {p for p, _ in self._properties})

    def num_frames(self):
        frames = [f for d in self._transforms.values() for f in d]
        frames += [f for d in self._properties.values() for f in d]
        return (max(frames) + 1) if frames else 0

    def duration(self):
        """Time of the last keyframe (s)."""
        return max(self.num_frames() - 1, 0) / self._fps

    def get_transform(self, path, frame):
        """The keyframed (4, 4) transform of `path` at `frame` (KeyError if none)."""
        return self._transforms[path][int(frame)]

    def lower(self):
        """The ``animations`` list of meshcat's ``set_animation`` command."""
        tracks_by_path = {}
        for path, keys in self._transforms.items():
            frames = sorted(keys)
            parts = [decompose_transform(keys[f]) for f in frames]
            tracks = [_track("position", "vector3", frames, [p[0] for p in parts]),
                      _track("quaternion", "quaternion", frames, [p[1] for p in parts])]
            if any(np.abs(p[2] - 1.0).max() > 1e-9 for p in parts):
                tracks.append(_track("scale", "vector3", frames, [p[2] for p in parts]))
            tracks_by_path.setdefault(path, []).extend(tracks)
        for (path, prop), keys in self._properties.items():
            frames = sorted(keys)
            values = [keys[f] for f in frames]
            js_type = _JS_TYPES.get(type(values[0]), "vector")
            if js_type == "vector":
                js_type = f"vector{len(values[0])}" if len(values[0]) in (2, 3, 4) else "vector"
            tracks_by_path.setdefault(path, []).append(_track(prop, js_type, frames, values))
        return [{"path": path, "clip": {"fps": self._fps, "name": "default", "tracks": tracks}}
                for path, tracks in tracks_by_path.items()]


def _track(prop, js_type, frames, values):
    def plain(v):
        if isinstance(v, np.ndarray):
            return [float(x) for x in v]
        if isinstance(v, (list, tuple)):
            return [float(x) for x in v]
        return v
    return {"name": "." + prop, "type": js_type,
            "keys": [{"time": int(f), "value": plain(v)} for f, v in zip(frames, values)]}
