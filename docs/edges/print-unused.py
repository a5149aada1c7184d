# jax.debug.print given a value its format string does not use: by keyword, by position,
# and an f-string that already put the traced value into the text.
import jax

for name, f in (
    ("unused keyword", lambda x: jax.debug.print("x", x=x)),
    ("unused positional", lambda x: jax.debug.print("{}", x, x)),
    ("f string", lambda x: jax.debug.print(f"x = {x}", x=x)),
):
    try:
        jax.jit(lambda x, f=f: f(x) or x)(1.0)
        jax.effects_barrier()
        print(f"{name}:", "works")
    except Exception as e:
        print(f"{name}:", type(e).__name__)
        print(f"{name} says:", str(e).strip().split(": [")[0])  # the values it lists vary
        print(f"{name} mentions f strings:", "f-string" in str(e))
