"""The performance page's plots: SVG drawn by matplotlib at build time, one per question.

- ``<device>-calls.svg``: what one call costs, per mechanism (no-op, minimal form,
  pattern) at one element;
- ``<device>-sizes.svg``: time per call against n, log-log, one line per mechanism
  family (its first pattern), with the NumPy floor and native JAX;
- ``<device>-vmap.svg``: every batching variant against the batch size.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from jaxcb_core.bench import Device

ASSETS = "assets/bench"
_COLORS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#bcbd22", "#393b79", "#ad494a", "#637939",
)  # fmt: skip


def _figure(ncols: int = 1, nrows: int = 1, size: tuple[float, float] = (7.5, 4.6)) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, facecolor="white", layout="constrained")
    return fig, fig.subplots(nrows, ncols, squeeze=False)


def _svg(fig: Any) -> bytes:
    import matplotlib

    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "jaxcb-bench", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def _mechanisms(d: Device) -> list[str]:
    """Mechanisms with a pattern, in column order: one color each, in every plot."""
    return list(dict.fromkeys(v.mechanism for v in d.of_form("pattern", role="pattern")))


def _color(d: Device, mechanism: str) -> str:
    mechs = _mechanisms(d)
    return _COLORS[mechs.index(mechanism) % len(_COLORS)] if mechanism in mechs else "0.4"


def plot_calls(d: Device) -> bytes:
    """Horizontal bars: no-op, minimal form and first pattern of each mechanism, n = 1."""
    comp, n = "sin_scale", 1
    rows: list[tuple[str, float, str]] = []
    base = [v for v in d.of_form("noop") if v.role == "native"]
    for v in base:
        if (t := d.t("calls", comp, v.id, n)) is not None:
            rows.append((v.label, t, "0.5"))
    for mech in _mechanisms(d):
        forms = [v for v in d.of_form("noop", "call", "send") if v.mechanism == mech]
        first = next((v for v in d.of_form("pattern", role="pattern") if v.mechanism == mech), None)
        for v in [*forms, *([first] if first else [])]:
            if (t := d.t("calls", comp, v.id, n)) is not None:
                rows.append((v.label, t, _color(d, mech)))
    fig, axes = _figure(size=(7.5, 0.32 * len(rows) + 1.4))
    ax = axes[0][0]
    labels, times, colors = zip(*rows, strict=True) if rows else ((), (), ())
    ax.barh(range(len(rows)), [t * 1e6 for t in times], color=colors)
    ax.set_yticks(range(len(rows)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("µs per jitted call (median), one float32 element")
    ax.grid(True, axis="x", which="both", alpha=0.3)
    fig.suptitle(f"What one call costs — {d.title}", fontsize=10)
    return _svg(fig)


def plot_sizes(d: Device) -> bytes:
    comp = "sin_scale"
    sizes = d.sizes("calls", comp)
    floor = {n: d.t("calls", comp, "floor/numpy", n) for n in sizes}
    lines = [
        ("floor/numpy", "black", "--"),
        *[
            (v.id, "0.5", "-" if v.mechanism == "native" else ":")  # compute_on dotted
            for v in d.variants.values()
            if v.role == "native" and v.form == "pattern"
        ],
    ]
    for mech in _mechanisms(d):
        first = next(v for v in d.of_form("pattern", role="pattern") if v.mechanism == mech)
        lines.append((first.id, _color(d, mech), "-"))
    fig, axes = _figure(2, 1, size=(10.0, 5.0))
    left, right = axes[0]
    for vid, color, style in lines:
        pts = [(n, r) for n in sizes if (r := d.get("calls", comp, vid, n)) is not None]
        if not pts:
            continue
        ns = [n for n, _ in pts]
        left.plot(
            ns,
            [r.median_s for _, r in pts],
            color=color,
            linestyle=style,
            marker="o",
            markersize=3,
            label=d.label(vid),
        )
        ratio = [(n, r.median_s / f) for n, r in pts if (f := floor.get(n))]
        right.plot(
            [n for n, _ in ratio],
            [x for _, x in ratio],
            color=color,
            linestyle=style,
            marker="o",
            markersize=3,
        )
    for ax, ylabel in ((left, "time per call (s), median"), (right, "time ÷ NumPy floor")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("n (float32 elements)")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="major", alpha=0.3)
    fig.legend(loc="outside lower center", ncols=3, fontsize=8)
    fig.suptitle(
        f"sin_scale(x, y): time against n, one line per mechanism — {d.title}", fontsize=10
    )
    return _svg(fig)


def plot_vmap(d: Device) -> bytes:
    comps = d.computations("vmap")
    ncols = 2
    nrows = max(1, -(-len(comps) // ncols))
    fig, axes = _figure(ncols, nrows, size=(10.0, 3.2 * nrows + 1.0))
    styles = ("-", "--", ":", "-.")
    for i, comp in enumerate(comps):
        ax = axes[i // ncols][i % ncols]
        batches = d.sizes("vmap", comp)
        seen: dict[str, int] = {}
        for vid in d.columns("vmap", comp):
            v = d.variants[vid]
            pts = [(b, t) for b in batches if (t := d.t("vmap", comp, vid, b))]
            if not pts:
                continue
            k = seen[v.mechanism] = seen.get(v.mechanism, -1) + 1
            color = "black" if v.role == "floor" else _color(d, v.mechanism)
            ax.plot(
                [b for b, _ in pts],
                [t for _, t in pts],
                color=color,
                linestyle=styles[k % 4],
                marker="o",
                markersize=3,
                label=d.label(vid),
            )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(batches, [str(b) for b in batches])
        ax.minorticks_off()
        ax.set_title(comp, fontsize=10)
        ax.set_xlabel("batch")
        ax.set_ylabel("time per batch (s)")
        ax.grid(True, alpha=0.3)
    for j in range(len(comps), nrows * ncols):
        axes[j // ncols][j % ncols].set_visible(False)
    handles: dict[str, Any] = {}
    for ax in axes.flat:
        for h, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, h)
    fig.legend(
        list(handles.values()), list(handles), loc="outside lower center", ncols=3, fontsize=7
    )
    fig.suptitle(f"vmap: every batching variant against batch size — {d.title}", fontsize=10)
    return _svg(fig)


PLOTS: dict[str, Callable[[Device], bytes]] = {
    "calls": plot_calls,
    "sizes": plot_sizes,
    "vmap": plot_vmap,
}


def render(devices: list[Device]) -> dict[str, bytes]:
    """``{site path: SVG}`` for every device."""
    return {f"{ASSETS}/{d.stem}-{name}.svg": fn(d) for d in devices for name, fn in PLOTS.items()}
