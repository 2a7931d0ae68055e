"""MeshcatAnimation: keyframes of transforms and properties, lowered to meshcat's
``set_animation`` command (three.js AnimationClips, one per scene path).

Times are stored as frame numbers at ``frames_per_second``; a transform becomes
``.position`` (vector3), ``.quaternion`` (x, y, z, w, three.js order) and, when it is not
rigid, ``.scale`` tracks; a property becomes a track of its own (``.visible`` is a
boolean track).
"""

from __future__ import annotations

import numpy as np

from merganser.framework.drake_enum import DrakeIntEnum

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


class LoopMode(DrakeIntEnum):
    """What the viewer does at the end of the clip (three.js's loop constants)."""

    kLoopOnce = 2200
    """Play the clip once."""
    kLoopRepeat = 2201
    """Play it `repetitions` times, each time from the beginning."""
    kLoopPingPong = 2202
    """Play it `repetitions` times, alternately forward and backward."""


class MeshcatAnimation:
    """Recorded keyframes and how the viewer plays them (Drake's MeshcatAnimation).

    Parameters
    ----------
    frames_per_second : float
        Frame rate of the recording; a time t is stored at frame
        floor((t - start_time) · fps), as Drake's `frame`.

    Notes
    -----
    Playback options, sent with the animation (`options`): `autoplay` (default True),
    `loop_mode` (default kLoopRepeat), `repetitions` (default 1) and
    `clamp_when_finished` (default True). `start_time` (default 0) only shifts `frame`.
    """

    LoopMode = LoopMode

    def __init__(self, frames_per_second=64.0):
        fps = float(frames_per_second)
        if not (np.isfinite(fps) and fps > 0.0):
            raise ValueError(f"MeshcatAnimation: frames_per_second must be > 0, got "
                             f"{frames_per_second!r}")
        self._fps = fps
        self._transforms = {}      # path -> {frame: (4, 4)}
        self._properties = {}      # (path, property) -> {frame: value}
        self._start_time = 0.0
        self._autoplay = True
        self._loop_mode = LoopMode.kLoopRepeat
        self._repetitions = 1
        self._clamp_when_finished = True

    def frames_per_second(self):
        return self._fps

    def frame(self, time_from_start):
        """The frame number of `time_from_start` (s): floor((time - start_time) · fps).

        Raises
        ------
        ValueError
            When the time is before `start_time` (or not finite).
        """
        time = float(time_from_start)
        if not (np.isfinite(time) and time >= self._start_time):
            raise ValueError(f"MeshcatAnimation.frame: time_from_start must be finite and "
                             f">= start_time() = {self._start_time}, got {time_from_start!r}")
        return int(np.floor((time - self._start_time) * self._fps))

    # ---- playback options ----------------------------------------------------------------
    def start_time(self):
        return self._start_time

    def set_start_time(self, time):
        """The time of frame 0 for `frame` (not sent to the viewer; frames already set are
        unchanged)."""
        start = float(time)
        if not np.isfinite(start):
            raise ValueError(f"MeshcatAnimation.set_start_time: time must be finite, got "
                             f"{time!r}")
        self._start_time = start

    def autoplay(self):
        return self._autoplay

    def set_autoplay(self, play):
        """Whether the animation plays as soon as it reaches the viewer."""
        self._autoplay = _strict_bool("set_autoplay", "play", play)

    def loop_mode(self):
        return self._loop_mode

    def set_loop_mode(self, mode):
        """kLoopOnce, kLoopRepeat or kLoopPingPong (a `LoopMode`)."""
        if not isinstance(mode, LoopMode):
            raise TypeError(f"MeshcatAnimation.set_loop_mode: mode must be a "
                            f"MeshcatAnimation.LoopMode, got {mode!r}")
        self._loop_mode = mode

    def repetitions(self):
        return self._repetitions

    def set_repetitions(self, repetitions):
        """How many times the clip plays (no effect with kLoopOnce); a positive int."""
        if isinstance(repetitions, bool) or not isinstance(repetitions, (int, np.integer)) \
                or repetitions < 1:
            raise ValueError(f"MeshcatAnimation.set_repetitions: repetitions must be a "
                             f"positive int, got {repetitions!r}")
        self._repetitions = int(repetitions)

    def clamp_when_finished(self):
        return self._clamp_when_finished

    def set_clamp_when_finished(self, clamp):
        """True: pause on the last frame at the end; False: reset the scene to before the
        animation."""
        self._clamp_when_finished = _strict_bool("set_clamp_when_finished", "clamp", clamp)

    def options(self):
        """The ``options`` of meshcat's ``set_animation`` command (the viewer's names)."""
        return {"play": self._autoplay, "loopMode": int(self._loop_mode),
                "repetitions": self._repetitions,
                "clampWhenFinished": self._clamp_when_finished}

    # ---- keyframes -----------------------------------------------------------------------
    def set_transform(self, frame, path, X_ParentPath):
        """Keyframe the transform of `path` (RigidTransform or (4, 4)) at `frame`."""
        if hasattr(X_ParentPath, "get_as_matrix4"):
            X_ParentPath = X_ParentPath.get_as_matrix4()
        X = np.array(X_ParentPath, dtype=float)
        if X.shape != (4, 4):
            raise ValueError(f"MeshcatAnimation.set_transform: X_ParentPath must be a "
                             f"RigidTransform or a (4, 4) matrix, got shape {X.shape}")
        self._transforms.setdefault(path, {})[_frame_index("set_transform", frame)] = X

    def set_property(self, frame, path, property, value):  # noqa: A002 (pydrake's keyword)
        """Keyframe `property` of `path` at `frame` (bool, number or list of numbers)."""
        self._properties.setdefault((path, property), {})[
            _frame_index("set_property", frame)] = value

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


def _strict_bool(method, name, value):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"MeshcatAnimation.{method}: {name} must be a bool, got {value!r}")
    return bool(value)


def _frame_index(method, frame):
    if isinstance(frame, bool) or not isinstance(frame, (int, np.integer)) or frame < 0:
        raise ValueError(f"MeshcatAnimation.{method}: frame must be a non-negative int, "
                         f"got {frame!r}")
    return int(frame)


def _track(prop, js_type, frames, values):
    def plain(v):
        if isinstance(v, np.ndarray):
            return [float(x) for x in v]
        if isinstance(v, (list, tuple)):
            return [float(x) for x in v]
        return v
    return {"name": "." + prop, "type": js_type,
            "keys": [{"time": int(f), "value": plain(v)} for f, v in zip(frames, values)]}
