"""The self-contained HTML replay page: the meshcat viewer bundle, the scene commands and a
time slider, all inline (no network access when it is opened); or, for a zip of the page
(`Meshcat.static_zip`), the same page loading the bundle from ``main.min.js`` beside it.

The scene commands are the msgpack messages the live server sends, each embedded as a
``data:application/octet-binary;base64,...`` URI (as Drake's StaticHtml embeds them) in the
JSON list ``<script type="application/json" id="merganser-commands">``; the page decodes
each and hands it to the viewer's ``handle_command_bytearray``, as a websocket message.

Page contract (used by the browser test and by anyone scripting the page):

- ``window.merganser.seek(t)`` shows the recording at time t (s) and pauses it;
  ``window.merganser.play()``; ``window.merganser.duration`` (s);
  ``window.merganser.viewer`` is the meshcat Viewer;
- ``<input id="merganser-time" type="range">`` is the time slider (s); opening the page
  as ``replay.html#t=1.5`` shows the recording paused at t = 1.5 s;
- once the commands are loaded, ``<pre id="merganser-scene-objects">`` holds the JSON list
  of the scene's object paths (every named three.js node under ``/merganser``, as
  "/merganser/illustration/..." strings) and ``document.body.dataset.merganserReady`` is
  "1".
"""

from __future__ import annotations

import base64
import html
import json

__all__ = ["MESSAGE_URI_PREFIX", "command_uris", "render_static_html"]

#: The prefix of each embedded command (msgpack bytes, base64).
MESSAGE_URI_PREFIX = "data:application/octet-binary;base64,"


def command_uris(messages):
    """The JSON list of data URIs of msgpack `messages` (bytes), safe in a <script>."""
    return json.dumps([MESSAGE_URI_PREFIX + base64.b64encode(m).decode("ascii")
                       for m in messages], separators=(",", ":"))


_STYLE = """
body { margin: 0; overflow: hidden; font-family: sans-serif; }
#meshcat-pane { width: 100vw; height: 100vh; overflow: hidden; }
#merganser-controls { position: absolute; left: 12px; bottom: 12px; right: 260px;
  display: flex; align-items: center; gap: 8px; padding: 6px 10px;
  background: rgba(255, 255, 255, 0.85); border-radius: 6px; }
#merganser-time { flex: 1; }
#merganser-clock { min-width: 7em; text-align: right; font-variant-numeric: tabular-nums; }
"""

_SCRIPT = r"""
(function () {
  var viewer = new MeshCat.Viewer(document.getElementById("meshcat-pane"));
  JSON.parse(document.getElementById("merganser-commands").textContent).forEach(
    function (uri) {
      var raw = atob(uri.slice(uri.indexOf(",") + 1)), bytes = new Uint8Array(raw.length);
      for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
      viewer.handle_command_bytearray(bytes);
    });

  var slider = document.getElementById("merganser-time");
  var clock = document.getElementById("merganser-clock");
  var button = document.getElementById("merganser-play");
  var duration = DURATION;
  slider.max = duration;
  function show(t) { clock.textContent = t.toFixed(3) + " / " + duration.toFixed(3) + " s"; }
  function seek(t) {
    t = Math.max(0, Math.min(duration, Number(t)));
    if (viewer.animator.playing) { viewer.animator.pause(); }
    viewer.animator.seek(t);
    slider.value = t; show(t);
    button.textContent = "Play";
  }
  function play() {
    if (Number(slider.value) >= duration) { viewer.animator.reset(); }
    viewer.animator.play(); button.textContent = "Pause";
  }
  slider.addEventListener("input", function () { seek(slider.value); });
  button.addEventListener("click", function () {
    if (viewer.animator.playing) { seek(slider.value); } else { play(); }
  });
  function follow() {
    if (viewer.animator.playing && viewer.animator.actions.length > 0) {
      var t = viewer.animator.actions[0].time;
      slider.value = t; show(t);
    }
    requestAnimationFrame(follow);
  }
  show(0); follow();
  if (duration <= 0) { document.getElementById("merganser-controls").style.display = "none"; }
  else if (viewer.animator.playing) { button.textContent = "Pause"; }
  var start = /[#&]t=([0-9.eE+-]+)/.exec(location.hash);
  if (start && duration > 0) { seek(parseFloat(start[1])); }

  var names = [];
  (function walk(node, path) {
    node.children.forEach(function (child) {
      if (!child.name || child.name === "<object>") { return; }
      var p = path + "/" + child.name;
      if (p.indexOf("/merganser") === 0) { names.push(p); }
      walk(child, p);
    });
  })(viewer.scene, "");
  document.getElementById("merganser-scene-objects").textContent = JSON.stringify(names);
  window.merganser = {viewer: viewer, seek: seek, play: play, duration: duration,
                      objects: names};
  document.body.dataset.merganserReady = "1";
})();
"""


def render_static_html(bundle, bundle_version, messages, duration, title,
                       bundle_src=None):
    """The replay page.

    Parameters
    ----------
    bundle : str
        The meshcat viewer's JavaScript (``main.min.js`` of the meshcat package), inlined;
        unused when `bundle_src` is given.
    bundle_version : str
        Its version (noted in the page).
    messages : list of bytes
        The scene's commands, each msgpack-encoded as the live server sends it.
    duration : float
        Length of the recording (s); 0 hides the time slider.
    title : str
    bundle_src : str, optional
        A relative URL to load the bundle from instead of inlining it (the zip's
        ``main.min.js``).
    """
    script = _SCRIPT.replace("DURATION", repr(float(duration)))
    if bundle_src is None:
        viewer = "<script>" + bundle.replace("</script", "<\\/script") + "</script>"
    else:
        viewer = f'<script src="{html.escape(bundle_src)}"></script>'
    return "\n".join([
        "<!DOCTYPE html>", "<html>", "<head>", '<meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>", f"<style>{_STYLE}</style>", "</head>",
        "<body>", '<div id="meshcat-pane"></div>',
        '<div id="merganser-controls"><button id="merganser-play" type="button">'
        'Play</button><input id="merganser-time" type="range" min="0" max="0" '
        'step="0.001" value="0"><span id="merganser-clock"></span></div>',
        '<pre id="merganser-scene-objects" hidden></pre>',
        f"<!-- meshcat viewer {html.escape(bundle_version)} (three.js and its other "
        f"libraries; licenses in the meshcat package's main.min.js.LICENSE.txt) -->",
        viewer,
        f'<script type="application/json" id="merganser-commands">'
        f'{command_uris(messages)}</script>',
        f"<script>{script}</script>", "</body>", "</html>", ""])
