"""Gotchas: small programs whose behaviour surprises, each measured on the installed JAX.

Every scenario is a self-contained example (the site shows the code between its snippet
markers) that returns what happened as facts: host calls, records, errors. The committed
outcome per JAX version is in ``docs/data/behaviour/``; the gotchas page renders it.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from harness import Outcome, chain, error_name, scenario
from jax import lax


def _io_callback() -> Any:
    from jax.experimental import io_callback

    return io_callback


def _raises(f: Any) -> str | None:
    try:
        jax.block_until_ready(f())
        jax.effects_barrier()
    except Exception as e:
        return error_name(e)
    return None


# --8<-- [start:dce]
@scenario("gotcha", "dce", "An unused pure_callback under jit")
def dce() -> Outcome:
    calls = []

    def host(x):
        calls.append(1)
        return np.asarray(x)

    @jax.jit
    def f(x):
        jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)  # result unused
        return x + 1

    jax.block_until_ready(f(jnp.ones(3)))
    return {"host_calls": len(calls)}


# --8<-- [end:dce]


# --8<-- [start:hoist]
@scenario("gotcha", "hoist", "A pure_callback on a loop-invariant value inside fori_loop")
def hoist() -> Outcome:
    calls = []

    def host(x):
        calls.append(1)
        return np.asarray(x)

    @jax.jit
    def f(x):  # x does not change inside the loop
        spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return lax.fori_loop(0, 5, lambda i, acc: acc + jax.pure_callback(host, spec, x), x)

    jax.block_until_ready(f(jnp.ones(3)))
    return {"steps": 5, "host_calls": len(calls)}


# --8<-- [end:hoist]


# --8<-- [start:noargs-grad]
@scenario(
    "gotcha", "noargs-grad", "An io_callback with no arguments in a scan, under jit and under grad"
)
def noargs_grad() -> Outcome:
    io_callback = _io_callback()
    calls = []

    def host():
        calls.append(1)
        return np.float32(1.0)

    def step(c, _):
        y = io_callback(host, jax.ShapeDtypeStruct((), jnp.float32))  # no arguments
        return c * 1.5, y

    def loss(c0):
        c, ys = lax.scan(step, c0, None, length=5)
        return c, ys

    jax.block_until_ready(jax.jit(loss)(1.0))
    jax.effects_barrier()
    jit_calls = len(calls)
    calls.clear()
    jax.block_until_ready(jax.grad(lambda c0: loss(c0)[0])(1.0))
    jax.effects_barrier()
    return {"steps": 5, "host_calls_jit": jit_calls, "host_calls_grad": len(calls)}


# --8<-- [end:noargs-grad]


# --8<-- [start:io-scan-grad]
@scenario(
    "gotcha", "io-scan-grad", "An io_callback off the differentiated path in a scan, under grad"
)
def io_scan_grad() -> Outcome:
    io_callback = _io_callback()
    logged = []

    def step(c, k):
        io_callback(lambda k: logged.append(int(k)), None, k)  # logs the step, not c
        return c * 1.5, None

    def loss(c0):
        c, _ = lax.scan(step, c0, jnp.arange(5))
        return c

    jax.jit(loss)(1.0)
    jax.effects_barrier()
    under_jit = len(logged)
    logged.clear()
    jax.grad(loss)(1.0)
    jax.effects_barrier()
    under_grad = len(logged)
    logged.clear()
    jax.value_and_grad(loss)(1.0)
    jax.effects_barrier()
    return {
        "steps": 5,
        "logged_jit": under_jit,
        "logged_grad": under_grad,
        "logged_value_and_grad": len(logged),
    }


# --8<-- [end:io-scan-grad]


# --8<-- [start:remat]
@scenario("gotcha", "remat", "A jax.debug.callback inside jax.checkpoint, under grad")
def remat() -> Outcome:
    seen = []

    @jax.checkpoint
    def f(x):
        jax.debug.callback(lambda x: seen.append(1), x)
        return jnp.sin(x)

    jax.grad(f)(1.0)
    jax.effects_barrier()
    return {"calls_written": 1, "host_calls": len(seen)}


# --8<-- [end:remat]


# --8<-- [start:vmap-cond]
@scenario("gotcha", "vmap-cond", "Callbacks in both branches of lax.cond, under vmap")
def vmap_cond() -> Outcome:
    taken = []

    def f(p, x):
        def yes(x):
            jax.debug.callback(lambda x: taken.append("yes"), x)
            return x

        def no(x):
            jax.debug.callback(lambda x: taken.append("no"), x)
            return -x

        return lax.cond(p, yes, no, x)

    jax.vmap(f)(jnp.array([True, True, True, True]), jnp.arange(4.0))
    jax.effects_barrier()
    return {"all_true": True, "yes_calls": taken.count("yes"), "no_calls": taken.count("no")}


# --8<-- [end:vmap-cond]


# --8<-- [start:ordered-devices]
@scenario("gotcha", "ordered-devices", "An ordered jax.debug.callback on a sharded input")
def ordered_devices() -> Outcome:
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:4]), ("i",))
    spec = jax.sharding.PartitionSpec("i")
    x = jax.device_put(jnp.arange(8.0), jax.sharding.NamedSharding(mesh, spec))
    out = {"devices": len(jax.devices())}
    for name, ordered in (("unordered", False), ("ordered", True)):

        def f(x, ordered=ordered):
            jax.debug.callback(lambda x: None, x, ordered=ordered)
            return x * 2

        out[name] = _raises(lambda f=f: jax.jit(f)(x)) or "runs"
    return out


# --8<-- [end:ordered-devices]


# --8<-- [start:gathered]
@scenario("gotcha", "gathered", "A pure_callback under jit on an input sharded 4 ways")
def gathered() -> Outcome:
    shapes = []

    def host(x):
        shapes.append(x.shape)
        return np.asarray(x) * 2

    mesh = jax.sharding.Mesh(np.array(jax.devices()[:4]), ("i",))
    x = jax.device_put(
        jnp.arange(8.0, dtype=jnp.float32),
        jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("i")),
    )
    y = jax.jit(lambda x: jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x))(x)
    jax.block_until_ready(y)
    return {
        "shards": 4,
        "host_calls": len(shapes),
        "shape_seen": str(shapes[0]) if shapes else None,
    }


# --8<-- [end:gathered]


# --8<-- [start:dtype]
@scenario("gotcha", "dtype", "A host function returning float64 where float32 was promised")
def dtype() -> Outcome:
    def host(x):
        return np.sin(np.asarray(x, np.float64))  # float64, with jax_enable_x64 off

    def f(x):
        return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, jnp.float32), x)

    x = jnp.ones(3, jnp.float32)
    out: Outcome = {"x64": bool(jax.config.read("jax_enable_x64"))}
    try:
        y = jax.jit(f)(x)
        out["result"] = str(y.dtype)
    except Exception as e:
        out["result"] = f"raises {error_name(e)}"
    return out


# --8<-- [end:dtype]


# --8<-- [start:vectorized]
@scenario("gotcha", "vectorized", "pure_callback(..., vectorized=True)")
def vectorized() -> Outcome:
    def host(x):
        return np.asarray(x) * 2

    x = jnp.ones(3, jnp.float32)
    try:
        y = jax.jit(
            lambda x: jax.pure_callback(
                host, jax.ShapeDtypeStruct(x.shape, x.dtype), x, vectorized=True
            )
        )(x)
        jax.block_until_ready(y)
    except Exception as e:
        inner = [error_name(c) for c in chain(e)]
        return {"caller_sees": error_name(e), "chain": " <- ".join(inner)}
    return {"caller_sees": None}


# --8<-- [end:vectorized]


# --8<-- [start:exceptions]
@scenario("gotcha", "exceptions", "A host function raising KeyError, eagerly and under jit")
def exceptions() -> Outcome:
    def host(x):
        raise KeyError("missing entry")

    def f(x):
        return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    x = jnp.ones(3, jnp.float32)
    out = {}
    for name, g in (("jit", jax.jit(f)), ("eager", f)):
        try:
            jax.block_until_ready(g(x))
            out[name] = None
        except Exception as e:
            out[name] = error_name(e)
            out[f"{name}_keeps_KeyError"] = any(isinstance(c, KeyError) for c in chain(e))
    return out


# --8<-- [end:exceptions]


# --8<-- [start:fstring]
@scenario("gotcha", "fstring", "An f-string passed to jax.debug.print under jit")
def fstring() -> Outcome:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):

        @jax.jit
        def f(x):
            jax.debug.print(f"x = {x}")  # formatted when traced
            jax.debug.print("x = {x}", x=x)  # formatted on the host, with the value
            return x

        f(jnp.float32(2.0))
        jax.effects_barrier()
    lines = buf.getvalue().splitlines()
    return {
        "lines": len(lines),
        "fstring_printed": lines[0] if lines else None,
        "format_printed": lines[1] if len(lines) > 1 else None,
    }


# --8<-- [end:fstring]


# --8<-- [start:export]
@scenario("gotcha", "export", "jax.export of a function with a pure_callback")
def export() -> Outcome:
    try:
        from jax import export as ex
    except ImportError:
        return {"skipped": "this JAX has no jax.export"}

    def f(x):
        return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    spec = jax.ShapeDtypeStruct((3,), jnp.float32)
    try:
        ex.export(jax.jit(f))(spec)
    except Exception as e:
        return {"raises": error_name(e), "says": str(e).splitlines()[0][:80]}
    return {"raises": None}


# --8<-- [end:export]


# --8<-- [start:no-vmap-method]
@scenario("gotcha", "no-vmap-method", "jax.vmap of a pure_callback without vmap_method")
def no_vmap_method() -> Outcome:
    def f(x):
        return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    return {"vmap": _raises(lambda: jax.vmap(f)(jnp.ones((2, 3)))) or "runs"}


# --8<-- [end:no-vmap-method]


# --8<-- [start:ordered-vmap]
@scenario("gotcha", "ordered-vmap", "jax.vmap of an io_callback, unordered and ordered")
def ordered_vmap() -> Outcome:
    io_callback = _io_callback()

    def f(x, ordered):
        return io_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x, ordered=ordered)

    xs = jnp.ones((2, 3))
    return {
        "unordered": _raises(lambda: jax.vmap(lambda x: f(x, False))(xs)) or "runs",
        "ordered": _raises(lambda: jax.vmap(lambda x: f(x, True))(xs)) or "runs",
    }


# --8<-- [end:ordered-vmap]


# --8<-- [start:argument-type]
@scenario("gotcha", "argument-type", "The type of the array a host function receives")
def argument_type() -> Outcome:
    seen = []

    def host(x):
        seen.append(type(x).__module__.split(".")[0] + "." + type(x).__name__)
        return np.asarray(x)

    y = jax.jit(lambda x: jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x))(
        jnp.ones(3)
    )
    jax.block_until_ready(y)
    return {"type": seen[0] if seen else None}


# --8<-- [end:argument-type]


# --8<-- [start:merged]
@scenario("gotcha", "merged", "Two identical pure_callbacks in one jitted program")
def merged() -> Outcome:
    calls = []

    def host(x):
        calls.append(1)
        return np.asarray(x) * 2

    def f(x):
        spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return jax.pure_callback(host, spec, x) + jax.pure_callback(host, spec, x)

    jax.block_until_ready(jax.jit(f)(jnp.ones(3)))
    return {"calls_written": 2, "host_calls": len(calls)}


# --8<-- [end:merged]


# --8<-- [start:grad-primal]
@scenario("gotcha", "grad-primal", "A jax.debug.callback under grad")
def grad_primal() -> Outcome:
    seen = []

    def f(x):
        jax.debug.callback(lambda v: seen.append(float(v)), x)
        return x**2

    jax.grad(f)(3.0)
    jax.effects_barrier()
    return {"host_calls": len(seen), "values": ", ".join(f"{v:g}" for v in seen)}


# --8<-- [end:grad-primal]


# --8<-- [start:io-vmap]
@scenario("gotcha", "io-vmap", "jax.vmap of an unordered io_callback")
def io_vmap() -> Outcome:
    io_callback = _io_callback()
    calls = []

    def host(x):
        calls.append(np.shape(x))
        return np.asarray(x)

    xs = jnp.ones((4, 3))
    y = jax.jit(jax.vmap(lambda x: io_callback(host, jax.ShapeDtypeStruct((3,), jnp.float32), x)))(
        xs
    )
    jax.block_until_ready(y)
    return {"batch": 4, "host_calls": len(calls), "shape_seen": str(calls[0]) if calls else None}


# --8<-- [end:io-vmap]


# --8<-- [start:host-callback-gone]
@scenario("gotcha", "host-callback-gone", "import jax.experimental.host_callback")
def host_callback_gone() -> Outcome:
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from jax.experimental import host_callback as hcb

            hcb.id_tap
    except (ImportError, AttributeError) as e:
        return {"import": f"raises {error_name(e)}"}
    return {"import": "works"}


# --8<-- [end:host-callback-gone]


# --8<-- [start:buffer-inputs]
@scenario("gotcha", "buffer-inputs", "The input buffers of a buffer_callback")
def buffer_inputs() -> Outcome:
    try:
        from jax.experimental.buffer_callback import buffer_callback
    except ImportError:
        return {"skipped": "this JAX has no jax.experimental.buffer_callback"}
    report = {}

    def host(ctx, out, x):
        view = np.asarray(x)
        report["says_writeable"] = bool(getattr(x, "writeable", True))
        report["view_writeable"] = bool(view.flags.writeable)
        np.asarray(out)[...] = view

    x = jnp.arange(3.0, dtype=jnp.float32)
    jax.block_until_ready(
        jax.jit(buffer_callback(host, jax.ShapeDtypeStruct((3,), jnp.float32)))(x)
    )
    return report


# --8<-- [end:buffer-inputs]


# --8<-- [start:compile-cache]
@scenario("gotcha", "compile-cache", "The persistent compilation cache and a pure_callback")
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
