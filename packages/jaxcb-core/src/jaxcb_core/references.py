"""Float64 derivative references, built from the catalog's analytic ``jvp_reference``.

The one place where expected derivatives come from: the matrix's autodiff columns and the
package tests both compare against these. NumPy only, never JAX. Every function takes a
:class:`~jaxcb_core.catalog.Computation` and its full positional arguments; derivatives
are with respect to the argument ``comp.diff_argnum``, in float64.

Outputs keep the computation's structure: a single array, or a tuple of arrays for a
computation with several outputs (``sum_mean``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .catalog import Computation

__all__ = ["grad", "hessian", "jacobian", "jacobian_vjp", "jvp", "vjp"]


def _argnum(comp: Computation) -> int:
    if comp.diff_argnum is None or comp.jvp_reference is None:
        raise ValueError(f"{comp.name} has no derivative reference")
    return comp.diff_argnum


def _with(args: Sequence[Any], i: int, value: Any) -> tuple[Any, ...]:
    out = list(args)
    out[i] = value
    return tuple(out)


def _leaves(tree: Any) -> list[np.ndarray]:
    return [np.asarray(t, np.float64) for t in tree] if isinstance(tree, tuple) else [tree]


def _tree(leaves: list[np.ndarray]) -> Any:
    return tuple(leaves) if len(leaves) > 1 else leaves[0]


def jvp(comp: Computation, args: Sequence[Any], tangent: Any) -> Any:
    """The directional derivative along ``tangent`` (float64)."""
    i = _argnum(comp)
    assert comp.jvp_reference is not None
    args64 = _with(args, i, np.asarray(args[i], np.float64))
    return comp.jvp_reference(args64, np.asarray(tangent, np.float64))


def jacobian(comp: Computation, args: Sequence[Any]) -> Any:
    """``J[out..., in...]`` per output, column by column from :func:`jvp`."""
    i = _argnum(comp)
    shape = np.shape(args[i])
    size = int(np.prod(shape, dtype=int))
    columns = []
    for k in range(size):
        e = np.zeros(size)
        e[k] = 1.0
        columns.append(
            [np.asarray(leaf, np.float64) for leaf in _leaves(jvp(comp, args, e.reshape(shape)))]
        )
    if not columns:  # an empty argument: no columns
        out = _leaves(comp.reference(*args))
        return _tree([np.zeros(np.shape(o) + shape) for o in out])
    per_leaf = zip(*columns, strict=True)
    return _tree([np.stack(cols, axis=-1).reshape(cols[0].shape + shape) for cols in per_leaf])


def vjp(comp: Computation, args: Sequence[Any], cotangent: Any) -> np.ndarray:
    """``sum over outputs of <cotangent, J>``: the pullback of ``cotangent``.

    The catalog's analytic ``vjp_reference`` where it has one (``jacobian_vjp`` is the
    same from the Jacobian, for checking it), so large arguments cost no Jacobian.
    """
    i = _argnum(comp)
    if comp.vjp_reference is not None:
        args64 = _with(args, i, np.asarray(args[i], np.float64))
        return np.asarray(comp.vjp_reference(args64, cotangent), np.float64)
    return jacobian_vjp(comp, args, cotangent)


def jacobian_vjp(comp: Computation, args: Sequence[Any], cotangent: Any) -> np.ndarray:
    """:func:`vjp` from the Jacobian built column by column from ``jvp_reference``."""
    jac, cot = _leaves(jacobian(comp, args)), _leaves(cotangent)
    if len(jac) != len(cot):
        raise ValueError(f"{comp.name}: {len(cot)} cotangents for {len(jac)} outputs")
    total = sum(
        np.tensordot(np.asarray(c, np.float64), j, axes=np.ndim(c))
        for c, j in zip(cot, jac, strict=True)
    )
    return np.asarray(total, np.float64)


def grad(comp: Computation, args: Sequence[Any], weights: Any = None) -> np.ndarray:
    """The gradient of ``sum(weights * f(args))`` over every output (weights default 1)."""
    if weights is None:
        weights = _tree([np.ones(np.shape(o)) for o in _leaves(comp.reference(*args))])
    return vjp(comp, args, weights)


def hessian(
    comp: Computation, args: Sequence[Any], *, summed: bool = True, eps: float = 1e-4
) -> Any:
    """Second derivatives by central differences of the analytic first derivative.

    ``summed=True``: the Hessian ``H[in..., in...]`` of the sum of every output (what
    ``jax.hessian`` of a scalar loss gives). ``summed=False``: ``H[out..., in..., in...]``
    per output (``jax.hessian`` of the function itself).
    """
    i = _argnum(comp)
    d = np.asarray(args[i], np.float64)
    first = (lambda a: grad(comp, a)) if summed else (lambda a: jacobian(comp, a))
    columns = []
    for k in range(d.size):
        e = np.zeros(d.size)
        e[k] = eps
        e = e.reshape(d.shape)
        up, down = _leaves(first(_with(args, i, d + e))), _leaves(first(_with(args, i, d - e)))
        columns.append([(u - w) / (2 * eps) for u, w in zip(up, down, strict=True)])
    per_leaf = zip(*columns, strict=True)
    return _tree([np.stack(cols, axis=-1).reshape(cols[0].shape + d.shape) for cols in per_leaf])
