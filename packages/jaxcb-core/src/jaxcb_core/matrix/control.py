"""The control-flow columns of the matrix: an implementation inside loops and conditionals.

Each function takes a :class:`~jaxcb_core.matrix.case.Case` and returns a
:class:`~jaxcb_core.matrix.case.Trial` with the logical calls it made, from which the records
an effect owes follow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import numpy as np
from jax import lax

from .case import BATCH, LOOP, Case, Trial, stack, zeros_like_out, zeros_np


def scan(case: Case) -> Trial:
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
    return Trial(out, stack([case.ref(*e) for e in elems]), list(elems))


def loop(kind: str) -> Callable[[Case], Trial]:
    def run(case: Case) -> Trial:
        dyn = case.dyn
        init = zeros_like_out(case, dyn)
        if kind == "while":

            def body(state: Any) -> Any:
                return state[0] + 1, case.g(*dyn)

            _, out = lax.while_loop(lambda s: s[0] < LOOP, body, (0, init))
        else:
            out = lax.fori_loop(0, LOOP, lambda i, _: case.g(*dyn), init)
        refs = [case.ref(*dyn) for _ in range(LOOP)]
        return Trial(out, refs[-1], [dyn] * LOOP)

    return run


def cond(case: Case) -> Trial:
    dyn = case.dyn
    zeros = zeros_like_out(case, dyn)

    @jax.jit
    def f(p: Any, *d: Any) -> Any:
        return lax.cond(p, lambda: case.g(*d), lambda: zeros)

    return Trial(f(True, *dyn), case.ref(*dyn), [dyn])


def vmap_cond(case: Case) -> Trial:
    dyn, elems = case.batched()
    preds = np.array([k % 2 == 0 for k in range(BATCH)])
    zeros = zeros_like_out(case, elems[0])

    def f(p: Any, *d: Any) -> Any:
        return lax.cond(p, lambda: case.g(*d), lambda: zeros)

    out = jax.vmap(f, in_axes=(0, *case.in_axes()))(preds, *dyn)
    refs = [case.ref(*e) if p else zeros_np(zeros) for p, e in zip(preds, elems, strict=True)]
    calls = [e for p, e in zip(preds, elems, strict=True) if p]
    return Trial(out, stack(refs), calls)


def vmap_while(case: Case) -> Trial:
    dyn, elems = case.batched()
    trips = np.array([1 + k % LOOP for k in range(BATCH)], np.int32)
    init = zeros_like_out(case, elems[0])

    def f(n: Any, *d: Any) -> Any:
        def body(state: Any) -> Any:
            return state[0] + 1, case.g(*d)

        return lax.while_loop(lambda s: s[0] < n, body, (0, init))[1]

    out = jax.vmap(f, in_axes=(0, *case.in_axes()))(trips, *dyn)
    calls = [e for n, e in zip(trips, elems, strict=True) for _ in range(int(n))]
    return Trial(out, stack([case.ref(*e) for e in elems]), calls)


def vmap_while_cond(case: Case) -> Trial:
    """vmap of a while_loop whose *condition* calls the implementation, with a batched trip
    count (1, 2, 3, 1): the predicate is batched, so every element evaluates it until the
    last one is done. The loop returns its counter; the condition evaluated ``n + 1`` times
    for an element of ``n`` trips is what a program without vmap would do."""
    dyn, elems = case.batched()
    trips = np.array([1 + k % LOOP for k in range(BATCH)], np.int32)

    def f(n: Any, *d: Any) -> Any:
        def cond(s: Any) -> Any:
            seen = sum(jax.numpy.sum(leaf) for leaf in jax.tree_util.tree_leaves(case.g(*d)))
            return (s < n) & jax.numpy.isfinite(seen)

        return lax.while_loop(cond, lambda s: s + 1, jax.numpy.int32(0))

    out = jax.vmap(f, in_axes=(0, *case.in_axes()))(trips, *dyn)
    calls = [e for n, e in zip(trips, elems, strict=True) for _ in range(int(n) + 1)]
    return Trial(out, trips, calls)
