"""MeshcatPointCloudVisualizer: draws the PointCloud on its input port in a Meshcat (Drake's
MeshcatPointCloudVisualizer).

::

    cloud ─────────▶ ┌─────────────────────────────┐
    X_ParentCloud ─▶ │ MeshcatPointCloudVisualizer │   (publishes to a Meshcat)
                     └─────────────────────────────┘

At each periodic publish (every `publish_period` s of simulation time) and each forced
publish, the cloud is set as the object at `path` (``Meshcat.set_object(path, cloud,
point_size, default_rgba)``: its rgbs color the points when it has them) and `path`'s
transform is set to the ``X_ParentCloud`` input, or to the identity when that optional
port has no value.
"""

from __future__ import annotations

import math

import numpy as np

from merganser.framework import LeafSystem
from merganser.geometry.point_cloud import PointCloud
from merganser.geometry.rigid_transform import RigidTransform

__all__ = ["MeshcatPointCloudVisualizer"]


class MeshcatPointCloudVisualizer(LeafSystem):
    """See the module docstring.

    Parameters
    ----------
    meshcat : Meshcat
    path : str
        The Meshcat path of the cloud (relative paths are under /merganser).
    publish_period : float
        Seconds of simulation time between publishes (> 0; Drake's default 1/32).

    Raises
    ------
    TypeError
        When `meshcat` is no Meshcat or `path` no str.
    ValueError
        For a publish period that is not finite and > 0.
    """

    def __init__(self, meshcat, path, publish_period=1.0 / 32.0):
        super().__init__()
        if not hasattr(meshcat, "set_object"):
            raise TypeError(f"MeshcatPointCloudVisualizer: meshcat must be a Meshcat, got "
                            f"{type(meshcat).__name__}")
        if not isinstance(path, str):
            raise TypeError(f"MeshcatPointCloudVisualizer: path must be a str, got "
                            f"{type(path).__name__}")
        period = float(publish_period)
        if not (math.isfinite(period) and period > 0.0):
            raise ValueError(f"MeshcatPointCloudVisualizer: publish_period must be finite "
                             f"and > 0, got {publish_period!r}")
        self._meshcat = meshcat
        self._path = path
        self._publish_period = period
        self._point_size = 0.001
        self._default_rgba = np.array([0.9, 0.9, 0.9, 1.0])
        self._cloud = self.declare_abstract_input_port("cloud", PointCloud())
        self._pose = self.declare_abstract_input_port("X_ParentCloud", RigidTransform(),
                                                      required=False)
        self.declare_periodic_publish_event(period, 0.0, self._update_meshcat)
        self.declare_forced_publish_event(self._update_meshcat)

    def set_point_size(self, point_size):
        """The size of each drawn point (m, as Drake reads three.js's unit; default 0.001).

        Raises
        ------
        ValueError
            Unless finite and > 0.
        """
        size = float(point_size)
        if not (math.isfinite(size) and size > 0.0):
            raise ValueError(f"MeshcatPointCloudVisualizer.set_point_size: point_size must "
                             f"be finite and > 0, got {point_size!r}")
        self._point_size = size

    def set_default_rgba(self, rgba):
        """The color of every point of a cloud without rgbs (Rgba or (4,) in [0, 1];
        default (0.9, 0.9, 0.9, 1))."""
        color = np.asarray(rgba, dtype=float).reshape(-1)
        if color.shape != (4,) or not np.all(np.isfinite(color)):
            raise ValueError(f"MeshcatPointCloudVisualizer.set_default_rgba: rgba must be "
                             f"an Rgba or 4 finite numbers, got shape {color.shape}")
        self._default_rgba = color

    def delete(self):
        """Delete `path` from the Meshcat (Drake's Delete)."""
        self._meshcat.delete(self._path)

    def cloud_input_port(self):
        """The PointCloud-valued input port "cloud"."""
        return self._cloud

    def pose_input_port(self):
        """The RigidTransform-valued input port "X_ParentCloud" (optional)."""
        return self._pose

    def _update_meshcat(self, context):
        cloud = self._cloud.eval(context)
        if not isinstance(cloud, PointCloud):
            raise TypeError(f"MeshcatPointCloudVisualizer '{self.get_name()}': input port "
                            f"'cloud' must hold a PointCloud, got {type(cloud).__name__}")
        self._meshcat.set_object(self._path, cloud, self._point_size, self._default_rgba)
        X = self._pose.eval(context) if self._pose.has_value(context) else RigidTransform()
        self._meshcat.set_transform(self._path, X)
