# A host function raising KeyError inside pure_callback, under jit and eagerly.
# The caller gets JAX's runtime error instead, with no KeyError attached: `except KeyError`
# never runs.
import jax
import jax.numpy as jnp


def host(x):
    raise KeyError("missing entry")


def f(x):
    return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


for name, g in (("jit", jax.jit(f)), ("eager", f)):
    try:
        jax.block_until_ready(g(jnp.ones(3)))
    except KeyError:
        print(f"{name}:", "KeyError")
    except Exception as e:
        print(f"{name}:", type(e).__name__)
        print(f"{name} keeps keyerror:", isinstance(e.__cause__ or e.__context__, KeyError))
