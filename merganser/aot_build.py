"""Build the ahead-of-time kernels: ``python -m merganser.aot_build [--output DIR]``.

``pip install`` (``setup.py``'s ``build_ext``) runs this in a child process; it can be
run by hand after editing the sources (``framework/compilation.py`` then says the
extension is stale). It writes the extension modules of `compilation.AOT_MODULES` for
this machine's CPU:

1. the scenes of ``merganser warmup`` run under numba's JIT (an empty, temporary numba
   cache), recording each kernel called from Python and the one argument type signature
   it compiled for;
2. numba's ``pycc`` compiles each of those kernels, with that signature, into the
   extension of its LLVM inlining threshold, with the options the JIT gives it (numpy's
   float error model, the GIL released, no reference counting unless it allocates) and
   the CPU name and features the JIT targets (`compilation.aot_target_cpu`: the host's,
   or numba's ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES``); the kernels it calls are
   linked in from their JIT compilation. Beside each function ``f`` the extension exports
   ``h_f`` and ``t_f``, returning the source hash of the kernel at build time
   (`compilation.aot_source_hash`) and the hash of its argument types
   (`compilation.aot_types_hash`), and each module exports ``aot_cpu_hash``, the
   `compilation.aot_cpu_hash` of the CPU it was compiled for: a process on another CPU
   compiles instead of running it.

Not compiled ahead: ``parallel=True`` kernels and kernels only called by other kernels (they are part of their callers'
machine code). A kernel pycc cannot compile is left out (listed in the output) and
compiles at first use, as without the extension.

Importing this module does nothing; it imports numba (and pycc) in `build`.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import tempfile
import time

__all__ = ["build", "main"]


def _record_entries(groups):
    """{qualified name: Kernel} of the kernels the warmup scenes call from Python.

    While recording, no name is rebound to a dispatcher, so that each call from Python
    passes through `Kernel.__call__`."""
    from merganser.framework import compilation

    entries = {}
    call, rebind = compilation.Kernel.__call__, compilation._rebind

    def recording_call(self, *args):
        entries[f"{self.__module__}.{self.__qualname__}"] = self
        return call(self, *args)

    compilation.Kernel.__call__ = recording_call
    compilation._rebind = lambda namespace, old, new: None
    try:
        from merganser.cli.warmup_command import WARMUP_GROUPS

        for name, _, scene in WARMUP_GROUPS:
            if not groups or name in groups:
                scene()
    finally:
        compilation.Kernel.__call__, compilation._rebind = call, rebind
    return entries


def _exportable(entries):
    """([(name, index, Kernel, signature)], {name: why left out}): each signature of
    each kernel called from Python."""
    ok, left_out = [], {}
    for name, wrapped in sorted(entries.items()):
        dispatcher = wrapped._dispatcher
        if wrapped._options.get("parallel"):
            left_out[name] = "parallel=True"
        elif dispatcher is None or not dispatcher.overloads:
            left_out[name] = "no signature"
        else:
            for index, overload in enumerate(dispatcher.overloads.values()):
                ok.append((name, index, wrapped, overload.signature))
    return ok, left_out


def _constant_function(value):
    """A function of no argument returning the int `value` (a hash, exported)."""
    namespace = {}
    exec(f"def constant():\n    return {int(value)}\n", namespace)
    return namespace["constant"]


def _compile_module(module_name, kernels, output_dir, threshold):
    """pycc-compile `kernels` [(name, Kernel, signature)] into `module_name` in
    `output_dir`, with the JIT's options per kernel and the JIT's CPU (recorded in the
    module's ``aot_cpu_hash``)."""
    import numba
    import numba.pycc.compiler as pycc_compiler
    from numba.core import codegen
    from numba.pycc import CC

    from merganser.framework import compilation

    options = {wrapped.py_func: wrapped._options for _, _, wrapped, _ in kernels}
    compile_extra = pycc_compiler.compile_extra

    def jit_like_compile_extra(typingctx, targetctx, func, args, return_type, flags, locals,
                               library):
        flags = flags.copy()
        own = options.get(func)
        if own is not None:     # an exported kernel (not a source_hash function)
            flags.error_model = own["error_model"]
            flags.release_gil = own["nogil"]
            if own.get("_nrt") is False:
                flags.nrt = False
        return compile_extra(typingctx, targetctx, func, args, return_type, flags,
                             locals=locals, library=library)

    host_features = codegen.AOTCPUCodegen._customize_tm_features
    target = compilation.aot_target_cpu()
    cc = CC(module_name.rsplit(".", 1)[-1])
    cc.output_dir = str(output_dir)
    cc.target_cpu = target[1]
    cc.export("aot_cpu_hash", numba.int64())(
        _constant_function(compilation.aot_cpu_hash(target)))
    for name, index, wrapped, signature in kernels:
        symbol = compilation.aot_symbol(name, index)
        cc.export(symbol, signature)(wrapped.py_func)
        cc.export("h_" + symbol, numba.int64())(
            _constant_function(compilation.aot_source_hash(wrapped)))
        cc.export("t_" + symbol, numba.int64())(
            _constant_function(compilation.aot_types_hash(signature.args)))
    pycc_compiler.compile_extra = jit_like_compile_extra
    codegen.AOTCPUCodegen._customize_tm_features = lambda self: target[2]
    try:
        with compilation.inlining(threshold):
            cc.compile()
    finally:
        pycc_compiler.compile_extra = compile_extra
        codegen.AOTCPUCodegen._customize_tm_features = host_features


def build(output_dir, groups=(), file=sys.stdout):
    """Write the ahead-of-time extension modules into `output_dir` (see the module
    docstring); a module none of whose kernels compile is not written.

    Returns
    -------
    dict
        ``{"compiled": [names], "left_out": {name: why}, "seconds": s}``.
    """
    t0 = time.perf_counter()
    from numba.pycc.platform import external_compiler_works

    if not external_compiler_works():       # before minutes of recording
        raise RuntimeError("merganser aot_build: no working C and C++ compiler (pycc links "
                           "the kernels with numba's C runtime)")
    os.environ["MERGANSER_AOT"] = "0"          # record under the JIT, not the extension
    from merganser.framework import compilation

    compilation.AOT_ENABLED = False
    entries = _record_entries(groups)
    kernels, left_out = _exportable(entries)
    compiled = []
    output_dir = pathlib.Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    plain = compilation._DEFAULT_INLINE_THRESHOLD
    for module_name in compilation.AOT_MODULES:
        threshold = plain if module_name.endswith("_plain") else compilation.INLINE_THRESHOLD
        mine = [k for k in kernels if k[2]._threshold == threshold]
        while mine:
            try:
                _compile_module(module_name, mine, output_dir, threshold)
                compiled.extend(sorted({k[0] for k in mine}))
                break
            except Exception as exc:  # noqa: BLE001 (find the kernel pycc refuses, leave it out)
                if type(exc).__name__ in ("CompileError", "LinkError", "DistutilsExecError"):
                    raise                   # the C toolchain, not a kernel
                bad = _first_failing(module_name, mine, output_dir, threshold)
                if bad is None:
                    for name in {k[0] for k in mine}:
                        left_out[name] = f"pycc: {type(exc).__name__}: {exc}".splitlines()[0]
                    break
                left_out[bad[0][0]] = bad[1]          # all its signatures
                mine = [k for k in mine if k[0] != bad[0][0]]
    seconds = time.perf_counter() - t0
    print(f"merganser aot_build: {len(compiled)} kernels compiled ahead into {output_dir} "
          f"({seconds:.0f} s); left out: {len(left_out)}", file=file)
    for name, why in sorted(left_out.items()):
        print(f"  left out {name}: {why}", file=file)
    return {"compiled": compiled, "left_out": left_out, "seconds": seconds}


def _first_failing(module_name, kernels, output_dir, threshold):
    """((name, index, Kernel, signature), why) of the first that fails alone, or None."""
    with tempfile.TemporaryDirectory(prefix="merganser-pycc-probe-") as probe:
        for k in kernels:
            try:
                _compile_module(module_name, [k], probe, threshold)
            except Exception as exc:  # noqa: BLE001
                return k, f"pycc: {type(exc).__name__}: {exc}".splitlines()[0]
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--output", default=None,
                    help="folder of the extension modules (default: the installed "
                         "merganser/framework folder)")
    ap.add_argument("--group", action="append", default=[], help="warmup group (repeatable)")
    args = ap.parse_args(argv)
    output = args.output
    if output is None:
        import merganser.framework

        output = os.path.dirname(merganser.framework.__file__)
    with tempfile.TemporaryDirectory(prefix="merganser-aot-numba-") as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache     # compile everything: nothing from a cache
        build(output, args.group)


if __name__ == "__main__":
    main(sys.argv[1:])
