"""MeshcatParams: how a Meshcat listens and what it sets up at construction (Drake's
MeshcatParams, with its nested PropertyTuple).

``MeshcatParams(port=7001)`` makes ``Meshcat(params=...)`` listen on port 7001 (a taken
port raises RuntimeError); ``web_url_pattern`` rewrites the URL the Meshcat reports (for a
proxy), with ``{host}`` and ``{port}`` substituted; each ``initial_properties`` entry is a
``set_property(path, property, value)`` the constructor applies.
"""

from __future__ import annotations

import math
from typing import ClassVar, Optional, Union

from pydantic import ConfigDict, StrictBool, StrictFloat, StrictInt, StrictStr, field_validator

from merganser.framework.config_model import ConfigModel

__all__ = ["MeshcatParams", "web_url_from_pattern"]

#: The host names meaning "every interface"; the URL then names "localhost".
ALL_INTERFACES = ("*", "")


class PropertyTuple(ConfigModel):
    """One ``set_property(path, property, value)`` applied at construction.

    Attributes
    ----------
    path : str
        Meshcat path ("/Background", or relative to the Meshcat's root).
    property : str
        Property name ("visible", "top_color", "intensity", ...).
    value : bool, float, str or list of float
        The value (default: an empty list, as Drake's).
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    path: StrictStr = ""
    property: StrictStr = ""
    value: Union[StrictBool, StrictFloat, StrictInt, StrictStr, list[float]] = []

    @field_validator("value")
    @classmethod
    def _int_is_float(cls, value):
        return float(value) if isinstance(value, int) and not isinstance(value, bool) \
            else value


class MeshcatParams(ConfigModel):
    """The set of parameters for configuring Meshcat.

    Attributes
    ----------
    host : str
        Interface to listen on ("localhost", "127.0.0.1"); "*" (the default) or ""
        means every interface.
    port : int or None
        HTTP (and websocket) port. None: the first free port in [7000, 7999]; 0: an
        ephemeral port chosen by the system; otherwise that port, which must be >= 1024.
    web_url_pattern : str
        Pattern of `Meshcat.web_url` (and so of `Meshcat.ws_url`): ``{host}`` becomes
        `host` ("localhost" when `host` means every interface), ``{port}`` the port
        listened on.
    initial_properties : list of PropertyTuple
        Properties the constructor sets, in order.
    show_stats_plot : bool
        Whether the viewer shows its stats plot (kept; the bundled meshcat viewer draws
        none).
    realtime_rate_period : float
        Minimum wall-clock seconds between realtime-rate broadcasts; must be > 0.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    PropertyTuple: ClassVar[type] = PropertyTuple

    host: StrictStr = "*"
    port: Optional[StrictInt] = None
    web_url_pattern: StrictStr = "http://{host}:{port}"
    initial_properties: list[PropertyTuple] = []
    show_stats_plot: StrictBool = True
    realtime_rate_period: float = 0.25

    @field_validator("port")
    @classmethod
    def _port_is_zero_or_unprivileged(cls, port):
        if port is not None and port != 0 and not 1024 <= port <= 65535:
            raise ValueError(f"MeshcatParams: port must be None, 0 or in [1024, 65535], "
                             f"got {port}")
        return port

    @field_validator("realtime_rate_period")
    @classmethod
    def _period_is_positive(cls, period):
        if not (math.isfinite(period) and period > 0.0):
            raise ValueError(f"MeshcatParams: realtime_rate_period must be finite and > 0, "
                             f"got {period!r}")
        return period


def web_url_from_pattern(params, port):
    """`params.web_url_pattern` with ``{host}`` and ``{port}`` substituted.

    Parameters
    ----------
    params : MeshcatParams
    port : int
        The port the server listens on.

    Returns
    -------
    str
        The URL (e.g. "http://localhost:7000").
    """
    host = "localhost" if params.host in ALL_INTERFACES else params.host
    try:
        return params.web_url_pattern.format(host=host, port=port)
    except (KeyError, IndexError, ValueError) as error:
        raise ValueError(f"Meshcat: MeshcatParams.web_url_pattern must use only {{host}} "
                         f"and {{port}}, got {params.web_url_pattern!r} ({error!r})") from None
