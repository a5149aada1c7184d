"""One catalog entry, :class:`Computation`, and the helpers the entries' references share.

NumPy only, never JAX.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np

Kind = Literal["pure", "effect", "impure"]
Record = tuple[int, np.ndarray]

__all__ = ["Computation", "Kind", "Record", "cast_tree", "diagonal_vjp", "float_dtype"]


@dataclasses.dataclass(frozen=True)
class Computation:
    """One entry of the catalog.

    Attributes:
        name: the function name every mechanism package uses for it.
        kind: ``"pure"`` (a function of its inputs), ``"effect"`` (must reach a
            host sink exactly once per step, in order) or ``"impure"`` (reads host
            state that each call must advance).
        signature: the call signature, as documented.
        summary: one line for tables and the terminal.
        source: where the computation comes from (one of the two source texts this project
            checks, named by its title, or jaxcb's own catalog).
        make_args: ``make_args(dtype)`` returns the positional arguments used by
            the tests and the matrix (small, deterministic).
        reference: NumPy/SciPy reference; takes the positional arguments, returns
            a pytree (array or tuple of arrays) in the input float dtype.
        static_argnums: positional arguments that are Python values (closed over
            under ``jit``, never batched).
        batch_argnums: arguments that carry a leading batch axis under ``vmap``.
        diff_argnum: the argument derivatives are taken with respect to.
        jvp_reference: ``jvp_reference(args, tangent)`` gives the directional
            derivative along ``tangent`` for the argument ``diff_argnum``.
        vjp_reference: ``vjp_reference(args, cotangent)``, the pullback, analytic where
            it is cheap (``jaxcb_core.references`` otherwise builds the Jacobian).
        sink: keyword through which an effect computation reaches the host
            (``"log"``, ``"report"`` or ``"rng"``).
        records: for effect computations, the ``(step, state)`` records the host
            sink must receive for one call, in order.
        tolerances: ``{dtype name: (rtol, atol)}``.
        sized_args: ``sized_args(dtype, n)``, arguments with ``n`` elements per array
            argument (``expm``: one square matrix of ``n`` entries), for the benchmarks.
        numpy: the computation in NumPy/SciPy on NumPy arrays, in the input dtype: what a
            user writes without JAX, the floor no callback can beat.
        numpy_into: the same writing into a preallocated ``out`` (first argument), where
            NumPy/SciPy can (``None`` elsewhere).
    """

    name: str
    kind: Kind
    signature: str
    summary: str
    source: str
    make_args: Callable[[np.dtype[Any]], tuple[Any, ...]]
    reference: Callable[..., Any]
    static_argnums: tuple[int, ...] = ()
    batch_argnums: tuple[int, ...] = (0,)
    diff_argnum: int | None = None
    jvp_reference: Callable[[tuple[Any, ...], np.ndarray], Any] | None = None
    vjp_reference: Callable[[tuple[Any, ...], Any], np.ndarray] | None = None
    sink: str | None = None
    records: Callable[..., list[Record]] | None = None
    tolerances: dict[str, tuple[float, float]] = dataclasses.field(
        default_factory=lambda: {"float32": (2e-5, 2e-6), "float64": (1e-10, 1e-12)}
    )
    sized_args: Callable[[np.dtype[Any], int], tuple[Any, ...]] | None = None
    numpy: Callable[..., Any] | None = None
    numpy_into: Callable[..., None] | None = None

    @property
    def differentiable(self) -> bool:
        return self.diff_argnum is not None and self.jvp_reference is not None

    def tolerance(self, dtype: Any) -> tuple[float, float]:
        """``(rtol, atol)`` for results of ``dtype``."""
        return self.tolerances[np.dtype(dtype).name]

    def batched_args(self, dtype: Any, batch: int, step: float = 0.25) -> tuple[Any, ...]:
        """Arguments with a leading axis of ``batch`` on every ``batch_argnums``.

        Element ``i`` of the batch is the base input shifted by ``step * i``
        (integers by ``i``), so batch elements differ and results can be matched
        to the element that produced them.
        """
        base = self.make_args(np.dtype(dtype))
        out = []
        for i, a in enumerate(base):
            if i in self.batch_argnums:
                a = np.asarray(a)
                shift = 1 if np.issubdtype(a.dtype, np.integer) else step
                out.append(np.stack([a + shift * k for k in range(batch)]).astype(a.dtype))
            else:
                out.append(a)
        return tuple(out)

    def element(self, batched: Sequence[Any], i: int) -> tuple[Any, ...]:
        """Element ``i`` of arguments made by :meth:`batched_args`."""
        return tuple(
            np.asarray(a)[i] if k in self.batch_argnums else a for k, a in enumerate(batched)
        )


def diagonal_vjp(
    jvp: Callable[[tuple[Any, ...], np.ndarray], Any],
) -> Callable[[tuple[Any, ...], Any], np.ndarray]:
    """The pullback of an elementwise map: its Jacobian is diagonal, so vjp = jvp."""
    return lambda args, c: np.asarray(jvp(args, np.asarray(c, np.float64)), np.float64)


def cast_tree(tree: Any, dtype: Any) -> Any:
    """An array, or a tuple of them, as ``dtype`` (a reference's float64 result, narrowed)."""
    if isinstance(tree, tuple):
        return tuple(cast_tree(t, dtype) for t in tree)
    return np.asarray(tree).astype(dtype)


def float_dtype(*args: Any) -> np.dtype[Any]:
    """The dtype of the first floating-point argument (``float32`` if none is)."""
    for a in args:
        a = np.asarray(a)
        if np.issubdtype(a.dtype, np.floating):
            return a.dtype
    return np.dtype("float32")
