"""A :class:`Case`: one implementation of one computation, ready to be transformed.

The matrix builds a case per cell (inputs from the catalog, static arguments and the
host sink bound); each transform in :mod:`jaxcb_core.matrix.transforms` applies it the way a
user would and compares with the float64 references of :mod:`jaxcb_core.references`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .. import references
from ..catalog import Computation

__all__ = [
    "BATCH",
    "LOOP",
    "Case",
    "NotApplicable",
    "Trial",
    "stack",
    "tangent",
    "zeros_like_out",
    "zeros_np",
]

BATCH = 4  # batch size for vmap-like transforms: one element per device under pmap/shard_map
LOOP = 3  # iterations of while_loop / fori_loop


class NotApplicable(Exception):
    """The transform does not apply to this computation (the message says why)."""


@dataclasses.dataclass
class Case:
    """``g(*dyn)`` calls the implementation with the array arguments ``dyn`` (static
    arguments and the sink are already bound); ``ref(*dyn)`` is the reference for one
    call (stateful for impure computations: each call is the next draw)."""

    comp: Computation
    g: Callable[..., Any]
    ref: Callable[..., Any]
    dtype: np.dtype[Any]
    full_args: tuple[Any, ...]

    @property
    def dyn_positions(self) -> list[int]:
        return [i for i in range(len(self.full_args)) if i not in self.comp.static_argnums]

    @property
    def dyn(self) -> tuple[Any, ...]:
        return tuple(self.full_args[i] for i in self.dyn_positions)

    def full(self, dyn: Sequence[Any]) -> tuple[Any, ...]:
        """Positional arguments with ``dyn`` put back around the static ones."""
        out = list(self.full_args)
        for pos, value in zip(self.dyn_positions, dyn, strict=True):
            out[pos] = value
        return tuple(out)

    def in_axes(self) -> tuple[int | None, ...]:
        return tuple(0 if p in self.comp.batch_argnums else None for p in self.dyn_positions)

    def batched(self, batch: int = BATCH) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
        """Batched dynamic arguments and the per-element dynamic arguments."""
        if not self.comp.batch_argnums:
            raise NotApplicable("no array argument to batch")
        full = self.comp.batched_args(self.dtype, batch)
        dyn = tuple(full[i] for i in self.dyn_positions)
        elems = [
            tuple(self.comp.element(full, k)[i] for i in self.dyn_positions) for k in range(batch)
        ]
        return dyn, elems

    @property
    def diff_index(self) -> int:
        if not self.comp.differentiable:
            raise NotApplicable(f"{self.comp.name} has no derivative to take")
        assert self.comp.diff_argnum is not None
        return self.dyn_positions.index(self.comp.diff_argnum)

    def with_diff(self, dyn: Sequence[Any], d: Any) -> tuple[Any, ...]:
        out = list(dyn)
        out[self.diff_index] = d
        return tuple(out)

    def partial(self, dyn: Sequence[Any]) -> Callable[[Any], Any]:
        """``d -> g(...)`` with only the differentiable argument free."""
        return lambda d: self.g(*self.with_diff(dyn, d))

    def scalar(self, dyn: Sequence[Any]) -> Callable[[Any], Any]:
        """``d -> sum of every output`` with the differentiable argument free."""

        def h(d: Any) -> Any:
            leaves = jax.tree_util.tree_leaves(self.g(*self.with_diff(dyn, d)))
            return sum(jnp.sum(leaf) for leaf in leaves)

        return h

    # float64 references for the derivative columns (jaxcb_core.references)
    def jvp_ref(self, dyn: Sequence[Any], tangent: Any) -> Any:
        return references.jvp(self.comp, self.full(dyn), tangent)

    def vjp_ref(self, dyn: Sequence[Any], cotangent: Any) -> np.ndarray:
        return references.vjp(self.comp, self.full(dyn), cotangent)

    def jacobian_ref(self, dyn: Sequence[Any]) -> Any:
        return references.jacobian(self.comp, self.full(dyn))

    def grad_ref(self, dyn: Sequence[Any]) -> np.ndarray:
        return references.grad(self.comp, self.full(dyn))

    def hessian_ref(self, dyn: Sequence[Any]) -> np.ndarray:
        return np.asarray(references.hessian(self.comp, self.full(dyn)))


@dataclasses.dataclass
class Trial:
    """What a transform produced, what it should have produced, and its logical calls.

    ``executions``: how many times the program runs the computation, where that differs
    from the calls whose results are checked (a call whose result is dropped still runs).
    """

    outputs: Any
    expected: Any
    calls: list[tuple[Any, ...]]
    derivative: bool = False
    executions: int | None = None

    @property
    def runs(self) -> int:
        """How many times the program asks for the computation to run."""
        return len(self.calls) if self.executions is None else self.executions


def stack(trees: list[Any]) -> Any:
    return jax.tree_util.tree_map(lambda *xs: np.stack([np.asarray(x) for x in xs]), *trees)


def zeros_like_out(case: Case, dyn: Sequence[Any]) -> Any:
    shapes = jax.eval_shape(case.g, *dyn)
    return jax.tree_util.tree_map(lambda s: jnp.zeros(s.shape, s.dtype), shapes)


def zeros_np(tree: Any) -> Any:
    return jax.tree_util.tree_map(lambda x: np.zeros_like(np.asarray(x)), tree)


def tangent(d: Any, seed: int = 7) -> np.ndarray:
    """A deterministic random direction shaped like ``d``."""
    d = np.asarray(d)
    return np.random.default_rng(seed).uniform(-1, 1, d.shape).astype(d.dtype)
