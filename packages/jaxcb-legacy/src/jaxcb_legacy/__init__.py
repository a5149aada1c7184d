"""jaxcb legacy: the removed host_callback APIs and pure_callback(vectorized=...), measured.

Registers matrix rows only on a JAX that still has ``jax.experimental.host_callback``
(JAX 0.4.30 in ``tox -e legacy``). Not patterns to copy: see jaxcb_pure, jaxcb_io, jaxcb_debug.
"""
