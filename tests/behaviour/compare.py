"""Other projects' answers to the site's questions, measured beside its own (group
``compare``): equinox's ``error_if`` beside ``jax.experimental.checkify``, a check that
fails inside compiled code, in five places.

They run where the ``compare`` dependency group is installed (the py312 and py313 envs,
JAX 0.12.0.1, pinned versions): the observations exist for that JAX only, and a fact names
the package and version each one measured.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from collections.abc import Callable
from typing import Any

from harness import Outcome, scenario

MESSAGE = "jaxcb: negative input"
CONTEXTS = ("eager", "jit", "filter_jit", "vmap", "grad")


def _caught(run: Callable[[str, Any], Any], context: str, x: Any) -> tuple[str, bool]:
    """What the caller of ``run(context, x)`` catches (its type, or ``nothing raised``),
    and whether the check's message is in it."""
    import jax

    try:
        jax.block_until_ready(run(context, x))
    except Exception as e:  # what the caller sees is the result
        return type(e).__name__, MESSAGE in str(e)
    return "nothing raised", False


def _wrap(context: str, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    import equinox as eqx
    import jax

    return {
        "eager": lambda: f,
        "jit": lambda: jax.jit(f),
        "filter_jit": lambda: eqx.filter_jit(f),
        "vmap": lambda: jax.vmap(f),
        "grad": lambda: jax.grad(lambda x: f(x).sum()),
    }[context]()


def _inputs(context: str) -> tuple[Any, Any]:
    """(failing, passing) arguments; under vmap one batch member fails."""
    import jax.numpy as jnp

    bad, good = jnp.array([-1.0, 4.0]), jnp.array([1.0, 4.0])
    if context == "vmap":
        return jnp.stack([good, bad]), jnp.stack([good, good])
    return bad, good


def _measure(run: Callable[[str, Any], Any], package: str) -> Outcome:
    """Per context, what the caller catches when the check fails; whether the message
    reached the caller everywhere; whether a passing input raised nowhere."""
    out: Outcome = {"package": f"{package} {importlib.metadata.version(package)}"}
    kept, passes = [], []
    for context in CONTEXTS:
        bad, good = _inputs(context)
        out[context], message = _caught(run, context, bad)
        kept.append(message)
        passes.append(_caught(run, context, good)[0] == "nothing raised")
    out["message_kept_everywhere"] = all(kept)
    out["good_input_passes_everywhere"] = all(passes)
    return out


def equinox_error_if() -> Outcome:
    import equinox as eqx
    import jax.numpy as jnp

    def f(x: Any) -> Any:
        x = eqx.error_if(x, x < 0, MESSAGE)
        return jnp.sqrt(x)

    return _measure(lambda context, x: _wrap(context, f)(x), "equinox")


def checkify_check() -> Outcome:
    import jax.numpy as jnp
    from jax.experimental import checkify

    def f(x: Any) -> Any:
        checkify.check(jnp.all(x >= 0), MESSAGE)
        return jnp.sqrt(x)

    def run(context: str, x: Any) -> Any:
        err, out = checkify.checkify(_wrap(context, f))(x)
        err.throw()
        return out

    return _measure(run, "jax")


if importlib.util.find_spec("equinox") is not None:
    scenario("compare", "error_if/equinox", "equinox.error_if(x, x < 0, msg)")(equinox_error_if)
    scenario("compare", "error_if/checkify", "checkify.check(all(x >= 0), msg)")(checkify_check)
