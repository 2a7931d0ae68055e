"""framework.compilation, the one way to compile a kernel: each trick it plays on numba is
checked here, so that a numba upgrade that breaks one fails a test. Also: every compiled
function of the package comes from `kernel`, and the first-run compile is never silent."""

import importlib
import os
import pkgutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from merganser.framework.compilation import (COMPILE_NOTICE, NUMBA_VERSION, Kernel, kernel,
                                             registered_kernels)


_NRT_SOURCE = """
from merganser.framework.compilation import kernel

@kernel{options}
def helper(a, i):
    return a[i] * 2.0

@kernel{options}
def caller(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += helper(a, i)
    return s
"""


def _fresh_module(tmp_path, name, source):
    """Import `source` as a new module from `tmp_path` (its cache is empty: numba keeps
    no LLVM IR for functions loaded from the cache)."""
    (tmp_path / f"{name}.py").write_text(source)
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)


def _llvm(dispatcher):
    return "\n".join(dispatcher.inspect_llvm().values())


def test_numba_is_the_pinned_version():
    import tomllib
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    pins = [d for d in pyproject["project"]["dependencies"] if d.startswith(("numba", "llvmlite"))]
    assert "numba>=0.68,<0.69" in pins and "llvmlite>=0.50,<0.51" in pins
    assert NUMBA_VERSION.startswith("0.68.")


def test_kernel_without_allocation_has_no_reference_counting(tmp_path):
    a = np.arange(5.0)
    plain = _fresh_module(tmp_path, "_nrt_probe_plain", _NRT_SOURCE.format(options=""))
    counted = _fresh_module(tmp_path, "_nrt_probe_alloc",
                            _NRT_SOURCE.format(options="(allocates=True)"))
    assert plain.caller(a) == pytest.approx(20.0)
    assert counted.caller(a) == pytest.approx(20.0)
    # The default kernel passes arrays between kernels with no atomic count updates; the
    # same code with numba's reference counting has them (so the check can see them).
    assert "NRT_incref" not in _llvm(plain.caller)
    assert "NRT_decref" not in _llvm(plain.caller)
    assert "NRT_incref" in _llvm(counted.caller) or "NRT_decref" in _llvm(counted.caller)


def test_kernel_float_errors_give_inf_not_exceptions():
    @kernel
    def divide(a, b):
        return a / b

    assert divide(1.0, 0.0) == np.inf


_BIG_HELPER = "\n".join(f"    s = s * 1.0001 + a[{i} % n] * {i + 1}.5" for i in range(60))
_INLINE_SOURCE = """
from merganser.framework.compilation import kernel

@kernel(inline={inline})
def big_helper(a):
    n = a.shape[0]
    s = 0.0
{body}
    return s

@kernel(inline={inline})
def two_calls(a):
    return big_helper(a) + big_helper(a[::-1])
"""


def _compile_two_calls(tmp_path, inline):
    """Assembly of `two_calls` compiled with ``kernel(inline=inline)`` (fresh module)."""
    name = f"_inline_probe_{inline}"
    (tmp_path / f"{name}.py").write_text(_INLINE_SOURCE.format(inline=inline, body=_BIG_HELPER))
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module(name)
        module.two_calls(np.arange(8.0))
        return "\n".join(module.two_calls.inspect_asm().values())
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)


def _references_to_helper(asm):
    """Instructions of `asm` that name big_helper (its address, loaded to call it)."""
    lines = (line.strip() for line in asm.splitlines())
    return sum("big_helper" in line and not line.startswith(".") and not line.endswith(":")
               for line in lines)


def test_raised_inlining_threshold_inlines_the_helpers(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    # At LLVM's default threshold the 60-statement helper stays a call; at the kernels'
    # threshold both calls are inlined.
    default = _compile_two_calls(tmp_path, False)
    raised = _compile_two_calls(tmp_path, True)
    assert _references_to_helper(default) >= 2
    assert _references_to_helper(raised) == 0


def _run(code, env):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=600)


def test_cache_is_refreshed_when_an_inlined_helper_in_another_module_changes(tmp_path):
    """numba checks a cache entry against its function's own file; a kernel must also be
    recompiled when a kernel it calls from another module changes."""
    pkg = tmp_path / "merganser_probe"
    pkg.mkdir()
    helper = pkg / "probe_helper.py"
    (pkg / "probe_main.py").write_text(
        "from merganser.framework.compilation import kernel\n"
        "from merganser.probe_helper import value\n\n"
        "@kernel\ndef twice(x):\n    return 2.0 * value(x)\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    code = f"""
        import merganser
        merganser.__path__.append({str(pkg)!r})
        from merganser.probe_main import twice
        print(twice(1.0), sum(twice.stats.cache_hits.values()))
    """
    helper.write_text("from merganser.framework.compilation import kernel\n\n"
                      "@kernel\ndef value(x):\n    return x + 1.0\n")
    first = _run(code, env)
    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == ["4.0", "0"]
    again = _run(code, env)
    assert again.stdout.split() == ["4.0", "1"]          # loaded from the cache
    helper.write_text("from merganser.framework.compilation import kernel\n\n"
                      "@kernel\ndef value(x):\n    return x + 10.0\n")
    changed = _run(code, env)
    assert changed.returncode == 0, changed.stderr
    assert changed.stdout.split() == ["22.0", "0"]      # recompiled, not the stale code


_CACHED_PROBE = """
import numpy as np
from merganser.framework.compilation import kernel, prange

@kernel
def norm(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * a[i]
    return np.sqrt(s) + np.sin(0.0)

@kernel(allocates=True)
def scaled(a):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] / norm(a)
    return out

@kernel(parallel=True)
def squares(a):
    out = np.empty_like(a)
    for i in prange(a.shape[0]):
        out[i] = a[i] * a[i]
    return out
"""


def test_cache_loads_without_numbas_implementation_registries(tmp_path):
    """A warm start loads machine code only: the kernels (plain, allocating, parallel)
    give the same results from the cache, and numba's implementation registries (its
    random-generator implementation among them) are not loaded for it."""
    pkg = tmp_path / "merganser_probe"
    pkg.mkdir()
    (pkg / "probe_cached.py").write_text(_CACHED_PROBE)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    code = f"""
        import sys
        import numpy as np
        import merganser
        merganser.__path__.append({str(pkg)!r})
        from merganser.probe_cached import scaled, squares
        a = np.array([3.0, 4.0])
        print(*scaled(a), *squares(a), sum(scaled.stats.cache_hits.values()),
              sum(squares.stats.cache_hits.values()),
              "numba.np.random.generator_core" in sys.modules)
    """
    cold = _run(code, env)
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout.split() == ["0.6", "0.8", "9.0", "16.0", "0", "0", "True"]
    warm = _run(code, env)
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout.split() == ["0.6", "0.8", "9.0", "16.0", "1", "1", "False"]


def test_every_compiled_function_of_the_package_is_a_kernel():
    from numba.core.registry import CPUDispatcher

    found = {}
    for layer in ("framework", "geometry", "multibody"):
        package = importlib.import_module(f"merganser.{layer}")
        for info in pkgutil.walk_packages(package.__path__, f"merganser.{layer}."):
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if isinstance(value, (CPUDispatcher, Kernel)) and value.__module__ == module.__name__:
                    found[id(value)] = f"{module.__name__}.{value.__name__}"
    registered = {id(k) for k in registered_kernels().values()}
    registered |= {id(k._dispatcher) for k in registered_kernels().values()}
    # A kernel already called from Python may be bound to its ahead-of-time dispatcher.
    registered |= {id(k.python_dispatcher) for k in registered_kernels().values()}
    assert len(found) > 100
    assert [name for i, name in found.items() if i not in registered] == []


def test_kernels_build_at_first_call_and_compile_as_one_unit(tmp_path, monkeypatch):
    """Defining a kernel imports nothing of numba and builds no dispatcher; the first
    call of a kernel calling another compiles both as one numba function (the callee
    gets the caller's signature), and the name in its module is then the dispatcher."""
    from numba.core.registry import CPUDispatcher

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    module = _fresh_module(tmp_path, "_lazy_probe", _NRT_SOURCE.format(options=""))
    caller, helper = module.caller, module.helper
    assert isinstance(caller, Kernel) and isinstance(helper, Kernel)
    assert "not built" in repr(helper)
    assert caller(np.arange(4.0)) == pytest.approx(12.0)
    assert isinstance(module.caller, CPUDispatcher) and isinstance(module.helper, CPUDispatcher)
    assert helper.signatures == module.helper.signatures
    assert len(helper.signatures) == 1
    assert caller.py_func(np.arange(4.0)) == pytest.approx(12.0)


def test_constant_arguments_compile_no_extra_specialization(tmp_path, monkeypatch):
    """Calls with literal arguments (an offset, a flag) reuse the plain signature."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    module = _fresh_module(tmp_path, "_literal_probe", """
from merganser.framework.compilation import kernel

@kernel
def load(a, i, offset, flip):
    return -a[i + offset] if flip else a[i + offset]

@kernel
def total(a, k):
    return load(a, 0, 1, True) + load(a, 0, 2, False) + load(a, k, 0, k > 0)
""")
    assert module.total(np.array([1.0, 10.0, 100.0]), 1) == pytest.approx(-10.0 + 100.0 - 10.0)
    assert [str(t) for t in module.load.signatures[0]] == ["array(float64, 1d, C)", "int64",
                                                            "int64", "bool"]
    assert len(module.load.signatures) == 1


def test_prange_is_range_until_a_parallel_kernel_is_built(tmp_path, monkeypatch):
    import numba

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    module = _fresh_module(tmp_path, "_prange_probe", """
from merganser.framework.compilation import kernel, prange

@kernel(parallel=True)
def doubled(a, out):
    for i in prange(a.shape[0]):
        out[i] = 2.0 * a[i]
""")
    assert list(module.prange(3)) == [0, 1, 2]
    out = np.zeros(5)
    module.doubled(np.arange(5.0), out)
    assert out.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]
    assert module.prange is numba.prange
    metadata = module.doubled.get_metadata(module.doubled.signatures[0])
    assert len(metadata["parfors"]) == 1          # the loop became a parallel loop


def test_first_compilation_is_announced_once_on_stderr(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               MERGANSER_COMPILE_NOTICE_AFTER="0.3", MERGANSER_AOT="0")  # the JIT's notice
    code = """
        from merganser.framework import PiecewisePolynomial
        import numpy as np
        spline = PiecewisePolynomial.cubic_with_continuous_second_derivatives(
            [0.0, 1.0, 2.0], np.array([[0.0, 1.0, 0.0]]))
        print(spline.value(0.5)[0, 0], spline.eval_derivative(1.5, 2)[0, 0])
    """
    cold = _run(code, env)
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.count(COMPILE_NOTICE) == 1
    warm = _run(code, env)
    assert warm.returncode == 0, warm.stderr
    assert COMPILE_NOTICE not in warm.stderr
    assert warm.stdout == cold.stdout
