"""Legacy rows of the matrix: only where the installed JAX still has host_callback."""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the row type, for the type checker only: nothing of the harness is imported
    from jaxcb_core.mechanisms import VariantSpec

PURE = ("sin_scale", "sum_mean", "bessel_jv", "expm", "cubic_root")
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
    if not _has_host_callback():
        return []
    mods = {
        n: importlib.import_module(f"jaxcb_legacy.{n}")
        for n in (*PURE, "log_steps", "progress", "host_draw")
    }

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

    return [
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
            dict.fromkeys(("log_steps", "progress", "host_draw"), PURE_ONLY),
        ),
        row(
            "pure_callback/implicit_sequential",
            "pure_callback, old default",
            "jax.pure_callback without vectorized: the old implicit sequential vmap, as the Chinese "
            "pure_callback tutorial wrote it.",
            83,
            {n: getattr(mods[n], f"{n}_sequential") for n in PURE},
            dict.fromkeys(("log_steps", "progress", "host_draw"), PURE_ONLY),
        ),
    ]
