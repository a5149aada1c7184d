"""The rows this package adds to the support matrix (entry point ``jaxcb.mechanisms``).

Not a pattern to copy: it only tells the harness which function implements which
computation. It imports the pattern modules only where the installed JAX has `jax.ffi`;
on an older JAX the row says, for every computation, why there is nothing to measure.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
import numpy as np

from . import HAS_FFI, NO_METADATA_API

if TYPE_CHECKING:  # the row type, for the type checker only: nothing of the harness is imported
    from jaxcb_core.mechanisms import VariantSpec


def _patterns() -> tuple[str, ...]:
    """The pattern modules beside this file, by name (a private ``_*`` module is none): a
    computation's module added to the package is in the rows with no edit here."""
    return tuple(sorted(p.stem for p in Path(__file__).parent.glob("[a-z]*.py")))  # no lib*.so


PURE = _patterns()  # the effects have no module here: see UNSUPPORTED
EFFECTS = ("log_steps", "host_draw", "progress")
# Every host function of each module: expm's backward pass runs a second one.
HOST_FUNCTIONS = dict.fromkeys(PURE, ("on_host",)) | {"expm": ("on_host", "on_host_vjp")}
NOT_AN_EFFECT = (
    "an ffi_call without has_side_effect=True is pure to JAX, and this package's handlers "
    "compute values; the effects are io_callback's (jaxcb_io)"
)
UNSUPPORTED = {
    "log_steps": NOT_AN_EFFECT,
    "progress": NOT_AN_EFFECT,
    "host_draw": (
        "host NumPy Generator state in a handler JAX treats as pure: use io_callback "
        "(jaxcb_io.host_draw) or jax.random"
    ),
}
DOC = (
    "A Python function registered as an XLA FFI handler with ctypes, called with "
    "jax.ffi.ffi_call, writing into XLA's buffers in place, with the pattern's vmap_method "
    "and its custom derivative rule."
)


def _bare_call(host: Any, result_type: Any, *args: Any) -> Any:
    """The minimal form: ``host(*arrays)`` returns NumPy arrays, copied into the outputs."""
    from .sin_scale import _register  # the bridge, as each module holds it

    def write(*buffers: np.ndarray) -> None:
        ins, outs = buffers[: len(args)], buffers[len(args) :]
        for o, r in zip(outs, jax.tree.leaves(host(*ins)), strict=True):
            np.copyto(o, r)

    name = _register(f"jaxcb_py_bare_{id(host):x}", write)
    call: Callable[..., Any] = jax.ffi.ffi_call(name, result_type, vmap_method="expand_dims")
    return call(*args)


def _noop(x: Any) -> Any:
    """One round trip that does no host work: the output is returned unwritten."""
    from .sin_scale import _register

    name = _register("jaxcb_py_noop", lambda *buffers: None)
    out_type = jax.ShapeDtypeStruct(jnp.shape(x), jnp.result_type(x))
    return jax.ffi.ffi_call(name, out_type, vmap_method="expand_dims")(x)


def variants() -> list[VariantSpec]:
    row: VariantSpec = {
        "id": "ffi_python/default",
        "mechanism": "ffi_python",
        "label": "ffi_call, Python handler",
        "doc": DOC,
        "package": "jaxcb_pyffi",
        "order": 57,
        "implementations": {},
        "modules": {},
        "unsupported": dict.fromkeys(
            PURE + EFFECTS,
            f"jax.ffi is not in JAX {jax.__version__} "
            "(added in 0.4.32 as jax.extend.ffi, jax.ffi since 0.5.0)",
        ),
        "probe": {},
    }
    if not HAS_FFI:
        return [row]
    if NO_METADATA_API:
        reason = (
            f"JAX {jax.__version__} sends a handler's registration-time metadata request without "
            "the FFI API table, so this ctypes bridge cannot name its FFI version and registering "
            "a handler fails (0.6.2, 0.7.2: the CPU backend does not start; 0.5.3: the process "
            "aborts; 0.8.3 sends the table)"
        )
        return [row | {"unsupported": dict.fromkeys(PURE + EFFECTS, reason)}]
    modules = {n: importlib.import_module(f"jaxcb_pyffi.{n}") for n in PURE}
    return [
        row
        | {
            "implementations": {n: getattr(m, n) for n, m in modules.items()},
            "modules": modules,
            "unsupported": dict(UNSUPPORTED),
            "probe": HOST_FUNCTIONS,
            "bare": {"call": _bare_call, "noop": _noop},
        }
    ]
