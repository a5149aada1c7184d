"""Logging metrics from inside a vmapped evaluation."""

import functools

import jax
import numpy as np
from jax.experimental import io_callback

records = []
emit = functools.partial(io_callback, ordered=True)
emit_any_order = functools.partial(io_callback, ordered=False)


def _record(i, value):
    records.append((int(i), np.asarray(value)))


def evaluate(i, x):
    loss = (x**2).sum()
    emit(_record, None, i, loss)  # expect: JXC012
    emit_any_order(_record, None, i, loss)
    return loss


def evaluate_all(xs):
    return jax.vmap(evaluate)(np.arange(len(xs)), xs)


def log_in_order(xs):
    for i, x in enumerate(xs):
        io_callback(_record, None, i, x, ordered=True)
