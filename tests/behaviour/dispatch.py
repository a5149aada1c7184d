"""Dispatch and ordering around callbacks, each in a fresh interpreter with a timeout.

- calling ``jax.numpy`` from inside a host callback, with asynchronous CPU dispatch on
  (the default) and off: does it finish or deadlock?
- ``jax.effects_barrier()`` against ``block_until_ready()``: after the result is ready,
  has the observer already run?
- ``jax.debug.print`` in a jitted loop, the process exiting right after: are lines lost
  without a barrier?
"""

from __future__ import annotations

import json

from harness import Outcome, bare, python, scenario

TIMEOUT = 60


def _inside(mechanism: str, form: str, async_dispatch: bool) -> Outcome:
    code = f"""
    import json, sys, numpy as np, jax, jax.numpy as jnp
    try:
        jax.config.update("jax_cpu_enable_async_dispatch", {async_dispatch!r})
    except AttributeError:
        print("JAXCB", json.dumps("this JAX has no jax_cpu_enable_async_dispatch"))
        sys.exit(0)
    from harness import bare
    impl = dict(bare({form!r}))[{mechanism!r}]
    def host(x):
        return np.asarray(jnp.sin(jnp.asarray(x)) + 1)  # JAX, from inside the callback
    x = np.linspace(0, 1, 8, dtype=np.float32)
    if {form!r} == "call":
        out = jax.jit(lambda x: impl(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x))(x)
    else:
        seen = []
        out = jax.jit(lambda x: (impl(lambda x: seen.append(host(x)), x), x)[1])(x)
    jax.block_until_ready(out)
    jax.effects_barrier()
    print("JAXCB", json.dumps("finished"))
    """
    r = python(code, timeout=TIMEOUT, paths=(_here(),))
    if r["returncode"] is None:
        return {"result": f"no answer within {TIMEOUT} s (deadlock)"}
    for line in r["stdout"].splitlines():
        if line.startswith("JAXCB "):
            return {"result": json.loads(line[6:])}
    last = (r["stderr"].strip().splitlines() or ["?"])[-1]
    return {"result": f"failed: {last.split(':')[0]}"}


def _barrier(mechanism: str) -> Outcome:
    code = f"""
    import json, numpy as np, jax
    from harness import bare
    send = dict(bare("send"))[{mechanism!r}]
    seen = []
    f = jax.jit(lambda x: (send(lambda x: seen.append(1), x, ordered=False), x * 2)[1])
    ready, trials = 0, 50
    for _ in range(trials):
        before = len(seen)
        f(np.float32(1.0)).block_until_ready()
        ready += len(seen) > before
    jax.effects_barrier()
    print("JAXCB", json.dumps({{"ran_by_block_until_ready": f"{{ready}} of {{trials}}",
                                "ran_by_effects_barrier": len(seen) == trials}}))
    """
    r = python(code, timeout=TIMEOUT, paths=(_here(),))
    for line in r["stdout"].splitlines():
        if line.startswith("JAXCB "):
            return dict(json.loads(line[6:]))
    return {"result": "failed" if r["returncode"] is not None else "timeout"}


def _prints_at_exit(barrier: bool) -> Outcome:
    steps = 200
    code = f"""
    import jax, jax.numpy as jnp
    def step(c, k):
        jax.debug.print("line {{k}}", k=k)
        return c, None
    jax.jit(lambda: jax.lax.scan(step, 0, jnp.arange({steps}))[0])()
    {"jax.effects_barrier()" if barrier else ""}
    """
    r = python(code, timeout=TIMEOUT)
    printed = sum(line.startswith("line ") for line in r["stdout"].splitlines())
    return {"printed": printed, "expected": steps, "exit_code": r["returncode"]}


def _here() -> str:
    from pathlib import Path

    return str(Path(__file__).resolve().parent)


def _register() -> None:
    for form in ("call", "send"):
        taken = {m for m, _ in bare("call")} if form == "send" else set()
        for mechanism, _ in bare(form):
            if mechanism in taken:
                continue
            for mode in (True, False):
                what = "on" if mode else "off"
                scenario(
                    "dispatch",
                    f"jnp-inside/{mechanism}/async-{what}",
                    f"jax.numpy inside the host function of {mechanism}, async CPU dispatch {what}",
                )(lambda m=mechanism, f=form, a=mode: _inside(m, f, a))
    for mechanism, _ in bare("send"):
        scenario(
            "dispatch",
            f"barrier/{mechanism}",
            f"{mechanism}: block_until_ready against jax.effects_barrier",
        )(lambda m=mechanism: _barrier(m))
    for barrier in (False, True):
        what = "with" if barrier else "without"
        scenario(
            "dispatch",
            f"prints-at-exit/{what}-barrier",
            f"jax.debug.print in a jitted loop, the process exiting {what} jax.effects_barrier()",
        )(lambda b=barrier: _prints_at_exit(b))


_register()
