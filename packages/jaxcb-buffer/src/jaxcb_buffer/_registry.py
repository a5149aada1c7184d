"""The buffer_callback rows of the support matrix (entry point ``jaxcb.mechanisms``).

Not a pattern to copy: it only tells the harness which function implements which
computation. It imports the pattern modules only where the installed JAX has
``jax.experimental.buffer_callback`` (added in JAX 0.6.1); on an older JAX the rows
say, for every computation, why there is nothing to measure.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
import numpy as np

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
NO_ORDER = "buffer_callback has no ordered mode (has_side_effect=True only keeps the call)"
UNSUPPORTED = {
    "log_steps": (
        f"{NO_ORDER}, and the host gets views of XLA's buffers, which XLA reuses: measured, "
        "a log keeping them without a copy holds one buffer 5 times for a 5-step scan, not 5 "
        "states. Delivering each step once, in order, is io_callback's job (jaxcb_io.log_steps)"
    ),
    "progress": (
        f"{NO_ORDER}, and the reported states are views of buffers XLA reuses, which each "
        "report must copy, as for log_steps: io_callback reports in order (jaxcb_io.progress)"
    ),
    "host_draw": (
        f"{NO_ORDER}, so several draws in one program come in no promised order and the seed "
        "no longer says which result gets which draw: use io_callback(ordered=True) "
        "(jaxcb_io.host_draw) or jax.random"
    ),
}
DOC = {
    "default": (
        "Each pattern's host function writes into XLA's output buffers in place, with its "
        "justified vmap_method and custom derivative rule."
    ),
    "no_rule": "The bare buffer_callback with the pattern's vmap_method and no derivative rule.",
}
LABEL = {"default": "buffer_callback", "no_rule": "buffer_callback, no rule"}


def available() -> bool:
    """Whether the installed JAX has ``jax.experimental.buffer_callback``."""
    try:
        importlib.import_module("jax.experimental.buffer_callback")
    except ImportError:
        return False
    return True


def _bare_call(host: Any, result_type: Any, *args: Any) -> Any:
    """The minimal form: ``host(*arrays)`` returns NumPy arrays, copied into the outputs."""
    from jax.experimental.buffer_callback import buffer_callback

    def callback(ctx: Any, out: Any, *ins: Any) -> None:
        results = host(*(np.asarray(a) for a in ins))
        for o, r in zip(jax.tree.leaves(out), jax.tree.leaves(results), strict=True):
            np.copyto(np.asarray(o), r)

    return buffer_callback(callback, result_type, vmap_method="expand_dims")(*args)


def _bare_call_in_place(into: Any, result_type: Any, *args: Any) -> Any:
    """The minimal form without a fresh output: ``into(out, *arrays)`` writes the result
    into the output buffer, which is the first argument's (``input_output_aliases``): a
    caller that donates that argument gives XLA memory it has written before."""
    from jax.experimental.buffer_callback import buffer_callback

    def callback(ctx: Any, out: Any, *ins: Any) -> None:
        into(np.asarray(out), *(np.asarray(a) for a in ins))

    return buffer_callback(callback, result_type, input_output_aliases={0: 0})(*args)


def _noop(x: Any) -> Any:
    """One round trip that does no host work: the output is returned unwritten."""
    from jax.experimental.buffer_callback import buffer_callback

    def callback(ctx: Any, out: Any, x: Any) -> None:
        pass  # nothing written: the result has x's shape and dtype, its values unspecified

    out_type = jax.ShapeDtypeStruct(jnp.shape(x), jnp.result_type(x))
    return buffer_callback(callback, out_type, vmap_method="expand_dims")(x)


def _row(
    key: str,
    order: int,
    implementations: Mapping[str, Callable[..., Any]],
    modules: Mapping[str, Any],
    unsupported: Mapping[str, str],
    with_bare: bool,
) -> VariantSpec:
    spec: VariantSpec = {
        "id": f"buffer_callback/{key}",
        "mechanism": "buffer_callback",
        "label": LABEL[key],
        "doc": DOC[key],
        "package": "jaxcb_buffer",
        "order": order,
        "implementations": implementations,
        "modules": modules,
        "unsupported": dict(unsupported),
        "probe": HOST_FUNCTIONS if modules else {},
    }
    if with_bare:
        spec["bare"] = {"call": _bare_call, "call_in_place": _bare_call_in_place, "noop": _noop}
    return spec


def _unavailable() -> list[VariantSpec]:
    version = jax.__version__
    reason = f"jax.experimental.buffer_callback was added in JAX 0.6.1; this is JAX {version}"
    unsupported = dict.fromkeys(PURE + EFFECTS, reason)
    return [
        _row(key, order, {}, {}, unsupported, with_bare=False)
        for key, order in (("default", 50), ("no_rule", 51))
    ]


def variants() -> list[VariantSpec]:
    if not available():
        return _unavailable()
    modules = {n: importlib.import_module(f"jaxcb_buffer.{n}") for n in PURE}
    public = {n: getattr(m, n) for n, m in modules.items()}
    bare = {n: getattr(m, f"{n}_callback") for n, m in modules.items()}
    return [
        _row("default", 50, public, modules, UNSUPPORTED, with_bare=True),
        _row("no_rule", 51, bare, modules, UNSUPPORTED, with_bare=True),
    ]
