"""MeshcatParams, the in-process live server (ports, URLs, the paths it answers, the
websocket), and MeshcatAnimation's playback options, as Drake's behave."""

import asyncio
import urllib.error
import urllib.request

import numpy as np
import pytest

import viz_scene
from merganser.geometry import Box, RigidTransform
from merganser.geometry.visualization import Meshcat, MeshcatAnimation, MeshcatParams

umsgpack = pytest.importorskip("umsgpack")
websocket = pytest.importorskip("tornado.websocket")

PropertyTuple = MeshcatParams.PropertyTuple
LoopMode = MeshcatAnimation.LoopMode


@pytest.fixture
def served():
    """Meshcats made by a test, their servers stopped afterwards."""
    made = []

    def make(*args, **kwargs):
        made.append(Meshcat(*args, **kwargs))
        return made[-1]
    yield make
    for meshcat in made:
        meshcat.stop_server()


def _status_and_body(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


def _first_messages(url, count, then=None):
    """The first `count` websocket messages from `url`, decoded; `then()` runs after the
    first `count` and one more message is read."""
    async def run():
        client = await websocket.websocket_connect(url)
        messages = [umsgpack.unpackb(await client.read_message()) for _ in range(count)]
        if then is not None:
            then()
            messages.append(umsgpack.unpackb(await client.read_message()))
        client.close()
        return messages
    return asyncio.run(asyncio.wait_for(run(), timeout=10))


# ---- MeshcatParams -----------------------------------------------------------------------
def test_meshcat_params_defaults_are_drakes():
    params = MeshcatParams()
    assert (params.host, params.port, params.web_url_pattern) == ("*", None,
                                                                  "http://{host}:{port}")
    assert params.initial_properties == []
    assert params.show_stats_plot is True
    assert params.realtime_rate_period == 0.25
    assert "port=7777" in repr(MeshcatParams(port=7777))
    assert "path='a'" in repr(PropertyTuple(path="a", property="p", value=1.0))


def test_property_tuple_keeps_the_value_type():
    values = [PropertyTuple(path="p", property="q", value=v).value
              for v in ([1.0, 2.0], "hello", True, 22.2, 3)]
    assert values == [[1.0, 2.0], "hello", True, 22.2, 3.0]
    assert [type(v) for v in values] == [list, str, bool, float, float]
    assert PropertyTuple().value == []


@pytest.mark.parametrize("kwargs, match", [
    ({"port": 80}, "port must be None, 0 or in \\[1024, 65535\\], got 80"),
    ({"port": "7000"}, "port"),
    ({"realtime_rate_period": 0.0}, "realtime_rate_period must be finite and > 0"),
    ({"hots": "*"}, "hots"),
])
def test_meshcat_params_refuse_bad_fields(kwargs, match):
    with pytest.raises(ValueError, match=match):
        MeshcatParams(**kwargs)


def test_meshcat_refuses_a_bad_port_or_params():
    with pytest.raises(ValueError, match="Meshcat: port must be 0 or in"):
        Meshcat(port=5)
    with pytest.raises(TypeError, match="params must be a MeshcatParams or an int port, "
                                        "got str"):
        Meshcat(params="7000")
    with pytest.raises(TypeError, match="port once"):
        Meshcat(params=MeshcatParams(), port=7000)


# ---- ports and URLs ----------------------------------------------------------------------
def test_params_port_is_listened_on_at_construction_and_a_taken_port_raises(served):
    meshcat = served(params=MeshcatParams(port=0))
    port = meshcat.port()
    assert meshcat.is_server_running() and port > 0
    assert meshcat.web_url() == f"http://localhost:{port}"
    assert meshcat.ws_url() == f"ws://localhost:{port}"
    with pytest.raises(RuntimeError, match=f"could not listen on port {port}"):
        Meshcat(port=port)
    positional = served(0)                   # Drake's positional Meshcat(port) form
    assert positional.is_server_running() and positional.port() not in (0, port)


def test_web_url_pattern_and_host_shape_the_urls(served):
    meshcat = served(params=MeshcatParams(port=0, host="127.0.0.1",
                                          web_url_pattern="https://{host}/proxy/{port}"))
    assert meshcat.web_url() == f"https://127.0.0.1/proxy/{meshcat.port()}"
    assert meshcat.ws_url() == f"wss://127.0.0.1/proxy/{meshcat.port()}"
    with pytest.raises(ValueError, match="web_url_pattern must use only"):
        served(params=MeshcatParams(port=0, web_url_pattern="http://{hostname}"))


def test_a_meshcat_without_params_opens_no_socket_until_asked(served):
    meshcat = served()
    assert not meshcat.is_server_running()
    assert meshcat.get_num_active_connections() == 0
    assert meshcat.web_url().startswith("http://localhost:")
    assert meshcat.is_server_running()


def test_server_answers_drakes_paths_and_404_otherwise(served):
    url = served(params=MeshcatParams(port=0)).web_url()
    for path in ("", "/", "/index.html", "/meshcat.html"):
        status, body = _status_and_body(url + path)
        assert status == 200 and b"MeshCat.Viewer" in body, path
    status, icon = _status_and_body(url + "/favicon.ico")
    assert status == 200 and icon[:4] == b"\x00\x00\x01\x00"        # an ICO header
    status, bundle = _status_and_body(url + "/main.min.js")
    assert status == 200 and len(bundle) > 100_000
    for path in ("/no_such_file", "/favicon.ico/no_such_file", "/static/"):
        assert _status_and_body(url + path)[0] == 404, path


# ---- the websocket -----------------------------------------------------------------------
def test_a_browser_gets_the_initial_properties_the_scene_then_each_change(served):
    initial = [PropertyTuple(path="/Background", property="visible", value=False)]
    meshcat = served(params=MeshcatParams(port=0, initial_properties=initial))
    meshcat.set_object("box", Box(1.0, 2.0, 3.0), [1.0, 0.0, 0.0, 1.0])

    def change():
        assert meshcat.get_num_active_connections() == 1
        meshcat.set_transform("box", RigidTransform([1.0, 2.0, 3.0]))
    first, second, third = _first_messages(meshcat.ws_url(), 2, then=change)
    assert (first["type"], first["path"]) == ("set_object", "/merganser/box")
    assert second == {"type": "set_property", "path": "/Background",
                      "property": "visible", "value": False}
    assert third["type"] == "set_transform"
    np.testing.assert_allclose(np.reshape(third["matrix"], (4, 4)).T[:3, 3], [1, 2, 3])


# ---- MeshcatAnimation --------------------------------------------------------------------
def test_animation_playback_defaults_are_drakes():
    animation = MeshcatAnimation()
    assert animation.frames_per_second() == 64.0
    assert animation.start_time() == 0.0
    assert animation.autoplay() is True
    assert animation.loop_mode() == LoopMode.kLoopRepeat
    assert animation.repetitions() == 1
    assert animation.clamp_when_finished() is True
    assert [int(m) for m in LoopMode] == [2200, 2201, 2202]       # three.js's constants


def test_frame_floors_the_time_since_the_start_time():
    animation = MeshcatAnimation(frames_per_second=64)
    assert animation.frame(1.0) == 64
    animation.set_start_time(time=1.0)
    assert animation.start_time() == 1.0
    assert [animation.frame(t) for t in (1.0, 1.0 + 0.99 / 64, 1.0 + 1.0 / 64, 1.5)] == \
        [0, 0, 1, 32]
    with pytest.raises(ValueError, match=r"frame: time_from_start must be finite and >= "
                                         r"start_time\(\) = 1.0, got 0.5"):
        animation.frame(0.5)


def test_animation_setters_validate_and_reach_the_set_animation_options():
    animation = MeshcatAnimation(frames_per_second=10)
    animation.set_autoplay(play=False)
    animation.set_loop_mode(mode=LoopMode.kLoopPingPong)
    animation.set_repetitions(repetitions=20)
    animation.set_clamp_when_finished(clamp=False)
    animation.set_transform(frame=0, path="/merganser/a",
                            X_ParentPath=RigidTransform([0.0, 0.0, 1.0]))
    animation.set_property(frame=2, path="/merganser/a", property="visible", value=True)
    meshcat = Meshcat()
    meshcat.set_animation(animation)
    commands = viz_scene.page_commands(meshcat.static_html())
    [published] = [c for c in commands if c["type"] == "set_animation"]
    assert published["options"] == {"play": False, "loopMode": 2202, "repetitions": 20,
                                     "clampWhenFinished": False}
    assert meshcat.get_mutable_recording() is animation
    for bad, match in [(lambda: animation.set_repetitions(0), "repetitions must be a "
                        "positive int, got 0"),
                       (lambda: animation.set_loop_mode(2201), "mode must be a "
                        "MeshcatAnimation.LoopMode"),
                       (lambda: animation.set_autoplay(1), "play must be a bool"),
                       (lambda: animation.set_transform(-1, "a", np.eye(4)),
                        "frame must be a non-negative int, got -1"),
                       (lambda: meshcat.set_animation("clip"), "animation must be a "
                        "MeshcatAnimation, got str")]:
        with pytest.raises((TypeError, ValueError), match=match):
            bad()


def test_publish_recording_sets_play_and_repetitions_on_the_recording():
    meshcat = Meshcat()
    with pytest.raises(RuntimeError, match="get_mutable_recording: there is no recording"):
        meshcat.get_mutable_recording()
    meshcat.start_recording(frames_per_second=8.0)
    meshcat.set_transform("a", np.eye(4), time_in_recording=0.5)
    meshcat.publish_recording(play=False, repetitions=3)
    recording = meshcat.get_mutable_recording()
    assert (recording.autoplay(), recording.repetitions()) == (False, 3)
    assert recording.get_transform("/merganser/a", 4)[3, 3] == 1.0
