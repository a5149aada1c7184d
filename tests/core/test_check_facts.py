"""The JAX behaviour `jaxcb check` rules state as seen, checked on the installed JAX.

The rule table (`jaxcb_check.checker.RULES`) cites what JAX does when code breaks the rule;
where a fact says "seen on" a version, it is run here and must still hold.
"""

from __future__ import annotations

import importlib
import re

import jax
import numpy as np
import pytest

from jaxcb_check.checker import RULE, VMAP_METHODS

VERSION = tuple(int(p) for p in re.findall(r"\d+", jax.__version__)[:3])
pytestmark = pytest.mark.skipif(
    VERSION < (0, 8, 0), reason=f"the facts are about JAX >= 0.8; this is {jax.__version__}"
)
OUT = jax.ShapeDtypeStruct((3,), np.float32)
X = np.ones(3, np.float32)


def test_jax_extend_ffi_is_gone() -> None:
    assert "ModuleNotFoundError" in RULE["JXC013"].facts[-1].text
    with pytest.raises(ModuleNotFoundError, match=r"No module named 'jax\.extend\.ffi'"):
        importlib.import_module("jax.extend.ffi")


def test_ffi_call_takes_no_operands() -> None:
    assert "takes 2 positional arguments but 3 were given" in RULE["JXC014"].facts[-1].text
    with pytest.raises(
        TypeError, match=r"ffi_call\(\) takes 2 positional arguments but 3 were given"
    ):
        jax.ffi.ffi_call("jaxcb_no_such_target", OUT, X)  # type: ignore[call-arg]


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_vmap_method_values(jit: bool) -> None:
    def call(method: str) -> object:
        def f(x: object) -> object:
            return jax.pure_callback(np.sin, OUT, x, vmap_method=method)

        return (jax.jit(f) if jit else f)(X)

    for method in VMAP_METHODS:
        call(method)  # accepted
    allowed = [*VMAP_METHODS, None]
    message = f"vmap_method must be on of the allowed methods {allowed}, but got: expand_dim"
    assert f"ValueError: {message.split(', but')[0]}" in RULE["JXC015"].facts[0].text
    with pytest.raises(ValueError, match="vmap_method must be on of the allowed") as info:
        call("expand_dim")
    assert str(info.value) == message
