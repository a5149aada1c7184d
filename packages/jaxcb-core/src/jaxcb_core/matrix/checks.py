"""Checking what a case produced: results against the reference, effects against the
records the catalog says must arrive, and the text recorded for an exception.

NumPy only; the verdicts here are what the matrix cells record.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..catalog import Computation, Record
from ..schema import Effects

__all__ = [
    "assign",
    "draws",
    "effects",
    "first_line",
    "mismatch",
    "runs",
    "runs_problem",
    "split",
    "tolerance",
]


def tolerance(
    comp: Computation, dtype: Any, derivative: bool, transform: str
) -> tuple[float, float]:
    """``(rtol, atol)`` for one cell: the catalog's, looser for derivatives and Hessians."""
    rtol, atol = comp.tolerance(dtype)
    if derivative:
        rtol, atol = max(rtol * 20, 1e-4), max(atol * 20, 1e-5)
    if transform == "hessian":
        rtol, atol = max(rtol, 2e-3), max(atol, 2e-4)
    return rtol, atol


def _leaves(tree: Any) -> list[Any]:
    if isinstance(tree, (tuple, list)):
        return [leaf for t in tree for leaf in _leaves(t)]
    return [tree]


def mismatch(out: Any, expected: Any, rtol: float, atol: float) -> str | None:
    """Why ``out`` is not ``expected`` (same structure, shapes, values), or ``None``."""
    out_leaves, exp_leaves = _leaves(out), _leaves(expected)
    if len(out_leaves) != len(exp_leaves):
        return f"returned {len(out_leaves)} arrays, expected {len(exp_leaves)}"
    for i, (o, e) in enumerate(zip(out_leaves, exp_leaves, strict=True)):
        o, e = np.asarray(o, np.float64), np.asarray(e, np.float64)
        if o.shape != e.shape:
            return f"output {i}: shape {o.shape}, expected {e.shape}"
        if not np.allclose(o, e, rtol=rtol, atol=atol):
            err = np.max(np.abs(o - e))
            return f"output {i}: values differ from the reference (max abs error {err:.3g})"
    return None


def split(
    records: Sequence[tuple[Any, Any]], state_ndim: int | None = None
) -> list[tuple[int, np.ndarray | None]]:
    """One record per (step, element).

    A host function that receives a whole batch at once (a batched step ``k``, or a
    state with one more axis than a record's state, as ``id_tap`` under ``vmap``
    delivers) is split along that axis, so each element's record can be matched.
    """
    out: list[tuple[int, np.ndarray | None]] = []
    for k_in, x_in in records:
        k = np.asarray(k_in)
        x = None if x_in is None else np.asarray(x_in)
        if k.ndim:
            n = k.size
        elif x is not None and state_ndim is not None and x.ndim == state_ndim + 1:
            n = x.shape[0]
            k = np.broadcast_to(k, (n,))
        else:
            out.append((int(k), x))
            continue
        ks = k.reshape(-1)
        for i in range(n):
            out.append((int(ks[i]), None if x is None else x.reshape(n, *x.shape[k.ndim :])[i]))
    return out


def _verdict(expected: int, arrived: int, missing: int, extra: int, in_order: bool) -> str:
    if expected and not arrived:
        return "none"
    if missing:
        return "missing"
    if extra:
        return "duplicated"
    return "exact" if in_order else "reordered"


def assign(
    expected_groups: Sequence[Sequence[Record]],
    actual: Sequence[tuple[int, np.ndarray | None]],
    rtol: float,
    atol: float,
) -> list[int | None]:
    """For each arrived record, the index of the owed record it matches (counting through the
    groups in order), or ``None``: the first owed record not matched yet with the same step
    and, where the arrived record has a state, the same shape and values."""
    expected = [r for group in expected_groups for r in group]
    used = [False] * len(expected)
    out: list[int | None] = []
    for k, x in actual:
        for j, (ek, ex) in enumerate(expected):
            if used[j] or ek != k:
                continue
            if x is not None and (
                np.shape(x) != np.shape(ex) or not np.allclose(x, ex, rtol=rtol, atol=atol)
            ):
                continue
            used[j] = True
            out.append(j)
            break
        else:
            out.append(None)
    return out


def effects(
    expected_groups: Sequence[Sequence[Record]],
    actual: Sequence[tuple[int, np.ndarray | None]],
    rtol: float,
    atol: float,
) -> Effects:
    """Match arrived records to expected ones: each exactly once, in order within a call.

    A record without a state (``(step, None)``, as a printed line gives) matches on the
    step alone.
    """
    expected = [(g, r) for g, group in enumerate(expected_groups) for r in group]
    found = assign(expected_groups, actual, rtol, atol)
    matched = [j for j in found if j is not None]
    extra = found.count(None)
    missing = len(expected) - len(matched)
    in_order = True
    last: dict[int, int] = {}
    for j in matched:
        g = expected[j][0]
        if j < last.get(g, -1):
            in_order = False
        last[g] = j
    return Effects(
        expected=len(expected),
        arrived=len(actual),
        missing=missing,
        extra=extra,
        in_order=in_order,
        verdict=_verdict(len(expected), len(actual), missing, extra, in_order),  # type: ignore[arg-type]
    )


def draws(expected: int, drawn: int) -> Effects:
    """An impure input owes one draw per logical call; no order to check."""
    missing, extra = max(expected - drawn, 0), max(drawn - expected, 0)
    return Effects(
        expected=expected,
        arrived=drawn,
        missing=missing,
        extra=extra,
        in_order=True,
        verdict=_verdict(expected, drawn, missing, extra, True),  # type: ignore[arg-type]
    )


def runs(expected: int, ran: int) -> Effects:
    """A host effect owed once per execution: the host calls against the executions."""
    return draws(expected, ran)


def runs_problem(fx: Effects) -> str | None:
    """The cell's reason when an effect owed per execution ran too few or too many times."""
    if fx.verdict == "exact":
        return None
    return (
        f"effects: the host ran {fx.arrived} time(s) for {fx.expected} execution(s) "
        f"({fx.missing} missing, {fx.extra} extra)"
    )


def effects_problem(fx: Effects) -> str | None:
    """The cell's reason when the effects are not exact."""
    if fx.verdict == "exact":
        return None
    order = "" if fx.in_order else ", out of order"
    return (
        f"effects: {fx.arrived} of {fx.expected} host records arrived "
        f"({fx.missing} missing, {fx.extra} extra{order})"
    )


def first_line(e: BaseException) -> str:
    """The first line of an exception's message, without addresses or local paths."""
    text = str(e).strip() or repr(e)
    line = text.splitlines()[0]
    line = re.sub(r"0x[0-9a-fA-F]+", "0x…", line)
    line = re.sub(r"(/[\w.\-]+)+\.py", "….py", line)
    return line[:240]
