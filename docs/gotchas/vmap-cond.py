# jax.debug.callback in both branches of lax.cond, under vmap with a batched predicate.
# vmap turns the cond into a select: both branches run for every member, all True here.
import jax
import jax.numpy as jnp
from jax import lax

taken = []


def yes(x):
    jax.debug.callback(lambda x: taken.append("yes"), x)
    return x


def no(x):
    jax.debug.callback(lambda x: taken.append("no"), x)
    return -x


def f(p, x):
    return lax.cond(p, yes, no, x)


jax.vmap(f)(jnp.array([True, True, True, True]), jnp.arange(4.0))
jax.effects_barrier()
print("all true:", True)
print("yes calls:", taken.count("yes"))
print("no calls:", taken.count("no"))
