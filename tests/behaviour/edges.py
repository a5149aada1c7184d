"""Edge cases that JAX's own callback tests pin down, each measured on the installed JAX.

Each scenario is a small program (the edge-cases page shows the code between its snippet
markers) that returns what happened: the error a reader would see (type and first line),
the host calls, what the host received. Where the installed JAX lacks the API, the
outcome says so (``available: no``) instead of failing.
"""

from __future__ import annotations

import inspect
import logging
import re
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from harness import Outcome, isolated, scenario
from jax import lax


# --8<-- [start:first-line]
def _first_line(e: BaseException) -> str:
    text = (str(e).strip().splitlines() or [""])[0]
    return re.sub(r"0x[0-9a-fA-F]+", "0x…", text)[:120]  # no memory addresses


# --8<-- [end:first-line]


# --8<-- [start:attempt]
def _attempt(f: Any) -> tuple[Any, str | None, str | None]:
    """``(value, error type, first line)`` of calling ``f`` and waiting for its effects."""
    try:
        out = jax.block_until_ready(f())
        jax.effects_barrier()
    except Exception as e:
        return None, type(e).__name__, _first_line(e)
    return out, None, None


# --8<-- [end:attempt]


def _has_vmap_method() -> bool:
    """Whether this JAX's pure_callback takes ``vmap_method`` (JAX 0.4.34 and later); older
    ones pass an unknown keyword on to the host function."""
    return "vmap_method" in inspect.signature(jax.pure_callback).parameters


# --8<-- [start:failing-log]
@scenario("edge", "failing-log", "What a failing pure_callback writes to the log")
@isolated
def failing_log() -> Outcome:
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    def host(x):
        raise KeyError("no such key")

    keep = Keep(level=logging.DEBUG)
    logging.getLogger("jax").addHandler(keep)
    try:
        spec = jax.ShapeDtypeStruct((3,), jnp.float32)
        _, caught, _ = _attempt(
            lambda: jax.jit(lambda x: jax.pure_callback(host, spec, x))(jnp.ones(3))
        )
    finally:
        logging.getLogger("jax").removeHandler(keep)
    errors = [r for r in records if r.levelno >= logging.ERROR]
    return {
        "caller_sees": caught,
        "log_records_at_error": len(errors),
        "logger": errors[0].name if errors else None,
        "log_has_traceback": bool(errors and errors[0].exc_info),
        "log_names_KeyError": any(
            "KeyError" in r.getMessage() or (r.exc_info and r.exc_info[0] is KeyError)
            for r in errors
        ),
    }


# --8<-- [end:failing-log]


# --8<-- [start:compile-once]
@scenario("edge", "compile-once", "A jitted pure_callback called three times")
def compile_once() -> Outcome:
    traces, calls = [], []

    def host(x):
        calls.append(1)
        return np.sin(x)

    @jax.jit
    def f(x):
        traces.append(1)  # Python runs this only when JAX traces f
        return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    for _ in range(3):
        jax.block_until_ready(f(jnp.ones(3)))
    return {"calls": 3, "traces": len(traces), "host_calls": len(calls)}


# --8<-- [end:compile-once]


# --8<-- [start:int4]
@scenario("edge", "int4", "A pure_callback with an int4 operand and result")
@isolated
def int4() -> Outcome:
    got = []

    def host(x):
        got.append(np.asarray(x).dtype.name)
        return np.asarray(x)

    x = jnp.arange(-3, 4, dtype=jnp.int4)
    spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
    out, caught, line = _attempt(lambda: jax.jit(lambda x: jax.pure_callback(host, spec, x))(x))
    return {
        "host_received": got[0] if got else None,
        "round_trip_equal": None if out is None else bool((np.asarray(out) == np.asarray(x)).all()),
        "error": caught,
        "error_line": line,
    }


# --8<-- [end:int4]


# --8<-- [start:fortran-order]
@scenario("edge", "fortran-order", "A host function returning a Fortran-ordered or strided array")
def fortran_order() -> Outcome:
    x = jnp.arange(6.0, dtype=jnp.float32).reshape(2, 3)
    spec = jax.ShapeDtypeStruct(x.shape, x.dtype)

    def fortran(x):
        return np.asfortranarray(np.asarray(x) * 2)

    def strided(x):
        return (np.asarray(x) * 2).repeat(2, axis=1)[:, ::2]  # a view with a step

    want = np.asarray(x) * 2
    a = jax.jit(lambda x: jax.pure_callback(fortran, spec, x))(x)
    b = jax.jit(lambda x: jax.pure_callback(strided, spec, x))(x)
    return {
        "fortran_result_equal": bool((np.asarray(a) == want).all()),
        "strided_result_equal": bool((np.asarray(b) == want).all()),
    }


# --8<-- [end:fortran-order]


# --8<-- [start:legacy-vectorized]
@scenario("edge", "legacy-vectorized", 'vmap_method="legacy_vectorized" under vmap')
def legacy_vectorized() -> Outcome:
    if not _has_vmap_method():
        return {"available": False}
    shapes = []

    def host(x):
        shapes.append(np.shape(x))
        return np.sin(x)

    def f(x):
        spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return jax.pure_callback(host, spec, x, vmap_method="legacy_vectorized")

    _, caught, line = _attempt(lambda: jax.vmap(f)(jnp.ones((4, 3), jnp.float32)))
    return {
        "available": True,
        "host_calls": len(shapes),
        "host_shape": str(shapes[0]) if shapes else None,
        "error": caught,
        "error_line": line,
    }


# --8<-- [end:legacy-vectorized]


# --8<-- [start:wrong-shape-batched]
@scenario("edge", "wrong-shape-batched", "A host function returning the wrong shape under vmap")
@isolated
def wrong_shape_batched() -> Outcome:
    if not _has_vmap_method():
        return {"available": False}

    def host(x):
        return np.sin(x)[..., :2]  # one element short on the last axis

    def f(x):
        spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return jax.pure_callback(host, spec, x, vmap_method="expand_dims")

    try:
        jax.block_until_ready(jax.jit(jax.vmap(f))(jnp.ones((4, 3), jnp.float32)))
    except Exception as e:
        last = str(e).strip().splitlines()[-1]  # the host-side error ends the message
        return {"available": True, "error": type(e).__name__, "last_line": last[:120]}
    return {"available": True, "error": None, "last_line": None}


# --8<-- [end:wrong-shape-batched]


# --8<-- [start:no-vmap-method]
@scenario("edge", "no-vmap-method", "pure_callback without vmap_method, under each transform")
def no_vmap_method() -> Outcome:
    def f(x):
        spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return jax.pure_callback(np.sin, spec, x)  # no vmap_method

    x = jnp.ones(4, jnp.float32)
    out: Outcome = {}
    for name, run in (
        ("jit", lambda: jax.jit(f)(x)),
        ("vmap", lambda: jax.vmap(f)(x)),
        ("grad", lambda: jax.grad(lambda x: f(x).sum())(x)),
        ("pmap", lambda: jax.pmap(f)(x.reshape(4, 1))),
    ):
        _, caught, _ = _attempt(run)
        out[name] = caught or "works"
    return out


# --8<-- [end:no-vmap-method]


# --8<-- [start:transpose]
@scenario("edge", "transpose", "linear_transpose of a pure_callback")
def transpose() -> Outcome:
    def f(t):
        spec = jax.ShapeDtypeStruct(t.shape, t.dtype)
        return jax.pure_callback(lambda t: 2 * np.asarray(t), spec, t)

    x = jnp.ones(3, jnp.float32)
    _, caught, line = _attempt(lambda: jax.linear_transpose(f, x)(x))
    return {"error": caught, "error_line": line}


# --8<-- [end:transpose]


# --8<-- [start:io-checkpoint]
@scenario(
    "edge", "io-checkpoint", "An io_callback inside jax.checkpoint, off the differentiated path"
)
def io_checkpoint() -> Outcome:
    from jax.experimental import io_callback

    seen = []

    @jax.checkpoint
    def f(x, k):
        io_callback(lambda k: seen.append(int(k)), None, k)  # logs k, not x
        return jnp.sin(x) * 2

    _, caught, line = _attempt(lambda: jax.grad(f)(1.0, 7))
    return {"host_calls": len(seen), "error": caught, "error_line": line}


# --8<-- [end:io-checkpoint]


# --8<-- [start:vmap-while-pred]
@scenario("edge", "vmap-while-pred", "vmap of a while loop whose predicate is not batched")
def vmap_while_pred() -> Outcome:
    seen = []

    def f(x):
        def body(c):
            i, y = c
            jax.debug.callback(lambda i: seen.append(int(i)), i)
            return i + 1, y * 2

        return lax.while_loop(lambda c: c[0] < 3, body, (0, x))[1]  # the count is not batched

    out = jax.vmap(f)(jnp.arange(4.0))
    jax.effects_barrier()
    return {
        "batch": 4,
        "steps": 3,
        "host_calls": len(seen),
        "result_ok": bool((np.asarray(out) == np.arange(4.0) * 8).all()),
    }


# --8<-- [end:vmap-while-pred]


# --8<-- [start:debug-not-callable]
@scenario("edge", "debug-not-callable", "jax.debug.callback given something that is not callable")
def debug_not_callable() -> Outcome:
    _, caught, line = _attempt(lambda: jax.jit(lambda x: jax.debug.callback(3, x) or x)(1.0))
    return {"error": caught, "error_line": line}


# --8<-- [end:debug-not-callable]


# --8<-- [start:print-format]
@scenario("edge", "print-format", "jax.debug.print with a format field it was not given")
def print_format() -> Outcome:
    _, at_trace, line = _attempt(lambda: jax.jit(lambda x: jax.debug.print("{y}", x=x) or x)(1.0))
    _, positional, pline = _attempt(
        lambda: jax.jit(lambda x: jax.debug.print("{} {}", x) or x)(1.0)
    )
    return {
        "missing_name": at_trace,
        "missing_name_line": line,
        "missing_positional": positional,
        "missing_positional_line": pline,
    }


# --8<-- [end:print-format]


# --8<-- [start:buffer-side-effect]
@scenario("edge", "buffer-side-effect", "buffer_callback(has_side_effect=True) with no inputs")
def buffer_side_effect() -> Outcome:
    try:
        from jax.experimental.buffer_callback import buffer_callback
    except ImportError:
        return {"available": False}
    calls = []

    def host(ctx, out):
        calls.append(1)
        np.asarray(out)[...] = 7.0

    spec = jax.ShapeDtypeStruct((2,), jnp.float32)
    cb = buffer_callback(host, spec, has_side_effect=True)

    @jax.jit
    def unused():
        cb()
        return jnp.zeros(())

    value, caught, line = _attempt(lambda: jax.jit(cb)())
    _attempt(unused)
    return {
        "available": True,
        "result": None if value is None else np.asarray(value).tolist(),
        "error": caught,
        "error_line": line,
        "host_calls_used_then_unused": len(calls),
    }


# --8<-- [end:buffer-side-effect]


# --8<-- [start:cache-hit-exception]
@scenario(
    "edge", "cache-hit-exception", "The error of a failing callback, first call and cached call"
)
@isolated
def cache_hit_exception() -> Outcome:
    def host(x):
        raise ValueError("bad value")

    f = jax.jit(lambda x: jax.pure_callback(host, jax.ShapeDtypeStruct((), jnp.float32), x))
    _, first, first_line = _attempt(lambda: f(1.0))
    _, second, second_line = _attempt(lambda: f(2.0))  # compiled program reused
    return {
        "first_call": first,
        "cached_call": second,
        "same_type": first == second,
        "same_first_line": first_line == second_line,
    }


# --8<-- [end:cache-hit-exception]


# --8<-- [start:compile-cache]
@scenario("edge", "compile-cache", "The persistent compilation cache and a pure_callback")
def compile_cache() -> Outcome:
    import tempfile

    from harness import python

    with tempfile.TemporaryDirectory() as d:
        code = f"""
        import numpy as np, jax, jax.numpy as jnp
        jax.config.update("jax_compilation_cache_dir", {d!r})
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
        f = jax.jit(lambda x: jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x))
        g = jax.jit(lambda x: jnp.sin(x) * 3)
        jax.block_until_ready(g(jnp.ones(3)))
        before = len(list(__import__("pathlib").Path({d!r}).iterdir()))
        jax.block_until_ready(f(jnp.ones(3)))
        after = len(list(__import__("pathlib").Path({d!r}).iterdir()))
        print("JAXCB", before, after)
        """
        r = python(code, timeout=120)
    for line in r["stdout"].splitlines():
        if line.startswith("JAXCB "):
            before, after = (int(v) for v in line.split()[1:])
            return {"native_cached": before > 0, "callback_cached": after > before}
    return {"result": "failed"}


# --8<-- [end:compile-cache]
