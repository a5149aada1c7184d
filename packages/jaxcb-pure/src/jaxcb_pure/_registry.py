"""The variants this package adds to the support matrix (entry point ``jaxcb.mechanisms``).

Not a pattern to copy: it only tells the harness which function implements which
computation, and how each variant differs.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jax
import numpy as np

if TYPE_CHECKING:  # the row type, for the type checker only: nothing of the harness is imported
    from jaxcb_core.mechanisms import VariantSpec


def _patterns() -> tuple[str, ...]:
    """The pattern modules beside this file, by name (a private ``_*`` module is none): a
    computation's module added to the package is in the rows with no edit here."""
    return tuple(sorted(p.stem for p in Path(__file__).parent.glob("[a-z]*.py")))  # no lib*.so


COUNTER_EXAMPLES = ("log_steps", "host_draw")
PURE = tuple(n for n in _patterns() if n not in COUNTER_EXAMPLES)
UNSUPPORTED = {
    "progress": (
        "a progress report is a side effect whose result nobody uses, so a pure "
        "callback would be removed under jit; see log_steps for the measured failure"
    ),
}
# Transforms that batch the callback (jacfwd, jacrev and hessian vmap internally).
BATCHING = (
    "vmap",
    "jit_vmap",
    "vmap_jit",
    "jacfwd",
    "jacrev",
    "hessian",
    "vmap_grad",
    "vmap_cond",
    "vmap_while",
    "vmap_while_cond",
)
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)
# Every host function of each module: expm's backward pass runs a second one.
HOST_FUNCTIONS = dict.fromkeys(PURE + COUNTER_EXAMPLES, ("on_host",)) | {
    "expm": ("on_host", "on_host_vjp")
}


def _bare_call(host: Any, result_type: Any, *args: Any) -> Any:
    """The minimal forms the benchmarks compare the patterns with."""
    return jax.pure_callback(host, result_type, *args, vmap_method="expand_dims")


def _bare_noop(x: Any) -> Any:
    return jax.pure_callback(
        np.asarray, jax.ShapeDtypeStruct(x.shape, x.dtype), x, vmap_method="expand_dims"
    )


DOC = {
    "default": "Each pattern's own, justified vmap_method and its custom derivative rule.",
    "no_rule": "The bare pure_callback with the pattern's vmap_method and no derivative rule.",
    "sequential": "vmap_method='sequential': a lax.map over the batch, one host call each.",
    "sequential_unrolled": "vmap_method='sequential_unrolled': the loop is unrolled.",
    "expand_dims": "vmap_method='expand_dims': unbatched arguments get a size-1 axis.",
    "broadcast_all": "vmap_method='broadcast_all': every argument is tiled to the batch.",
    "none": "No vmap_method given: vmap raises; jit and grad are unaffected.",
    "sharding": "The bare pure_callback with sharding=SingleDeviceSharding(jax.devices()[0]): "
    "the device the host call is made from.",
}


def _module(name: str) -> Any:
    return importlib.import_module(f"jaxcb_pure.{name}")


def _first_device() -> Any:
    return jax.sharding.SingleDeviceSharding(jax.devices()[0])


@contextlib.contextmanager
def _pure_callback_with(**options: Any) -> Iterator[None]:
    """``jax.pure_callback`` with ``options`` added while the block runs: the patterns take no
    ``sharding=`` (no lesson of theirs needs it), so the harness adds it to the call they make."""
    original = jax.pure_callback
    jax.pure_callback = functools.partial(original, **options)
    try:
        yield
    finally:
        jax.pure_callback = original


def _with_sharding(fn: Any, sharding: Any) -> Any:
    """``fn`` tracing its ``pure_callback`` with ``sharding=`` made when called (no device is
    touched at discovery)."""

    @functools.wraps(fn)
    def call(*args: Any) -> Any:
        with _pure_callback_with(sharding=sharding()):
            return fn(*args)

    return call


def variants() -> list[VariantSpec]:
    modules = {n: _module(n) for n in PURE + COUNTER_EXAMPLES}

    def row(
        key: str,
        label: str,
        order: int,
        impls: Mapping[str, Callable[..., Any]],
        unsupported: dict[str, str] = UNSUPPORTED,
        transforms: Sequence[str] | None = None,
        scope: str = "",
    ) -> VariantSpec:
        spec: VariantSpec = {
            "id": f"pure_callback/{key}",
            "mechanism": "pure_callback",
            "label": label,
            "doc": DOC[key],
            "package": "jaxcb_pure",
            "order": order,
            "implementations": impls,
            "modules": modules,
            "unsupported": dict(unsupported),
            "probe": HOST_FUNCTIONS,
            "bare": {"call": _bare_call, "noop": _bare_noop},
        }
        if transforms is not None:
            spec["transforms"], spec["scope"] = tuple(transforms), scope
        return spec

    def public(name: str) -> Any:
        return getattr(modules[name], name)

    out = [
        row("default", "pure_callback", 20, {n: public(n) for n in PURE + COUNTER_EXAMPLES}),
        row(
            "no_rule",
            "pure_callback, no rule",
            21,
            {
                **{n: getattr(modules[n], f"{n}_callback") for n in PURE},
                **{n: public(n) for n in COUNTER_EXAMPLES},
            },
        ),
        # pure_callback(sharding=...): the device the call is made from, under the transforms
        # where an input is on several devices (and jit, for reference).
        row(
            "sharding",
            "pure_callback, sharding=device 0",
            29,
            {n: _with_sharding(getattr(modules[n], f"{n}_callback"), _first_device) for n in PURE},
            unsupported=UNSUPPORTED
            | dict.fromkeys(
                COUNTER_EXAMPLES, "the sharding= row measures the pure computations only"
            ),
            transforms=("jit", "sharded_jit", "shard_map"),
            scope=(
                "sharding= only says which device makes the host call: this row is measured under "
                "jit and the transforms of several devices; the no-rule row has the rest"
            ),
        ),
    ]
    for i, method in enumerate(VMAP_METHODS):
        key = method or "none"
        impls = {
            n: functools.partial(public(n), vmap_method=method) for n in PURE + COUNTER_EXAMPLES
        }
        out.append(
            row(
                key,
                f"pure_callback, {key}",
                22 + i,
                impls,
                transforms=BATCHING,
                scope=(
                    "vmap_method only decides how a batched call reaches the host: this row is "
                    "measured under the transforms that batch; the pure_callback row has the rest"
                ),
            )
        )
    return out
