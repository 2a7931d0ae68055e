"""The ahead-of-time kernels (framework.compilation, merganser/aot_build.py): the
functions of the extension built at install give the bits the JIT gives, a stale
extension (sources edited since the build) falls back to the JIT and says so once, so
does an extension built for another CPU than the one numba's JIT targets (numba's
``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` change that target, as moving the install to
another machine would), ``MERGANSER_AOT=0`` turns it off, and arguments of other types than those built are
compiled for, never misread.

Each check runs in a fresh process (what a kernel binds to is decided at its first call).
Without the extension (no C compiler at install, or built with ``MERGANSER_AOT=0``) the
checks that need it are skipped.
"""

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from merganser.framework.compilation import (
    AOT_OTHER_CPU_NOTICE, AOT_STALE_NOTICE, aot_status,
)

PANDA = (pathlib.Path(__file__).resolve().parents[1]
         / "data/models/example-robot-data/robots/panda_description/urdf/panda.urdf")
ERD = PANDA.parents[3]

# Panda's mass matrix, forward and inverse dynamics at a random state, then 0.1 s of a
# discrete simulation (its mimic fingers step under SAP): the kernels of the start-up.
_DYNAMICS = f"""
import json
import numpy as np
from merganser.framework import compilation
from merganser.multibody import MultibodyForces, MultibodyPlant
from merganser.multibody.parsing import Parser
{{patch}}
def panda(time_step):
    plant = MultibodyPlant(time_step)
    parser = Parser(plant, geometry_roles=())
    parser.package_map().add("example-robot-data", {str(ERD)!r})
    parser.add_models({str(PANDA)!r})
    plant.weld_frames(plant.world_frame(), plant.get_body_by_name("panda_link0").body_frame())
    plant.finalize()
    ctx = plant.create_default_context()
    plant.get_actuation_input_port().fix_value(ctx, np.zeros(plant.num_actuators()))
    return plant, ctx
plant, ctx = panda(0.0)
rng = np.random.default_rng(7)
plant.set_positions(ctx, rng.uniform(-1, 1, plant.num_positions()))
plant.set_velocities(ctx, rng.uniform(-1, 1, plant.num_velocities()))
values = {{
    "M": plant.calc_mass_matrix(ctx).ravel().tolist(),
    "vdot": plant.calc_forward_dynamics(ctx).ravel().tolist(),
    "tau": plant.calc_inverse_dynamics(ctx, rng.uniform(-1, 1, plant.num_velocities()),
                                       MultibodyForces(plant)).tolist(),
}}
plant, ctx = panda(1e-3)
plant.simulate(0.1, context=ctx, progress=False)
values["x"] = plant.get_positions(ctx).tolist() + plant.get_velocities(ctx).tolist()
print("RESULT " + json.dumps({{"values": values, "status": compilation.aot_status()}}))
"""


def _child(code, aot=True, **env_vars):
    env = dict(os.environ, MERGANSER_AOT="1" if aot else "0", **env_vars)
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    return json.loads(line[len("RESULT "):]), proc.stderr


def _extension_built():
    return aot_status()["functions"] > 0


needs_extension = pytest.mark.skipif(
    not _extension_built(), reason="the ahead-of-time extension is not built (no C compiler "
                                   "at install, MERGANSER_AOT=0, or a source checkout)")


@pytest.fixture(scope="module")
def jit():
    """The dynamics of the JIT (``MERGANSER_AOT=0``) and what its process reported."""
    return _child(_DYNAMICS.replace("{patch}", ""), aot=False)


@needs_extension
def test_aot_gives_the_bits_of_the_jit(jit):
    (aot, stderr), (expected, _) = _child(_DYNAMICS.replace("{patch}", "")), jit
    bound = {name.rsplit(".", 1)[-1] for name in aot["status"]["bound"]}
    # The start-up's kernels ran ahead of time: the mass matrix, ABA, RNEA, SAP's step.
    assert {"calc_mass_matrix_at", "calc_forward_dynamics_damped", "calc_inverse_dynamics_at",
            "calc_mass_matrix", "sap_step", "next_state"} <= bound
    assert aot["status"]["stale"] == [] and AOT_STALE_NOTICE not in stderr
    assert aot["status"]["other_cpu"] == [] and AOT_OTHER_CPU_NOTICE not in stderr
    for key, values in expected["values"].items():
        assert aot["values"][key] == values, key       # bitwise
    assert np.isfinite(aot["values"]["M"]).all() and max(map(abs, aot["values"]["M"])) > 0.01


def test_opt_out_uses_no_ahead_of_time_function(jit):
    result, _ = jit
    assert result["status"]["enabled"] is False
    assert result["status"]["functions"] == 0 and result["status"]["bound"] == []


@needs_extension
def test_a_stale_extension_falls_back_to_the_jit_and_says_so_once(jit):
    # A source edited since the build changes the kernels' source hash: simulated by a
    # hash that matches no built one.
    patch = "compilation.aot_source_hash = lambda wrapped: 12345"
    stale, stderr = _child(_DYNAMICS.replace("{patch}", patch))
    assert stderr.count(AOT_STALE_NOTICE) == 1
    assert stale["status"]["bound"] == []
    assert {"calc_mass_matrix", "sap_step"} <= {n.rsplit(".", 1)[-1] for n in stale["status"]["stale"]}
    assert stale["values"] == jit[0]["values"]


def test_the_source_hash_follows_the_content_of_the_kernel_sources(tmp_path):
    (tmp_path / "aot_probe.py").write_text(textwrap.dedent("""
        from merganser.framework.compilation import kernel

        @kernel
        def scaled(a, out):
            for i in range(a.shape[0]):
                out[i] = 2.0 * a[i]
    """))
    code = f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        import aot_probe
        from merganser.framework.compilation import aot_source_hash
        print("RESULT", aot_source_hash(aot_probe.scaled))
    """

    def hash_now():
        return _child(code)[0]

    first = hash_now()
    assert hash_now() == first                                   # stable across processes
    source = (tmp_path / "aot_probe.py").read_text()
    (tmp_path / "aot_probe.py").write_text(source.replace("2.0 * a[i]", "3.0 * a[i]"))
    assert hash_now() != first
    (tmp_path / "aot_probe.py").write_text(source)
    assert hash_now() == first                                   # content, not the mtime
    assert isinstance(first, int) and 0 <= first < 2 ** 63


@needs_extension
def test_other_argument_types_compile_instead_of_being_misread(tmp_path):
    # matvec is built ahead for float64 C-contiguous arrays (the framework's blocks);
    # an int matrix, a float32 vector and a strided vector must give the right numbers,
    # and a kernel calling it compiles through numba as before, also from a module whose
    # name for it is bound to the extension's function.
    (tmp_path / "aot_caller.py").write_text(textwrap.dedent("""
        from merganser.framework.compilation import kernel
        from merganser.framework.matvec import matvec

        def from_python(M, x, out):     # binds this module's matvec to the extension's
            matvec(M, x, out)

        @kernel
        def twice(M, x, out):
            matvec(M, x, out)
            for i in range(out.shape[0]):
                out[i] *= 2.0
    """))
    code = f"""
        import json, sys
        import numpy as np
        from merganser.framework.compilation import aot_status
        from merganser.framework.matvec import matvec
        M = np.arange(6.0).reshape(2, 3)
        x = np.array([1.0, -2.0, 0.5])
        out = np.zeros(2)
        results = []
        for MM, xx in [(M, x), (M.astype(np.int64), x), (M, x.astype(np.float32)),
                       (M, np.array([1.0, 9.0, -2.0, 9.0, 0.5])[::2]), (M.T.copy().T, x)]:
            matvec(MM, xx, out)
            results.append(out.tolist())
        sys.path.insert(0, {str(tmp_path)!r})
        import aot_caller
        aot_caller.from_python(M, x, out)
        aot_caller.twice(M, x, out)
        results.append(out.tolist())
        print("RESULT " + json.dumps({{"results": results, "status": aot_status()}}))
    """
    result, _ = _child(code)
    assert "merganser.framework.matvec.matvec" in result["status"]["bound"]
    expected = (np.arange(6.0).reshape(2, 3) @ np.array([1.0, -2.0, 0.5])).tolist()
    assert expected == [-1.0, -2.5]
    assert result["results"][:5] == [expected] * 5
    assert result["results"][5] == [-2.0, -5.0]


# Calls of matvec (built ahead for float64 C-contiguous arrays) and what the process saw.
_MATVEC = """
    import json
    import numpy as np
    from merganser.framework.compilation import aot_cpu_hash, aot_status, aot_target_cpu
    from merganser.framework.matvec import matvec
    out = np.zeros(2)
    matvec(np.arange(6.0).reshape(2, 3), np.array([1.0, -2.0, 0.5]), out)
    print("RESULT " + json.dumps({"out": out.tolist(), "status": aot_status(),
                                  "target": aot_target_cpu(), "hash": aot_cpu_hash()}))
"""


def test_the_cpu_target_is_numbas_and_follows_its_overrides():
    import llvmlite.binding as ll

    host, _ = _child(_MATVEC)
    triple, name, features = host["target"]
    assert name == ll.get_host_cpu_name() and triple == ll.get_process_triple()
    assert host["out"] == [-1.0, -2.5]
    other, _ = _child(_MATVEC, NUMBA_CPU_NAME="generic", NUMBA_CPU_FEATURES="")
    assert other["target"] == [triple, "generic", ""]
    assert other["out"] == [-1.0, -2.5]
    assert other["hash"] != host["hash"] and 0 <= other["hash"] < 2 ** 63
    assert _child(_MATVEC)[0]["hash"] == host["hash"]          # stable across processes


@needs_extension
def test_an_extension_built_for_another_cpu_falls_back_to_the_jit_and_says_so_once():
    # The extension records the CPU it was compiled for; numba's documented override of
    # the JIT's target makes this process another CPU (as a copy on another machine is).
    result, stderr = _child(_MATVEC, NUMBA_CPU_NAME="generic", NUMBA_CPU_FEATURES="")
    assert result["out"] == [-1.0, -2.5]
    assert stderr.count(AOT_OTHER_CPU_NOTICE) == 1 and AOT_STALE_NOTICE not in stderr
    assert result["status"]["bound"] == []
    assert "merganser.framework.matvec.matvec" in result["status"]["other_cpu"]
    assert result["status"]["other_cpu"] == result["status"]["stale"]


EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


@needs_extension
@pytest.mark.parametrize("example", ["acrobot_lqr", "cart_pole_lqr", "contact_solvers",
                                     "panda_tracking", "planar_biped", "underwater_vehicle"])
def test_an_examples_first_run_compiles_no_kernel(example, tmp_path):
    """With empty numba and merganser caches (a machine's first run after the install),
    each example finds every kernel it calls in the extension: the warmup scenes the
    extension is built from cover them (LQR linearization, computed torque, the per-step
    contact path, URDF hydrodynamics, the general Jacobians). numba writes a cache entry
    for each kernel it compiles (``NUMBA_DEBUG_CACHE`` prints them)."""
    env = dict(os.environ, MERGANSER_AOT="1", NUMBA_DEBUG_CACHE="1",
               NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               MERGANSER_CACHE_DIR=str(tmp_path / "merganser"))
    proc = subprocess.run([sys.executable, str(EXAMPLES / f"{example}.py"), "--quick"],
                          env=env, capture_output=True, text=True, timeout=900,
                          cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr[-3000:]
    compiled = [line.rsplit("/", 1)[-1] for line in (proc.stdout + proc.stderr).splitlines()
                if "data saved" in line]
    assert compiled == [], f"{example} compiled {len(compiled)} kernels: {compiled[:10]}"
