"""What a host call on a sharded array costs: one gathered call against one call per shard.

Measured inside a multi-process job (:mod:`jaxcb_core.distributed.worker`, after the cells), on a
float32 array of ``n`` elements split along its only axis over every device of every
process. For the first variant of each mechanism that has a bare ``call`` form (or, for an
observer, a ``send`` form; :mod:`jaxcb_core.mechanisms`), with a host function that adds 1:

``gathered``
    ``jax.jit`` of the call: the callback sees the logical array, so XLA gathers it to
    device 0 (on process 0), the host runs once, and the result is split again
    (``with_sharding_constraint`` back to the input's sharding).
``per_shard``
    ``shard_map`` of the same call: every device calls the host with its own block.

Each measurement is one item of the job's plan, after the cells (so a size that hangs is a
timeout of its own, like a cell). Each process times the compiled function itself (median
of ``REPEATS`` calls after one warm-up call, each waited for with ``block_until_ready`` and
``effects_barrier``) and counts its host calls through :func:`jaxcb_core.probe.counting`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import Any

import jax
import numpy as np
from jax.sharding import NamedSharding

from ..mechanisms import Variant
from ..probe import Tally, counting
from . import spmd

__all__ = ["FORMS", "REPEATS", "SIZES", "measure", "plan", "subjects"]

SIZES = (1 << 10, 1 << 14, 1 << 17, 1 << 20)
REPEATS = 15
FORMS = ("gathered", "per_shard")


def subjects(variants: Sequence[Variant]) -> list[Variant]:
    """The first variant (by ``order``) of each mechanism, where it has a call or send form."""
    out: list[Variant] = []
    seen: set[str] = set()
    for v in sorted(variants, key=lambda v: (v.order, v.id)):
        if v.mechanism not in seen:
            seen.add(v.mechanism)
            if "call" in v.bare or "send" in v.bare:
                out.append(v)
    return out


def _add_one(a: Any) -> np.ndarray:
    return np.asarray(a) + np.float32(1)


def _ignore(a: Any) -> None:
    return None


def _function(v: Variant, form: str, tally: Tally) -> Callable[[jax.Array], jax.Array]:
    m = spmd.mesh()

    def body(x: jax.Array) -> jax.Array:
        if "call" in v.bare:
            result = jax.ShapeDtypeStruct(x.shape, x.dtype)
            return v.bare["call"](counting(_add_one, tally, "host"), result, x)
        v.bare["send"](counting(_ignore, tally, "host"), x)
        return x + 1

    if form == "gathered":
        split = NamedSharding(m, spmd.SPLIT)
        return jax.jit(lambda x: jax.lax.with_sharding_constraint(body(x), split))
    return jax.jit(spmd.shard_map_fn()(body, mesh=m, in_specs=spmd.SPLIT, out_specs=spmd.SPLIT))


def _time(f: Callable[[jax.Array], jax.Array], x: jax.Array, repeats: int) -> float:
    jax.block_until_ready(f(x))  # compile and warm up
    jax.effects_barrier()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        jax.block_until_ready(f(x))
        jax.effects_barrier()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def plan(variants: Sequence[Variant], sizes: Sequence[int] = SIZES) -> list[list[Any]]:
    """Every measurement, ``[variant id, form, n]``: each subject × size × form."""
    return [[v.id, form, n] for v in subjects(variants) for n in sizes for form in FORMS]


def measure(v: Variant, form: str, size: int, repeats: int = REPEATS) -> dict[str, Any]:
    """One measurement in this process (every process of the job runs the same one)."""
    start = time.perf_counter()
    m = spmd.mesh()
    n = max(m.size, size - size % m.size)
    x = spmd.place(np.linspace(-1, 1, n, dtype=np.float32), spmd.SPLIT, m)
    tally = Tally()
    seconds = _time(_function(v, form, tally), x, repeats)
    return {
        "variant": v.id,
        "form": form,
        "n": n,
        "median_s": seconds,
        "host_calls": tally.calls // (repeats + 1),
        "shape": tally.shapes[0] if tally.shapes else None,
        "repeats": repeats,
        "load": os.getloadavg()[0],
        "seconds": time.perf_counter() - start,
    }
