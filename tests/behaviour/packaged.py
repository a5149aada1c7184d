"""What a package's README or docstrings say about that package alone, measured (group
``edge``, ids naming the package): these scenarios name the package they measure, as the
sentences they check do (the other scenarios find mechanisms through the registries).

- ``jaxcb_pure.host_draw`` under ``jax.vmap``: host calls and whether the batch members
  got the same draw;
- the ``jaxcb_pyffi`` bridge under ``jit``: whether a handler's views are the memory of the
  argument and of the result, and what a write to an input view does;
- the ``jaxcb_ffi`` loader, given a library built against a newer jaxlib than the running
  one (the running version faked, as a downgrade would make it): what it raises, and
  whether it registered anything.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import importlib.util
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from harness import Outcome, scenario


class _Counting:
    """A NumPy generator that counts its draws (host_draw takes any ``standard_normal``)."""

    def __init__(self) -> None:
        self.rng, self.draws = np.random.default_rng(0), 0

    def standard_normal(self, shape: Any) -> np.ndarray:
        self.draws += 1
        return self.rng.standard_normal(shape)


@scenario("edge", "pure-host-draw-vmap", "jaxcb_pure.host_draw under jax.vmap, a batch of 4")
def host_draw_vmap() -> Outcome:
    try:
        from jaxcb_pure import host_draw
    except ImportError:  # the package needs a newer JAX than this one
        return {"jaxcb_pure": "not installed with this JAX"}
    rng = _Counting()
    try:
        out = jax.vmap(lambda x: host_draw((3,), rng=rng) + x)(jnp.zeros((4, 3), jnp.float32))
        out = np.asarray(jax.block_until_ready(out))
    except Exception as e:  # what this JAX does is the result
        return {"error": f"{type(e).__name__}: {str(e).strip().splitlines()[0][:120]}"}
    return {
        "batch": 4,
        "host_draws": rng.draws,
        "same_draw_in_every_member": bool((out == out[0]).all()),
    }


@scenario("edge", "pyffi-in-place", "The jaxcb_pyffi bridge: its views, and a write to an input")
def pyffi_in_place() -> Outcome:
    import jaxcb_pyffi

    if not jaxcb_pyffi.HAS_FFI:
        return {"jax_ffi": "absent"}
    from jaxcb_pyffi.sin_scale import _register  # the bridge each module holds

    seen: dict[str, int] = {}

    def look(x: np.ndarray, out: np.ndarray) -> None:
        seen["in"], seen["out"] = x.ctypes.data, out.ctypes.data
        np.multiply(x, 2, out=out)

    def writes(x: np.ndarray, out: np.ndarray) -> None:
        x[0] = 99.0
        np.copyto(out, x)

    def call(name: str) -> Any:
        return jax.jit(lambda x: jax.ffi.ffi_call(name, jax.ShapeDtypeStruct(x.shape, x.dtype))(x))

    _register("jaxcb_behaviour_look", look)
    _register("jaxcb_behaviour_writes", writes)
    x = jnp.arange(4.0, dtype=jnp.float32)
    out = jax.block_until_ready(call("jaxcb_behaviour_look")(x))
    facts: Outcome = {
        "input_view_is_the_argument": seen["in"] == x.unsafe_buffer_pointer(),
        "output_view_is_the_result": seen["out"] == out.unsafe_buffer_pointer(),
        "result_right": bool(np.array_equal(np.asarray(out), np.arange(4.0) * 2)),
    }
    try:
        jax.block_until_ready(call("jaxcb_behaviour_writes")(x))
        facts["write_to_input"] = "works"
    except Exception as e:  # what the caller catches is the measurement
        facts["write_to_input"] = type(e).__name__
        facts["write_to_input_message"] = str(e).strip().splitlines()[0]
    facts["argument_unchanged"] = bool(np.array_equal(np.asarray(x), np.arange(4.0)))
    return facts


@contextlib.contextmanager
def _running_jaxlib(version: str) -> Iterator[None]:
    real = importlib.metadata.version
    importlib.metadata.version = lambda name: version if name == "jaxlib" else real(name)  # type: ignore[assignment]
    try:
        yield
    finally:
        importlib.metadata.version = real


@scenario(
    "edge",
    "ffi-newer-headers",
    "The jaxcb_ffi loader given a library built against a newer jaxlib than the running one",
)
def ffi_newer_headers() -> Outcome:
    original = importlib.import_module("jaxcb_ffi.sin_scale")  # the module, not its function
    if not original._LIBRARY.is_file():
        return {"library": "not built for this jaxlib"}
    with tempfile.TemporaryDirectory() as where:  # a copy: its loader's state is its own
        copy = Path(where) / "sin_scale.py"
        copy.write_text(Path(original.__file__).read_text(encoding="utf-8"), encoding="utf-8")
        spec = importlib.util.spec_from_file_location("jaxcb_behaviour_sin_scale", copy)
        assert spec is not None
        assert spec.loader is not None
        fresh = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(fresh)
        fresh._LIBRARY = original._LIBRARY
        out: Outcome = {"running_jaxlib": "0.0.1"}
        with _running_jaxlib("0.0.1"):
            try:
                fresh._register()
                out["loader"] = "registered"
            except Exception as e:  # the refusal is the measurement
                text = str(e)
                built = text.split("jaxlib ")[1].split(",")[0] if "jaxlib " in text else "?"
                out["loader"] = type(e).__name__
                out["message"] = text.replace(built, "BUILT", 1)
        out["registered"] = fresh._registered
    return out


DERIVATIVES = ("grad", "hessian")


@scenario(
    "edge",
    "bessel-jv-derivatives-jit",
    "Host calls of bessel_jv's derivatives, eager and under jit, in every package's first row",
)
def bessel_jv_derivatives() -> Outcome:
    """For the first row of each package that implements ``bessel_jv`` and reaches the host:
    host calls (through its probe) of ``grad`` and ``hessian`` in ``z`` of the sum of the
    outputs, called eagerly and under ``jax.jit``."""
    from jaxcb_core.catalog import by_name
    from jaxcb_core.mechanisms import discover
    from jaxcb_core.probe import observe

    c = by_name("bessel_jv")
    v_arg, z = c.make_args(np.dtype("float32"))
    firsts: dict[str, Any] = {}
    for variant in sorted(discover(), key=lambda v: v.order):
        if variant.reaches_host and variant.implementation("bessel_jv") is not None:
            firsts.setdefault(variant.package, variant)
    out: Outcome = {}
    for variant in sorted(firsts.values(), key=lambda v: v.id):
        f = variant.implementation("bessel_jv")
        for name in DERIVATIVES:
            for jitted in (False, True):

                def scalar(z: Any, f: Any = f) -> Any:
                    return f(v_arg, z).sum()

                d = getattr(jax, name)(scalar)
                run = jax.jit(d) if jitted else d
                key = f"{variant.id} {'jit ' if jitted else ''}{name}"
                try:
                    with warnings.catch_warnings(), observe(variant.probe, "bessel_jv") as tally:
                        warnings.simplefilter("ignore", DeprecationWarning)  # host_callback's
                        jax.block_until_ready(run(z))
                        jax.effects_barrier()
                    out[key] = tally.calls
                except Exception as e:  # a row whose rule does not allow it says so
                    out[key] = type(e).__name__
    return out
