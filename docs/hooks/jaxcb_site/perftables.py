"""The performance page's measurement tables: one call at one element, every computation
and size, the size sweep, vmap, loops, gradients, eager calls and the source texts' code,
each per device file, with the plots beside them (``plots.py``)."""

from __future__ import annotations

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


def _headline(d: Device) -> str:
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
        rows.append([d.label(vid), cell(r), ratio, calls])
    return (
        f"![What one call costs, per mechanism]({plots.ASSETS}/{d.stem}-calls.svg){{ loading=lazy }}\n\n"
        + table(["sin_scale, 1 element", "time per call", "÷ NumPy floor", "host calls"], rows)
    )


def sec_headline() -> str:
    """What one call costs at one element (sin_scale), every column, with its plot, per device file."""
    return per_device(_headline)


def _calls(d: Device) -> str:
    cols = d.columns("calls")
    rows = []
    ratio_rows = []
    for comp in d.computations("calls"):
        for n in d.sizes("calls", comp):
            label = f"{comp} · {fmt_size(comp, n)}"
            rows.append([label, *[cell(d.get("calls", comp, v, n)) for v in cols]])
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
    labels = [d.label(v) for v in cols]
    return (
        "Median time per jitted call (hover a cell for the IQR, rounds and host calls):\n\n"
        + table(["computation · n", *labels], rows)
        + "\n\nThe same ÷ the NumPy floor on the same data:\n\n"
        + table(["computation · n", *labels], ratio_rows)
    )


def sec_calls() -> str:
    """Time per call of every pattern and minimal form, per computation and size."""
    return per_device(_calls)


def _sizes(d: Device) -> str:
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
                d.label(v),
                fmt_time(t[0]),
                fmt_crossover(analysis.fixed_cost_crossover(sizes, t), sizes),
                fmt_crossover(analysis.crossover(sizes, t, floor), sizes),
            ]
        )
    return (
        f"![sin_scale: time per call against n, log-log]({plots.ASSETS}/{d.stem}-sizes.svg){{ loading=lazy }}\n\n"
        "**Crossovers**, interpolated log-log between the measured sizes. *Fixed cost "
        f"stops dominating*: the size from which a call takes at least {CROSSOVER:g}× its "
        "one-element time, so that the fixed per-call overhead is at most half of it. "
        f"*≤ {CROSSOVER:g}× floor*: the size from which a call costs at most "
        f"{CROSSOVER:g}× the NumPy floor on the same data.\n\n"
        + table(
            [
                "sin_scale",
                "time at n = 1",
                "fixed cost stops dominating at n",
                f"≤ {CROSSOVER:g}× floor from n",
            ],
            rows,
        )
    )


def sec_sizes() -> str:
    """sin_scale against input size: each column's time as a multiple of the NumPy floor."""
    return per_device(_sizes)


def _vmap(d: Device) -> str:
    parts = [
        f"![vmap: time per batch against batch size]({plots.ASSETS}/{d.stem}-vmap.svg){{ loading=lazy }}"
    ]
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
                    else cell(r) + ("" if r.host_calls is None else f" · {r.host_calls}")
                )
            rows.append(row)
        parts.append(
            f"**{comp}** — time per batch · host calls per batch:\n\n"
            + table(["batch", *[d.label(v) for v in cols]], rows)
        )
    return "\n\n".join(parts)


def sec_vmap() -> str:
    """Time per batch against batch size under ``jax.vmap`` (plot and tables)."""
    return per_device(_vmap)


def _loops(d: Device) -> str:
    rows = []
    for r in analysis.loop_steps(d):
        res = d.get("loops", r["computation"], r["variant"], r["steps"])
        rows.append(
            [
                f"{r['computation']} · {r['steps']:,} steps",
                d.label(r["variant"]),
                "–" if r["host_calls"] is None else f"{r['host_calls']:,}",
                cell(res),
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
    head = (
        f"The native scan takes {cell(base)}; every other row, minus that, ÷ its steps:\n\n"
        if base
        else ""
    )
    return head + table(
        ["loop", "variant", "host calls", "time per loop", "added per step", "÷ native scan"], rows
    )


def sec_loops() -> str:
    """Host calls and time per step inside ``lax.scan`` loops."""
    return per_device(_loops)


def _grad(d: Device) -> str:
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
                        d.label(v),
                        cell(r),
                        fmt_ratio(r.median_s / native) if native else "–",
                        "–" if r.host_calls is None else str(r.host_calls),
                    ]
                )
    return table(["case", "variant", "time", "÷ native", "host calls"], rows)


def sec_grad() -> str:
    """Time of ``jax.grad`` through each pattern, beside native JAX."""
    return per_device(_grad)


def _eager(d: Device) -> str:
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
                        d.label(v),
                        cell(r),
                        cell(j),
                        fmt_ratio(r.median_s / j.median_s) if j else "–",
                        "–" if r.host_calls is None else str(r.host_calls),
                    ]
                )
    return table(
        ["computation", "variant", "eager call", "jitted call", "eager ÷ jitted", "host calls"],
        rows,
    )


def sec_eager() -> str:
    """Eager (un-jitted) calls: time per call without ``jax.jit``."""
    return per_device(_eager)


def _seeds(d: Device) -> str:
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
                            f"{comp} · {suite} {fmt_size(comp, n)}",
                            seed.label,
                            cell(s),
                            cell(p),
                            fmt_ratio(s.median_s / p.median_s),
                            f"{s.host_calls} / {p.host_calls}",
                        ]
                    )
    return table(
        [
            "case",
            "source text",
            "its code",
            "jaxcb pattern",
            "its code ÷ pattern",
            "host calls (its / pattern)",
        ],
        rows,
    )


def sec_seeds() -> str:
    """The popular texts' code beside the pattern of the same mechanism."""
    return per_device(_seeds)
