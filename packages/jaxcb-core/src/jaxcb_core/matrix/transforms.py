"""The transform catalog: the columns of the support matrix.

A transform takes a :class:`Case` (one implementation of one computation, with
its inputs and reference) and returns a :class:`Trial`: what the transformed
function returned, what the reference says it should have returned, and the
logical calls it made (from which the expected host records follow).

Each transform applies the implementation the way a user would (``jax.vmap(f)``,
``jax.grad(lambda x: f(x).sum())``, ...); the references are computed in float64
by NumPy/SciPy from the catalog, never by JAX.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec

from . import autodiff, control
from .case import BATCH, Case, NotApplicable, Trial, stack

__all__ = ["TRANSFORMS", "Case", "NotApplicable", "Transform", "Trial", "by_id"]


@dataclasses.dataclass(frozen=True)
class Transform:
    """One column of the matrix."""

    id: str
    label: str
    group: str
    doc: str
    apply: Callable[[Case], Trial]
    legacy: bool = False


# --- compile ----------------------------------------------------------------------------------


def _eager(case: Case) -> Trial:
    return Trial(case.g(*case.dyn), case.ref(*case.dyn), [case.dyn])


def _jit(case: Case) -> Trial:
    return Trial(jax.jit(case.g)(*case.dyn), case.ref(*case.dyn), [case.dyn])


def _jit_unused(case: Case) -> Trial:
    def f(*dyn: Any) -> Any:
        case.g(*dyn)
        return jnp.zeros((), jnp.int32)

    out = jax.jit(f)(*case.dyn)
    # A pure computation owes nothing when its result is unused; an effect still owes its records.
    calls = [] if case.comp.kind == "pure" else [case.dyn]
    if case.comp.kind == "impure":
        case.ref(*case.dyn)  # the draw the host should have made
    return Trial(out, np.zeros((), np.int32), calls, executions=1)


# --- batching ---------------------------------------------------------------------------------


Wrap = Callable[[Callable[..., Any], tuple[int | None, ...]], Callable[..., Any]]


def _vmap_like(wrap: Wrap) -> Callable[[Case], Trial]:
    def run(case: Case) -> Trial:
        dyn, elems = case.batched()
        out = wrap(case.g, case.in_axes())(*dyn)
        return Trial(out, stack([case.ref(*e) for e in elems]), elems)

    return run


def _mesh() -> Any:
    devices = jax.devices()
    if len(devices) < BATCH:
        raise NotApplicable(f"needs {BATCH} devices, this process has {len(devices)}")
    return jax.sharding.Mesh(np.array(devices[:BATCH]), ("i",))


def _pmap(case: Case) -> Trial:
    _mesh()
    return _vmap_like(lambda g, ax: jax.pmap(g, in_axes=ax))(case)


def _shard_map_fn() -> Callable[..., Any]:
    if hasattr(jax, "shard_map"):
        return jax.shard_map
    from jax.experimental.shard_map import shard_map  # JAX < 0.7

    return shard_map


def _shard_map(case: Case) -> Trial:
    mesh = _mesh()
    dyn, elems = case.batched()
    axes = case.in_axes()

    def body(*blocks: Any) -> Any:
        args = [b[0] if a == 0 else b for a, b in zip(axes, blocks, strict=True)]
        return jax.tree_util.tree_map(lambda o: o[None], case.g(*args))

    in_specs = tuple(PartitionSpec("i") if a == 0 else PartitionSpec() for a in axes)
    f = _shard_map_fn()(body, mesh=mesh, in_specs=in_specs, out_specs=PartitionSpec("i"))
    out = jax.jit(f)(*dyn)
    return Trial(out, stack([case.ref(*e) for e in elems]), elems)


def _sharded_jit(case: Case) -> Trial:
    mesh = _mesh()
    placed = []
    for p, a in zip(case.dyn_positions, case.dyn, strict=True):
        a = np.asarray(a)
        if p in case.comp.batch_argnums and a.ndim and a.shape[0] % BATCH == 0:
            placed.append(jax.device_put(a, jax.sharding.NamedSharding(mesh, PartitionSpec("i"))))
        else:
            placed.append(jax.device_put(a, jax.sharding.NamedSharding(mesh, PartitionSpec())))
    if not any(
        len(x.sharding.device_set) > 1 and not x.sharding.is_fully_replicated for x in placed
    ):
        raise NotApplicable("no argument can be split 4 ways")
    return Trial(jax.jit(case.g)(*placed), case.ref(*case.dyn), [case.dyn])


# --- export -----------------------------------------------------------------------------------


def _export(case: Case) -> Trial:
    avals = [jax.ShapeDtypeStruct(np.shape(a), np.asarray(a).dtype) for a in case.dyn]
    try:
        from jax import export
    except ImportError:
        try:  # JAX < 0.4.31 had the same feature as jax.experimental.export
            from jax.experimental import export as old  # type: ignore[attr-defined]
        except ImportError:
            raise NotApplicable("this JAX has no jax.export") from None
        exported = old.export(jax.jit(case.g))(*avals)
        restored = old.deserialize(old.serialize(exported))
        return Trial(old.call(restored)(*case.dyn), case.ref(*case.dyn), [case.dyn])
    exported = export.export(jax.jit(case.g))(*avals)
    restored = export.deserialize(exported.serialize())
    return Trial(restored.call(*case.dyn), case.ref(*case.dyn), [case.dyn])


_ALL: tuple[Transform, ...] = (
    Transform("eager", "eager", "compile", "Called directly, op by op.", _eager),
    Transform("jit", "jit", "compile", "jax.jit(f)(*args).", _jit),
    Transform(
        "jit_unused",
        "jit, result unused",
        "compile",
        "jax.jit of a function that calls f and drops its result: is the host call removed?",
        _jit_unused,
    ),
    Transform("vmap", "vmap", "batch", "jax.vmap(f) over a batch of 4.", _vmap_like(jax.vmap)),
    Transform(
        "jit_vmap",
        "jit∘vmap",
        "batch",
        "jax.jit(jax.vmap(f)).",
        _vmap_like(lambda g, ax: jax.jit(jax.vmap(g, in_axes=ax))),
    ),
    Transform(
        "vmap_jit",
        "vmap∘jit",
        "batch",
        "jax.vmap(jax.jit(f)).",
        _vmap_like(lambda g, ax: jax.vmap(jax.jit(g), in_axes=ax)),
    ),
    Transform(
        "pmap",
        "pmap (legacy)",
        "parallel",
        "jax.pmap over 4 devices. pmap is in maintenance mode: new code uses shard_map.",
        _pmap,
        legacy=True,
    ),
    Transform(
        "shard_map",
        "shard_map",
        "parallel",
        "shard_map over a 4-device mesh, one batch element per device, default checks.",
        _shard_map,
    ),
    Transform(
        "sharded_jit",
        "jit, sharded input",
        "parallel",
        "jax.jit(f) on inputs split 4 ways along axis 0 with NamedSharding.",
        _sharded_jit,
    ),
    Transform("grad", "grad", "autodiff", "jax.grad of the sum of the outputs.", autodiff.grad),
    Transform("jvp", "jvp", "autodiff", "jax.jvp with a random tangent.", autodiff.jvp),
    Transform("vjp", "vjp", "autodiff", "jax.vjp with a random cotangent.", autodiff.vjp),
    Transform(
        "jacfwd", "jacfwd", "autodiff", "jax.jacfwd (forward mode).", autodiff.jac(jax.jacfwd)
    ),
    Transform(
        "jacrev", "jacrev", "autodiff", "jax.jacrev (reverse mode).", autodiff.jac(jax.jacrev)
    ),
    Transform(
        "hessian", "hessian", "autodiff", "jax.hessian of the sum of the outputs.", autodiff.hessian
    ),
    Transform("vmap_grad", "vmap∘grad", "autodiff", "jax.vmap(jax.grad(...)).", autodiff.vmap_grad),
    Transform(
        "checkpoint_grad",
        "grad∘checkpoint",
        "autodiff",
        "jax.grad(jax.checkpoint(...)): rematerialisation runs the forward pass again.",
        autodiff.checkpoint_grad,
    ),
    Transform(
        "scan", "lax.scan", "control flow", "lax.scan over 3 steps, f once per step.", control.scan
    ),
    Transform(
        "while_loop",
        "lax.while_loop",
        "control flow",
        "lax.while_loop running f 3 times on the same input.",
        control.loop("while"),
    ),
    Transform(
        "fori_loop",
        "lax.fori_loop",
        "control flow",
        "lax.fori_loop(0, 3) running f 3 times (static trip count: lowered as a scan).",
        control.loop("fori"),
    ),
    Transform(
        "cond",
        "lax.cond",
        "control flow",
        "f in the taken branch of lax.cond under jit.",
        control.cond,
    ),
    Transform(
        "vmap_cond",
        "vmap∘cond",
        "control flow",
        "vmap of lax.cond with a batched predicate (2 of 4 elements take f): "
        "a batched cond runs both branches.",
        control.vmap_cond,
    ),
    Transform(
        "vmap_while",
        "vmap∘while",
        "control flow",
        "vmap of lax.while_loop with a batched trip count (1, 2, 3, 1).",
        control.vmap_while,
    ),
    Transform(
        "linearize",
        "linearize",
        "autodiff",
        "jax.linearize, then the linear map applied to a random tangent.",
        autodiff.linearize,
    ),
    Transform(
        "linear_transpose",
        "linear_transpose",
        "autodiff",
        "jax.linear_transpose of the linearized map, applied to a random cotangent.",
        autodiff.linear_transpose,
    ),
    Transform(
        "checkpoint_nothing_grad",
        "grad∘checkpoint, save nothing",
        "autodiff",
        "jax.grad(jax.checkpoint(..., policy=jax.checkpoint_policies.nothing_saveable)).",
        autodiff.checkpoint_nothing_grad,
    ),
    Transform(
        "custom_vjp_fwd",
        "custom_vjp forward",
        "custom rules",
        "grad of a user's custom_vjp whose forward pass calls f and whose backward pass uses "
        "what it returned (the host-offload pattern).",
        autodiff.custom_vjp_fwd,
    ),
    Transform(
        "custom_vjp_bwd",
        "custom_vjp backward",
        "custom rules",
        "grad of a user's custom_vjp whose backward pass calls f.",
        autodiff.custom_vjp_bwd,
    ),
    Transform(
        "custom_jvp_rule",
        "custom_jvp rule",
        "custom rules",
        "grad of a user's custom_jvp whose rule calls f for the slope.",
        autodiff.custom_jvp_rule,
    ),
    Transform(
        "grad_scan_args",
        "grad, scan, f aside",
        "loops under grad",
        "grad of a 3-step lax.scan over a differentiated carry, f called on every step with "
        "its inputs passed through the scan (off the differentiated path), its results the "
        "scan's auxiliary output.",
        autodiff.grad_aside("scan", args=True),
    ),
    Transform(
        "grad_scan_const",
        "grad, scan, f on constants",
        "loops under grad",
        "the same with f's inputs closed over as constants: the call has no traced arguments.",
        autodiff.grad_aside("scan", args=False),
    ),
    Transform(
        "jit_grad_scan_args",
        "jit∘grad, scan, f aside",
        "loops under grad",
        "jax.jit of the grad of the scan with f aside.",
        autodiff.grad_aside("scan", args=True, jit=True),
    ),
    Transform(
        "grad_fori_args",
        "grad, fori_loop, f aside",
        "loops under grad",
        "grad of a 3-step lax.fori_loop over a differentiated carry, f called on every step "
        "with its inputs carried through the loop, its last result returned as auxiliary output.",
        autodiff.grad_aside("fori", args=True),
    ),
    Transform(
        "grad_fori_const",
        "grad, fori_loop, f on constants",
        "loops under grad",
        "the same with f's inputs closed over as constants.",
        autodiff.grad_aside("fori", args=False),
    ),
    Transform(
        "vmap_while_cond",
        "vmap∘while, f in cond",
        "control flow",
        "vmap of lax.while_loop whose condition calls f, with a batched trip count "
        "(1, 2, 3, 1): the predicate is batched.",
        control.vmap_while_cond,
    ),
    Transform(
        "export",
        "jax.export",
        "export",
        "jax.export of jax.jit(f), serialized, deserialized and called.",
        _export,
    ),
)


# Columns grouped for the tables (a group's columns stay next to each other), each group in
# the order written above.
GROUPS = (
    "compile",
    "batch",
    "parallel",
    "autodiff",
    "custom rules",
    "loops under grad",
    "control flow",
    "export",
)
TRANSFORMS: tuple[Transform, ...] = tuple(sorted(_ALL, key=lambda t: GROUPS.index(t.group)))


def by_id(tid: str) -> Transform:
    for t in TRANSFORMS:
        if t.id == tid:
            return t
    raise KeyError(f"no transform {tid!r}; known: {[t.id for t in TRANSFORMS]}")
