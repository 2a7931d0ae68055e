"""MeshcatServer: the live viewer of a Meshcat, served from this process (as Drake's
Meshcat serves its own page and websocket).

One port serves HTTP and the websocket, as Drake's does:

- ``/``, ``/index.html`` and ``/meshcat.html``: the viewer page (the ``meshcat`` package's
  ``index.html``), which loads ``/main.min.js`` (its three.js bundle) and connects back
  to ``ws://<host>:<port>/``;
- ``/favicon.ico``: an icon;
- any other path: 404.

The server runs a tornado event loop on a daemon thread. The socket is bound in the
caller's thread, so a taken port raises there. A browser that connects is sent the scene
so far (the ``scene`` callable), then every command as it is made (`broadcast`), each one
msgpack-encoded as the meshcat viewer expects. Each binary message a browser sends is
handed, as bytes, to the ``receive`` callable (on the server's thread).
"""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
import warnings
from pathlib import Path

__all__ = ["MeshcatServer", "favicon_bytes"]

#: Ports tried, in order, when no port is given (Drake's range).
DEFAULT_PORTS = range(7000, 8000)

_PAGES = ("/", "/index.html", "/meshcat.html")


def favicon_bytes():
    """A 1x1 ICO file (one merganser-teal 32-bit pixel): what ``/favicon.ico`` serves."""
    bgra = bytes((0x80, 0x80, 0x20, 0xFF))
    bitmap = struct.pack("<IiiHHIIiiII", 40, 1, 2, 1, 32, 0, 8, 0, 0, 0, 0) + bgra + \
        b"\x00\x00\x00\x00"                             # pixel, then the 1-bit AND mask row
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", 1, 1, 0, 0, 1, 32, len(bitmap), 6 + 16)
    return header + entry + bitmap


def _bind(host, port):
    """Listening sockets on `host`:`port` (None: the first free port of DEFAULT_PORTS; 0:
    an ephemeral one) and the port bound; RuntimeError when none is free."""
    from tornado.netutil import bind_sockets

    address = None if host in ("*", "") else host
    candidates = DEFAULT_PORTS if port is None else (port,)
    for candidate in candidates:
        try:
            sockets = bind_sockets(candidate, address=address, family=socket.AF_INET)
        except OSError as error:
            last = error
            continue
        return sockets, sockets[0].getsockname()[1]
    wanted = (f"a free port in [{DEFAULT_PORTS.start}, {DEFAULT_PORTS.stop - 1}]"
              if port is None else f"port {port}")
    raise RuntimeError(f"Meshcat: could not listen on {wanted} of host {host!r}: {last}")


class MeshcatServer:
    """HTTP and websocket server of one Meshcat (see the module docstring).

    Parameters
    ----------
    host : str
        Interface to listen on; "*" or "" for every interface.
    port : int or None
        Port to listen on; None for the first free one in [7000, 7999], 0 for an
        ephemeral one.
    scene : callable
        ``scene() -> list of dict``: the commands replayed to a browser that connects.
    viewer_root : Path
        Folder holding the meshcat viewer's ``index.html`` and ``main.min.js``.
    receive : callable, optional
        ``receive(message: bytes)``, called for each binary message a browser sends
        (Meshcat's control and camera messages); None ignores them.

    Raises
    ------
    RuntimeError
        When the port (or every port of the default range) is taken.
    """

    def __init__(self, host, port, scene, viewer_root, receive=None):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import tornado.httpserver
            import tornado.ioloop
            import umsgpack
        self._pack = umsgpack.packb
        sockets, self._port = _bind(host, port)
        self._clients = set()
        self._receive = receive
        app = _application(self, scene, Path(viewer_root))
        ready = threading.Event()

        def serve():
            asyncio.set_event_loop(asyncio.new_event_loop())
            self._loop = tornado.ioloop.IOLoop.current()
            self._http = tornado.httpserver.HTTPServer(app)
            self._http.add_sockets(sockets)
            ready.set()
            self._loop.start()
            self._loop.close(all_fds=True)

        self._thread = threading.Thread(target=serve, name=f"meshcat:{self._port}",
                                        daemon=True)
        self._thread.start()
        ready.wait()

    def port(self):
        """The port listened on."""
        return self._port

    def num_active_connections(self):
        """How many browsers are connected."""
        return len(self._clients)

    def pack(self, command):
        """The msgpack bytes of a command dict (what a browser receives)."""
        return self._pack(command)

    def broadcast(self, command):
        """Send the command dict to every connected browser."""
        if self._clients:
            data = self._pack(command)
            self._loop.add_callback(self._write_all, data)

    def _write_all(self, data):
        for client in list(self._clients):
            client.write_message(data, binary=True)

    def stop(self):
        """Close the connections and the sockets and end the thread."""
        if self._thread.is_alive():
            self._loop.add_callback(self._shutdown)
            self._thread.join(timeout=10.0)

    def _shutdown(self):
        self._http.stop()
        for client in list(self._clients):
            client.close()
        self._loop.stop()


def _application(server, scene, viewer_root):
    """The tornado application of `server` (routes of the module docstring)."""
    import tornado.web
    import tornado.websocket

    page = (viewer_root / "index.html").read_bytes()
    icon = favicon_bytes()

    class Root(tornado.websocket.WebSocketHandler):
        """``/``: the viewer page, or the websocket when the browser asks to upgrade."""

        async def get(self, *args, **kwargs):
            if self.request.headers.get("Upgrade", "").lower() == "websocket":
                await super().get(*args, **kwargs)
            else:
                self.set_header("Content-Type", "text/html; charset=utf-8")
                self.finish(page)

        def open(self):
            server._clients.add(self)
            for command in scene():
                self.write_message(server.pack(command), binary=True)

        def on_message(self, message):
            if server._receive is not None and isinstance(message, bytes):
                server._receive(message)

        def on_close(self):
            server._clients.discard(self)

    class Page(tornado.web.RequestHandler):
        def get(self):
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(page)

    class Bundle(tornado.web.RequestHandler):
        def get(self):
            self.set_header("Content-Type", "text/javascript; charset=utf-8")
            self.finish((viewer_root / "main.min.js").read_bytes())

    class Icon(tornado.web.RequestHandler):
        def get(self):
            self.set_header("Content-Type", "image/x-icon")
            self.finish(icon)

    return tornado.web.Application(
        [(r"/", Root), (r"/(?:index|meshcat)\.html", Page), (r"/main\.min\.js", Bundle),
         (r"/favicon\.ico", Icon)],
        log_function=lambda handler: None)
