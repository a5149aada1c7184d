"""What a caller sees when the host function raises, per mechanism × where it runs.

Each mechanism's bare form (its registry's ``call``, or ``send`` for an observer) runs a
host function that raises ``HostError("jaxcb: the host function raised")`` — eagerly,
under ``jit``, ``vmap``, ``lax.scan``, ``lax.cond`` and ``shard_map``. Recorded: the type
the caller catches, whether the original type and message can still be found (the
exception chain, the message text), whether the next call works, and whether an ordered
effect still works after the failure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from harness import DOCS, Outcome, bare, chain, error_name, isolated, scenario, script
from jax import lax
from jax.sharding import PartitionSpec

MARK = "jaxcb: the host function raised"
CONTEXTS = ("eager", "jit", "vmap", "scan", "cond", "shard_map")


class HostError(ValueError):
    """The exception the host function raises."""


def _raise(*args: Any) -> Any:
    raise HostError(MARK)


def _forms() -> list[tuple[str, str, Callable[..., Any]]]:
    calls = bare("call")
    out = [(m, "call", f) for m, f in calls]
    taken = {m for m, _ in calls}
    out += [(m, "send", f) for m, f in bare("send") if m not in taken]
    return out


def _fn(form: str, impl: Callable[..., Any], host: Callable[..., Any]) -> Callable[[Any], Any]:
    """``x -> the mechanism's bare form running host on x`` (an observer returns x)."""
    if form == "call":
        return lambda x: impl(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    def send(x: Any) -> Any:
        impl(host, x)
        return x

    return send


def _shard_map(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    shard_map = getattr(jax, "shard_map", None)
    if shard_map is None:  # JAX < 0.7
        from jax.experimental.shard_map import shard_map
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:4]), ("i",))
    return jax.jit(
        shard_map(f, mesh=mesh, in_specs=PartitionSpec("i"), out_specs=PartitionSpec("i"))
    )


def _in(context: str, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    if context == "eager":
        return f
    if context == "jit":
        return jax.jit(f)
    if context == "vmap":
        return jax.vmap(f)
    if context == "scan":
        return lambda xs: lax.scan(lambda c, x: (c, f(x)), 0, xs)[1]
    if context == "cond":
        return jax.jit(lambda x: lax.cond(x[0] > -1, f, jnp.zeros_like, x))
    return _shard_map(f)


def _measure(mechanism: str, form: str, impl: Callable[..., Any], context: str) -> Outcome:
    x = np.linspace(0.0, 1.0, 4, dtype=np.float32)
    out: Outcome = {}
    try:
        jax.block_until_ready(_in(context, _fn(form, impl, _raise))(x))
        jax.effects_barrier()
        out["caller_sees"] = None
    except Exception as e:  # what the caller catches is the measurement
        links = chain(e)
        out["caller_sees"] = error_name(e)
        out["original_type_in_chain"] = any(isinstance(c, HostError) for c in links)
        out["message_kept"] = any(MARK in str(c) for c in links)
    try:
        jax.effects_barrier()
    except Exception as e:  # a failure may surface at the barrier instead
        out["barrier_raises"] = error_name(e)
    try:
        again = _in(context, _fn(form, impl, lambda *a: np.asarray(a[0])))(x)
        jax.block_until_ready(again)
        jax.effects_barrier()
        out["next_call_works"] = bool(np.allclose(np.asarray(again), x))
    except Exception as e:
        out["next_call_works"] = f"raises {error_name(e)}"
    sends = bare("send")
    if sends:
        seen: list[int] = []
        try:
            send = sends[0][1]
            jax.jit(lambda x: (send(lambda *a: seen.append(1), x, ordered=True), x)[1])(x)
            jax.effects_barrier()
            out["ordered_effect_after"] = len(seen) == 1
        except Exception as e:
            out["ordered_effect_after"] = f"raises {error_name(e)}"
    return out


def _register() -> None:
    for mechanism, form, impl in _forms():
        for context in CONTEXTS:

            def run(
                mechanism: str = mechanism,
                form: str = form,
                impl: Any = impl,
                context: str = context,
            ) -> Outcome:
                return _measure(mechanism, form, impl, context)

            scenario(
                "exception",
                f"{mechanism}/{context}",
                f"{mechanism} ({form}) raising in its host function, {context}",
            )(isolated(run))


_register()


script(
    "exception",
    "instead/flag",
    "Instead of raising: the host returns a flag with the value",
    DOCS / "errors" / "flag.py",
)
script(
    "exception",
    "instead/checkify",
    "Instead of raising: checkify the host's flag",
    DOCS / "errors" / "checkify.py",
)
