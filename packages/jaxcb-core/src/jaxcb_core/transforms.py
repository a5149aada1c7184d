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
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import PartitionSpec

from .case import BATCH, LOOP, Case, NotApplicable

__all__ = ["TRANSFORMS", "Case", "NotApplicable", "Transform", "Trial", "by_id"]


@dataclasses.dataclass
class Trial:
    """What a transform produced, what it should have produced, and its logical calls."""

    outputs: Any
    expected: Any
    calls: list[tuple[Any, ...]]
    derivative: bool = False


@dataclasses.dataclass(frozen=True)
class Transform:
    """One column of the matrix."""

    id: str
    label: str
    group: str
    doc: str
    apply: Callable[[Case], Trial]
    legacy: bool = False


def _stack(trees: list[Any]) -> Any:
    return jax.tree_util.tree_map(lambda *xs: np.stack([np.asarray(x) for x in xs]), *trees)


def _zeros_like_out(case: Case, dyn: Sequence[Any]) -> Any:
    shapes = jax.eval_shape(case.g, *dyn)
    return jax.tree_util.tree_map(lambda s: jnp.zeros(s.shape, s.dtype), shapes)


def _zeros_np(tree: Any) -> Any:
    return jax.tree_util.tree_map(lambda x: np.zeros_like(np.asarray(x)), tree)


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
    return Trial(out, np.zeros((), np.int32), calls)


# --- batching ---------------------------------------------------------------------------------


Wrap = Callable[[Callable[..., Any], tuple[int | None, ...]], Callable[..., Any]]


def _vmap_like(wrap: Wrap) -> Callable[[Case], Trial]:
    def run(case: Case) -> Trial:
        dyn, elems = case.batched()
        out = wrap(case.g, case.in_axes())(*dyn)
        return Trial(out, _stack([case.ref(*e) for e in elems]), elems)

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
    return Trial(out, _stack([case.ref(*e) for e in elems]), elems)


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


# --- autodiff ---------------------------------------------------------------------------------


def _tangent(d: Any, seed: int = 7) -> np.ndarray:
    d = np.asarray(d)
    return np.random.default_rng(seed).uniform(-1, 1, d.shape).astype(d.dtype)


def _grad(case: Case) -> Trial:
    dyn = case.dyn
    d = dyn[case.diff_index]
    return Trial(jax.grad(case.scalar(dyn))(d), case.grad_ref(dyn), [dyn], derivative=True)


def _checkpoint_grad(case: Case) -> Trial:
    dyn = case.dyn
    d = dyn[case.diff_index]
    h = jax.checkpoint(case.scalar(dyn))
    return Trial(jax.grad(h)(d), case.grad_ref(dyn), [dyn], derivative=True)


def _jvp(case: Case) -> Trial:
    dyn = case.dyn
    d = dyn[case.diff_index]
    t = _tangent(d)
    primal, tangent = jax.jvp(case.partial(dyn), (d,), (t,))
    expected = (case.ref(*dyn), case.jvp_ref(dyn, t))
    return Trial((primal, tangent), expected, [dyn], derivative=True)


def _vjp(case: Case) -> Trial:
    dyn = case.dyn
    d = dyn[case.diff_index]
    primal, pullback = jax.vjp(case.partial(dyn), d)
    leaves, tree = jax.tree_util.tree_flatten(primal)
    cots = [_tangent(np.asarray(leaf), seed=11 + i) for i, leaf in enumerate(leaves)]
    (out,) = pullback(jax.tree_util.tree_unflatten(tree, cots))
    expected = case.vjp_ref(dyn, tuple(cots) if len(cots) > 1 else cots[0])
    return Trial(out, expected, [dyn], derivative=True)


def _jac(which: Callable[..., Any]) -> Callable[[Case], Trial]:
    def run(case: Case) -> Trial:
        dyn = case.dyn
        d = dyn[case.diff_index]
        out = which(case.partial(dyn))(d)
        return Trial(out, case.jacobian_ref(dyn), [dyn], derivative=True)

    return run


def _hessian(case: Case) -> Trial:
    dyn = case.dyn
    d = dyn[case.diff_index]
    return Trial(jax.hessian(case.scalar(dyn))(d), case.hessian_ref(dyn), [dyn], derivative=True)


def _vmap_grad(case: Case) -> Trial:
    idx = case.diff_index
    if case.comp.diff_argnum not in case.comp.batch_argnums:
        raise NotApplicable("the differentiable argument is not batched")
    dyn, elems = case.batched()
    base = case.dyn

    def per(d: Any) -> Any:
        return jax.grad(case.scalar(base))(d)

    out = jax.vmap(per)(dyn[idx])
    expected = np.stack([case.grad_ref(case.with_diff(base, e[idx])) for e in elems])
    calls = [case.with_diff(base, e[idx]) for e in elems]
    return Trial(out, expected, calls, derivative=True)


# --- control flow -----------------------------------------------------------------------------


def _scan(case: Case) -> Trial:
    if case.comp.batch_argnums:
        dyn, elems = case.batched(LOOP)
        axes = case.in_axes()
        xs = tuple(a for a, ax in zip(dyn, axes, strict=True) if ax == 0)

        def step(carry: Any, x: Any) -> tuple[Any, Any]:
            it = iter(x)
            args = [next(it) if ax == 0 else a for a, ax in zip(dyn, axes, strict=True)]
            return carry, case.g(*args)

        _, out = lax.scan(step, None, xs)
    else:
        elems = [case.dyn] * LOOP
        _, out = lax.scan(lambda c, _: (c, case.g(*case.dyn)), None, None, length=LOOP)
    return Trial(out, _stack([case.ref(*e) for e in elems]), list(elems))


def _loop(kind: str) -> Callable[[Case], Trial]:
    def run(case: Case) -> Trial:
        dyn = case.dyn
        init = _zeros_like_out(case, dyn)
        if kind == "while":

            def body(state: Any) -> Any:
                return state[0] + 1, case.g(*dyn)

            _, out = lax.while_loop(lambda s: s[0] < LOOP, body, (0, init))
        else:
            out = lax.fori_loop(0, LOOP, lambda i, _: case.g(*dyn), init)
        refs = [case.ref(*dyn) for _ in range(LOOP)]
        return Trial(out, refs[-1], [dyn] * LOOP)

    return run


def _cond(case: Case) -> Trial:
    dyn = case.dyn
    zeros = _zeros_like_out(case, dyn)

    @jax.jit
    def f(p: Any, *d: Any) -> Any:
        return lax.cond(p, lambda: case.g(*d), lambda: zeros)

    return Trial(f(True, *dyn), case.ref(*dyn), [dyn])


def _vmap_cond(case: Case) -> Trial:
    dyn, elems = case.batched()
    preds = np.array([k % 2 == 0 for k in range(BATCH)])
    zeros = _zeros_like_out(case, elems[0])

    def f(p: Any, *d: Any) -> Any:
        return lax.cond(p, lambda: case.g(*d), lambda: zeros)

    out = jax.vmap(f, in_axes=(0, *case.in_axes()))(preds, *dyn)
    refs = [case.ref(*e) if p else _zeros_np(zeros) for p, e in zip(preds, elems, strict=True)]
    calls = [e for p, e in zip(preds, elems, strict=True) if p]
    return Trial(out, _stack(refs), calls)


def _vmap_while(case: Case) -> Trial:
    dyn, elems = case.batched()
    trips = np.array([1 + k % LOOP for k in range(BATCH)], np.int32)
    init = _zeros_like_out(case, elems[0])

    def f(n: Any, *d: Any) -> Any:
        def body(state: Any) -> Any:
            return state[0] + 1, case.g(*d)

        return lax.while_loop(lambda s: s[0] < n, body, (0, init))[1]

    out = jax.vmap(f, in_axes=(0, *case.in_axes()))(trips, *dyn)
    calls = [e for n, e in zip(trips, elems, strict=True) for _ in range(int(n))]
    return Trial(out, _stack([case.ref(*e) for e in elems]), calls)


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


TRANSFORMS: tuple[Transform, ...] = (
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
    Transform("grad", "grad", "autodiff", "jax.grad of the sum of the outputs.", _grad),
    Transform("jvp", "jvp", "autodiff", "jax.jvp with a random tangent.", _jvp),
    Transform("vjp", "vjp", "autodiff", "jax.vjp with a random cotangent.", _vjp),
    Transform("jacfwd", "jacfwd", "autodiff", "jax.jacfwd (forward mode).", _jac(jax.jacfwd)),
    Transform("jacrev", "jacrev", "autodiff", "jax.jacrev (reverse mode).", _jac(jax.jacrev)),
    Transform("hessian", "hessian", "autodiff", "jax.hessian of the sum of the outputs.", _hessian),
    Transform("vmap_grad", "vmap∘grad", "autodiff", "jax.vmap(jax.grad(...)).", _vmap_grad),
    Transform(
        "checkpoint_grad",
        "grad∘checkpoint",
        "autodiff",
        "jax.grad(jax.checkpoint(...)): rematerialisation runs the forward pass again.",
        _checkpoint_grad,
    ),
    Transform("scan", "lax.scan", "control flow", "lax.scan over 3 steps, f once per step.", _scan),
    Transform(
        "while_loop",
        "lax.while_loop",
        "control flow",
        "lax.while_loop running f 3 times on the same input.",
        _loop("while"),
    ),
    Transform(
        "fori_loop",
        "lax.fori_loop",
        "control flow",
        "lax.fori_loop(0, 3) running f 3 times (static trip count: lowered as a scan).",
        _loop("fori"),
    ),
    Transform(
        "cond",
        "lax.cond",
        "control flow",
        "f in the taken branch of lax.cond under jit.",
        _cond,
    ),
    Transform(
        "vmap_cond",
        "vmap∘cond",
        "control flow",
        "vmap of lax.cond with a batched predicate (2 of 4 elements take f): "
        "a batched cond runs both branches.",
        _vmap_cond,
    ),
    Transform(
        "vmap_while",
        "vmap∘while",
        "control flow",
        "vmap of lax.while_loop with a batched trip count (1, 2, 3, 1).",
        _vmap_while,
    ),
    Transform(
        "export",
        "jax.export",
        "export",
        "jax.export of jax.jit(f), serialized, deserialized and called.",
        _export,
    ),
)


def by_id(tid: str) -> Transform:
    for t in TRANSFORMS:
        if t.id == tid:
            return t
    raise KeyError(f"no transform {tid!r}; known: {[t.id for t in TRANSFORMS]}")
