"""The performance page's measurement tables: one call at one element, every computation
and size, the size sweep, vmap, loops, gradients, eager calls and the source texts' code,
each per device file, with the plots beside them (``plots.py``)."""

from __future__ import annotations

import functools

from jaxcb_core import bench as analysis
from jaxcb_core.bench import CROSSOVER, Device

from . import plots
from .perfformat import (
    cell,
    fmt_count,
    fmt_crossover,
    fmt_ratio,
    fmt_size,
    fmt_time,
    per_device,
    table,
)
from .perfwords import head, say
from .perfwords import label as in_words


def _headline(d: Device, lang: str = "en") -> str:
    """Per-call cost at one element, every column, with the plot."""
    comp, n = "sin_scale", 1
    floor = d.t("calls", comp, "floor/numpy", n)
    rows = []
    for vid in d.columns("calls", comp):
        r = d.get("calls", comp, vid, n)
        if r is None:
            continue
        ratio = "–" if vid == "floor/numpy" or floor is None else fmt_ratio(r.median_s / floor)
        calls = "–" if r.host_calls is None else str(r.host_calls)
        rows.append([in_words(lang, d.label(vid)), cell(r, lang), ratio, calls])
    return (
        f"![{say(lang, 'headline-alt')}]({plots.ASSETS}/{d.stem}-calls.svg){{ loading=lazy }}\n\n"
        + table(head(lang, "headline-head"), rows)
    )


def sec_headline(lang: str = "en") -> str:
    """What one call costs at one element (sin_scale), every column, with its plot, per device file."""
    return per_device(functools.partial(_headline, lang=lang), lang=lang)


def _calls(d: Device, lang: str = "en") -> str:
    cols = d.columns("calls")
    rows = []
    ratio_rows = []
    for comp in d.computations("calls"):
        for n in d.sizes("calls", comp):
            label = f"{comp} · {fmt_size(comp, n)}"
            rows.append([label, *[cell(d.get("calls", comp, v, n), lang) for v in cols]])
            floor = d.t("calls", comp, "floor/numpy", n)
            ratio_rows.append(
                [
                    label,
                    *[
                        fmt_ratio(t / floor) if (t := d.t("calls", comp, v, n)) and floor else "–"
                        for v in cols
                    ],
                ]
            )
    labels = [in_words(lang, d.label(v)) for v in cols]
    return (
        f"{say(lang, 'calls-median')}\n\n"
        + table([say(lang, "calls-head"), *labels], rows)
        + f"\n\n{say(lang, 'calls-ratio')}\n\n"
        + table([say(lang, "calls-head"), *labels], ratio_rows)
    )


def sec_calls(lang: str = "en") -> str:
    """Time per call of every pattern and minimal form, per computation and size."""
    return per_device(functools.partial(_calls, lang=lang), lang=lang)


def _sizes(d: Device, lang: str = "en") -> str:
    comp = "sin_scale"
    sizes = d.sizes("calls", comp)
    cols = [v for v in d.columns("calls", comp) if all(d.get("calls", comp, v, n) for n in sizes)]
    floor = [d.t("calls", comp, "floor/numpy", n) or 0.0 for n in sizes]
    rows = []
    for v in cols:
        if d.variants[v].role == "floor":
            continue
        t = [d.t("calls", comp, v, n) or 0.0 for n in sizes]
        rows.append(
            [
                in_words(lang, d.label(v)),
                fmt_time(t[0]),
                fmt_crossover(analysis.fixed_cost_crossover(sizes, t), sizes, lang),
                fmt_crossover(analysis.crossover(sizes, t, floor), sizes, lang),
            ]
        )
    return (
        f"![{say(lang, 'sizes-alt')}]({plots.ASSETS}/{d.stem}-sizes.svg){{ loading=lazy }}\n\n"
        f"{say(lang, 'sizes-text', x=CROSSOVER)}\n\n"
        + table(head(lang, "sizes-head", x=CROSSOVER), rows)
    )


def sec_sizes(lang: str = "en") -> str:
    """sin_scale against input size: each column's time as a multiple of the NumPy floor."""
    return per_device(functools.partial(_sizes, lang=lang), lang=lang)


def _vmap(d: Device, lang: str = "en") -> str:
    parts = [f"![{say(lang, 'vmap-alt')}]({plots.ASSETS}/{d.stem}-vmap.svg){{ loading=lazy }}"]
    for comp in d.computations("vmap"):
        cols = d.columns("vmap", comp)
        rows = []
        for b in d.sizes("vmap", comp):
            row = [fmt_count(b)]
            for v in cols:
                r = d.get("vmap", comp, v, b)
                row.append(
                    "–"
                    if r is None
                    else cell(r, lang) + ("" if r.host_calls is None else f" · {r.host_calls}")
                )
            rows.append(row)
        parts.append(
            f"{say(lang, 'vmap-title', comp=comp)}\n\n"
            + table([say(lang, "vmap-head"), *[in_words(lang, d.label(v)) for v in cols]], rows)
        )
    return "\n\n".join(parts)


def sec_vmap(lang: str = "en") -> str:
    """Time per batch against batch size under ``jax.vmap`` (plot and tables)."""
    return per_device(functools.partial(_vmap, lang=lang), lang=lang)


def _loops(d: Device, lang: str = "en") -> str:
    rows = []
    for r in analysis.loop_steps(d):
        res = d.get("loops", r["computation"], r["variant"], r["steps"])
        rows.append(
            [
                say(lang, "loops-row", comp=r["computation"], steps=r["steps"]),
                in_words(lang, d.label(r["variant"])),
                "–" if r["host_calls"] is None else f"{r['host_calls']:,}",
                cell(res, lang),
                "–" if r["per_step_s"] is None else fmt_time(max(r["per_step_s"], 0.0)),
                "–" if r["vs_native"] is None else fmt_ratio(r["vs_native"]),
            ]
        )
    scan = d.of_form("scan")
    base = next(
        (
            d.get("loops", c, s.id, n)
            for s in scan
            for c in d.computations("loops")
            for n in d.sizes("loops", c)
            if d.get("loops", c, s.id, n)
        ),
        None,
    )
    text = f"{say(lang, 'loops-text', base=cell(base, lang))}\n\n" if base else ""
    return text + table(head(lang, "loops-head"), rows)


def sec_loops(lang: str = "en") -> str:
    """Host calls and time per step inside ``lax.scan`` loops."""
    return per_device(functools.partial(_loops, lang=lang), lang=lang)


def _grad(d: Device, lang: str = "en") -> str:
    rows = []
    for comp in d.computations("grad"):
        for n in d.sizes("grad", comp):
            native = next(
                (
                    d.t("grad", comp, v.id, n)
                    for v in d.variants.values()
                    if v.role == "native" and d.get("grad", comp, v.id, n)
                ),
                None,
            )
            for v in d.columns("grad", comp):
                r = d.get("grad", comp, v, n)
                if r is None:
                    continue
                rows.append(
                    [
                        f"grad {comp} · {fmt_size(comp, n)}",
                        in_words(lang, d.label(v)),
                        cell(r, lang),
                        fmt_ratio(r.median_s / native) if native else "–",
                        "–" if r.host_calls is None else str(r.host_calls),
                    ]
                )
    return table(head(lang, "grad-head"), rows)


def sec_grad(lang: str = "en") -> str:
    """Time of ``jax.grad`` through each pattern, beside native JAX."""
    return per_device(functools.partial(_grad, lang=lang), lang=lang)


def _eager(d: Device, lang: str = "en") -> str:
    rows = []
    for comp in d.computations("eager"):
        for n in d.sizes("eager", comp):
            for v in d.columns("eager", comp):
                meta = d.variants[v]
                if meta.form == "jitted":
                    continue
                r = d.get("eager", comp, v, n)
                j = next(
                    (
                        d.get("eager", comp, w.id, n)
                        for w in d.variants.values()
                        if w.of == v and w.form == "jitted"
                    ),
                    None,
                )
                if r is None:
                    continue
                rows.append(
                    [
                        comp,
                        in_words(lang, d.label(v)),
                        cell(r, lang),
                        cell(j, lang),
                        fmt_ratio(r.median_s / j.median_s) if j else "–",
                        "–" if r.host_calls is None else str(r.host_calls),
                    ]
                )
    return table(head(lang, "eager-head"), rows)


def sec_eager(lang: str = "en") -> str:
    """Eager (un-jitted) calls: time per call without ``jax.jit``."""
    return per_device(functools.partial(_eager, lang=lang), lang=lang)


def _seeds(d: Device, lang: str = "en") -> str:
    rows = []
    for seed in d.of_form("seed"):
        pattern = next(
            (v for v in d.of_form("pattern", role="pattern") if v.mechanism == seed.mechanism), None
        )
        if pattern is None:
            continue
        for suite in ("calls", "vmap", "grad"):
            for comp in d.computations(suite):
                for n in d.sizes(suite, comp):
                    s, p = d.get(suite, comp, seed.id, n), d.get(suite, comp, pattern.id, n)
                    if s is None or p is None:
                        continue
                    rows.append(
                        [
                            say(
                                lang,
                                "seeds-row",
                                comp=comp,
                                suite=say(lang, f"suite-{suite}"),
                                n=fmt_size(comp, n),
                            ),
                            seed.label,
                            cell(s, lang),
                            cell(p, lang),
                            fmt_ratio(s.median_s / p.median_s),
                            f"{s.host_calls} / {p.host_calls}",
                        ]
                    )
    return table(head(lang, "seeds-head"), rows)


def sec_seeds(lang: str = "en") -> str:
    """The popular texts' code beside the pattern of the same mechanism."""
    return per_device(functools.partial(_seeds, lang=lang), lang=lang)
