"""jaxcb_colocated: the five pure computations and log_steps, run next to the devices.

Results are checked against the catalog's reference, eagerly (``colocated_python`` takes
concrete arrays only); what every transform does is in the support matrix, and the tests
here pin the contract the modules state: the error under a tracing transform (the
package's own; what ``colocated_python`` raises without it is on the other-roads page), the copy of
``log`` the host receives, and the error on a JAX without ``colocated_python``.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pkg_support import PURE, assert_close

import jaxcb_colocated
from jaxcb_colocated import computations
from jaxcb_core.catalog import by_name

NAMES = PURE  # every pure computation of the catalog
TRACED = (
    "{fn}: {name} must be a concrete array, got a traced array: colocated_python runs "
    "outside jit, grad, vmap and every other transform that traces"
)


@pytest.mark.parametrize("name", NAMES)
def test_eager_matches_reference(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    out = getattr(jaxcb_colocated, name)(*args)
    assert_close(out, c.reference(*args), c.tolerance(dtype), dtype)


@pytest.mark.parametrize("dtype", [jnp.float16, jnp.bfloat16])
def test_half_precision_is_computed_in_float32_and_returned_in_its_own_dtype(dtype: Any) -> None:
    x = jnp.linspace(-1.0, 1.0, 5, dtype=dtype)
    out = jaxcb_colocated.sin_scale(x, 2.0)
    assert out.dtype == dtype
    want = (np.sin(np.asarray(x, np.float32)) * 2 + 1).astype(dtype)
    np.testing.assert_array_equal(np.asarray(out), want)


@pytest.mark.parametrize("transform", [jax.jit, jax.vmap, jax.grad, jax.checkpoint])
def test_a_tracing_transform_raises_before_the_host_runs(transform: Any) -> None:
    def f(x: jax.Array) -> jax.Array:
        return jaxcb_colocated.sin_scale(x, 2.0).sum()

    with pytest.raises(TypeError) as info:
        transform(f)(jnp.ones(3))
    assert str(info.value) == TRACED.format(fn="sin_scale", name="x")


def test_log_steps_logs_every_step_once_in_order(tmp_path: Path) -> None:
    path = tmp_path / "log.txt"

    def log(k: np.ndarray, x: np.ndarray) -> None:  # a file: the same on any host
        with open(path, "a") as f:
            f.write(f"{int(k)} {x.tolist()}\n")

    out = jaxcb_colocated.log_steps(jnp.zeros(2, jnp.float32), 3, log=log)
    assert path.read_text().splitlines() == ["1 [1.0, 1.0]", "2 [1.5, 1.5]", "3 [1.75, 1.75]"]
    np.testing.assert_array_equal(np.asarray(out), [1.75, 1.75])


def test_log_steps_runs_a_copy_of_log() -> None:
    seen: list[int] = []
    out = jaxcb_colocated.log_steps(jnp.zeros(2), 3, log=lambda k, x: seen.append(int(k)))
    assert seen == []  # the host appended to the copy's list
    np.testing.assert_array_equal(np.asarray(out), [1.75, 1.75])


def test_log_steps_default_logs_to_the_package_logger(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="jaxcb_colocated"):
        jaxcb_colocated.log_steps(jnp.zeros(1, jnp.float32), 2)
    assert [r.getMessage() for r in caplog.records] == ["step 1: [1.]", "step 2: [1.5]"]


def test_log_steps_with_no_steps_returns_x0_and_logs_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="jaxcb_colocated"):
        out = jaxcb_colocated.log_steps(jnp.arange(3.0), 0)
    assert caplog.records == []
    np.testing.assert_array_equal(np.asarray(out), [0.0, 1.0, 2.0])


def test_log_steps_under_jit_raises() -> None:
    with pytest.raises(TypeError) as info:
        jax.jit(lambda x: jaxcb_colocated.log_steps(x, 2))(jnp.zeros(2))
    assert str(info.value) == TRACED.format(fn="log_steps", name="x0")


def test_a_jax_without_colocated_python_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(computations, "colocated_python", None)
    missing = computations.near_devices(lambda x: x)
    message = (
        f"jax.experimental.colocated_python is not in JAX {jax.__version__}: "
        "upgrade JAX to use jaxcb_colocated"
    )
    with pytest.raises(NotImplementedError) as info:
        missing(jnp.ones(2))
    assert str(info.value) == message
