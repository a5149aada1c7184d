"""Exactly-once delivery of ordered `io_callback` effects: the regression tests the issue asks for.

- `jaxcb_io.log_steps` over 10**4 steps, eagerly, under `jax.jit`, inside a jitted outer
  loop (100 loop iterations of 100 steps), and as a jitted call made 100 times: every
  step arrives once, in order: 0 lost, 0 duplicated, 0 reordered.
- 8 threads x 1000 jitted calls into one locked host log: every record exactly once,
  each call's steps in order.
- A host exception fails that call (a `JaxRuntimeError` carrying the host's message),
  and the next call and the next ordered effect work.
"""

from __future__ import annotations

import threading
from collections import Counter

import jax
import numpy as np
import pytest
from jax import lax

import jaxcb_io
from jaxcb_core.catalog import by_name

STEPS = 10**4
INNER = 100  # steps per call when the 10**4 steps are split over 100 calls


class Log:
    """A host log that keeps every record (step, state), under a lock."""

    def __init__(self) -> None:
        self.records: list[tuple[int, np.ndarray]] = []
        self._lock = threading.Lock()

    def __call__(self, k: np.ndarray, x: np.ndarray) -> None:
        with self._lock:
            self.records.append((int(k), np.array(x)))  # a copy: the host gets a view


def expected_states(x0: np.ndarray, steps: int) -> np.ndarray:
    """The states after steps 1..steps, from the catalog's records (float64, then cast)."""
    records = by_name("log_steps").records
    assert records is not None
    return np.stack([x for _, x in records(x0, steps)])


def assert_exactly_once(log: Log, steps: list[int], x0: np.ndarray) -> None:
    got = [k for k, _ in log.records]
    assert len(got) == len(steps)  # nothing lost, nothing duplicated
    assert got == steps  # and nothing reordered
    states = np.stack([x for _, x in log.records])
    tol = by_name("log_steps").tolerance(np.float32)
    np.testing.assert_allclose(states, expected_states(x0, len(steps)), *tol)


@pytest.fixture
def x0() -> np.ndarray:
    return np.linspace(-1.0, 1.0, 3).astype(np.float32)


def test_ordered_log_steps_eager(x0: np.ndarray, x32: None) -> None:
    log = Log()
    jaxcb_io.log_steps(x0, STEPS, log=log)
    jax.effects_barrier()
    assert_exactly_once(log, list(range(1, STEPS + 1)), x0)


def test_ordered_log_steps_jit(x0: np.ndarray, x32: None) -> None:
    log = Log()
    jax.jit(lambda x: jaxcb_io.log_steps(x, STEPS, log=log))(x0)
    jax.effects_barrier()
    assert_exactly_once(log, list(range(1, STEPS + 1)), x0)


def test_ordered_log_steps_in_a_jitted_outer_loop(x0: np.ndarray, x32: None) -> None:
    log = Log()

    def outer(x: jax.Array) -> jax.Array:
        return lax.fori_loop(
            0, STEPS // INNER, lambda i, x: jaxcb_io.log_steps(x, INNER, log=log), x
        )

    jax.jit(outer)(x0)
    jax.effects_barrier()
    assert_exactly_once(log, list(range(1, INNER + 1)) * (STEPS // INNER), x0)


def test_ordered_log_steps_jitted_call_made_100_times(x0: np.ndarray, x32: None) -> None:
    log = Log()
    f = jax.jit(lambda x: jaxcb_io.log_steps(x, INNER, log=log))
    x = x0
    for _ in range(STEPS // INNER):
        x = f(x)
    jax.effects_barrier()
    assert_exactly_once(log, list(range(1, INNER + 1)) * (STEPS // INNER), x0)


THREADS, CALLS = 8, 1000


def test_threads_share_one_locked_log(x32: None) -> None:
    """Each call's x0 encodes (thread, call), so every record says where it came from."""
    log = Log()
    f = jax.jit(lambda x: jaxcb_io.log_steps(x, 1, log=log))  # ordered=True, one step a call
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for i in range(CALLS):
                f(np.array([t, i], np.float32))
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    jax.effects_barrier()
    assert errors == []
    assert {k for k, _ in log.records} == {1}
    # x_1 = x0 / 2 + 1, exact in float32 for these integers: x0 = 2 * (x_1 - 1)
    seen = Counter(tuple(int(v) for v in 2 * (x - 1)) for _, x in log.records)
    assert len(log.records) == THREADS * CALLS
    assert set(seen.values()) == {1}  # every record exactly once
    assert set(seen) == {(t, i) for t in range(THREADS) for i in range(CALLS)}


def test_host_exception_fails_the_call_and_the_next_ones_work(
    x0: np.ndarray, x32: None, capfd: pytest.CaptureFixture[str]
) -> None:
    log = Log()
    calls = 0

    def failing(k: np.ndarray, x: np.ndarray) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuntimeError("the host log failed at step 2")
        log(k, x)

    with pytest.raises(jax.errors.JaxRuntimeError, match="the host log failed at step 2"):
        jax.block_until_ready(jaxcb_io.log_steps(x0, 4, log=failing))
    assert [k for k, _ in log.records] == [1]  # the failed call stopped at its failing step
    log.records.clear()
    jaxcb_io.log_steps(x0, 4, log=failing)  # the next call of the same compiled loop
    jax.effects_barrier()
    assert_exactly_once(log, [1, 2, 3, 4], x0)
    rng, twin = np.random.default_rng(3), np.random.default_rng(3)
    draw = jaxcb_io.host_draw((4,), rng=rng)  # the next ordered effect of another kind
    np.testing.assert_array_equal(draw, twin.standard_normal(4).astype(np.float32))
    capfd.readouterr()  # JAX logs the host traceback to stderr
