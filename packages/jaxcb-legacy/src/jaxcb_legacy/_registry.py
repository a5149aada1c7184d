"""Legacy rows of the matrix: host_callback's where the installed JAX has the module (JAX
0.4.35 to 0.7 keep a stub whose functions raise: measured as such), the two old
pure_callback forms up to JAX 0.9 (their failure on a newer one is measured, not assumed)."""

from __future__ import annotations

import importlib
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the row type, for the type checker only: nothing of the harness is imported
    from jaxcb_core.mechanisms import VariantSpec


def _patterns() -> tuple[str, ...]:
    """The pattern modules beside this file, by name (a private ``_*`` module is none): a
    computation's module added to the package is in the rows with no edit here."""
    return tuple(sorted(p.stem for p in Path(__file__).parent.glob("[a-z]*.py")))  # no lib*.so


EFFECTS = ("log_steps", "progress", "host_draw")
PURE = tuple(n for n in _patterns() if n not in EFFECTS)
NOT_A_VALUE = "id_tap returns its argument unchanged: it observes values, it cannot compute one"
NOT_AN_EFFECT = "host_callback.call computes a value; the logging form is id_tap (its own row)"
PURE_ONLY = "the source texts use pure_callback for pure computations only"


def _has_host_callback() -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import jax.experimental.host_callback as hcb

            hcb.id_tap  # noqa: B018 (raises on JAX versions that keep only a stub)
    except (ImportError, AttributeError):
        return False
    return True


def variants() -> list[VariantSpec]:
    mods = {n: importlib.import_module(f"jaxcb_legacy.{n}") for n in (*PURE, *EFFECTS)}

    def row(
        id_: str,
        label: str,
        doc: str,
        order: int,
        impls: dict[str, Any],
        unsupported: dict[str, str],
    ) -> VariantSpec:
        return {
            "id": id_,
            "mechanism": id_.split("/")[0],
            "label": label,
            "doc": doc,
            "package": "jaxcb_legacy",
            "order": order,
            "implementations": impls,
            "modules": mods,
            "unsupported": unsupported,
            "probe": dict.fromkeys(impls, ("on_host",)),
        }

    rows = [
        row(
            "host_callback/call",
            "host_callback.call",
            "jax.experimental.host_callback.call: compute a value on the host (removed in JAX 0.4.35, per the JAX changelog).",
            80,
            {
                **{n: getattr(mods[n], f"{n}_call") for n in PURE},
                "host_draw": mods["host_draw"].host_draw,
            },
            {"log_steps": NOT_AN_EFFECT, "progress": NOT_AN_EFFECT},
        ),
        row(
            "host_callback/id_tap",
            "host_callback.id_tap",
            "jax.experimental.host_callback.id_tap: tap values for logging (removed in JAX 0.4.35, per the JAX changelog).",
            81,
            {"log_steps": mods["log_steps"].log_steps, "progress": mods["progress"].progress},
            {**dict.fromkeys(PURE, NOT_A_VALUE), "host_draw": NOT_A_VALUE},
        ),
        row(
            "pure_callback/vectorized",
            "pure_callback, vectorized=True",
            "jax.pure_callback(..., vectorized=True), as JAX's early External callbacks guide wrote it; "
            "deprecated for vmap_method in JAX 0.4.35 (JAX changelog).",
            82,
            {n: getattr(mods[n], f"{n}_vectorized") for n in PURE},
            dict.fromkeys(EFFECTS, PURE_ONLY),
        ),
        row(
            "pure_callback/implicit_sequential",
            "pure_callback, old default",
            "jax.pure_callback without vectorized: the old implicit sequential vmap, as the Chinese "
            "pure_callback tutorial wrote it.",
            83,
            {n: getattr(mods[n], f"{n}_sequential") for n in PURE},
            dict.fromkeys(EFFECTS, PURE_ONLY),
        ),
    ]
    import jax

    if jax.__version_info__ >= (0, 10):
        # From JAX 0.10 pure_callback hands `vectorized=` on to the host function: its
        # TypeError comes back as a JaxRuntimeError outside the cell that made the call (on
        # 0.11.2 it stopped the matrix's worker pool), so the old forms are measured up to 0.9.
        rows = [r for r in rows if r["mechanism"] != "pure_callback"]
    if _has_host_callback():
        return rows
    return [r for r in rows if r["mechanism"] != "host_callback"]
