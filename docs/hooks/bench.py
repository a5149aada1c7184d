"""mkdocs hook: the performance page, generated from ``docs/data/bench/*.json``.

``docs/performance.md`` holds the prose and placeholders ``<!-- bench:NAME -->``; this
hook replaces each placeholder with tables computed from the benchmark data files, and
adds the plots (SVG drawn by matplotlib at build time, no CDN) to the site as
generated files under ``assets/bench/``. No number on the page is typed by hand: the
tables, ratios, crossover sizes and target verdicts are all computed here.

Self-contained: the standard library, plus matplotlib for the plots (imported only
when the site is built). ``tests/bench/test_bench_data.py`` imports this file to check
that the page is derived from the committed data.

One data file per device (``cpu-<cpu model>.json``, ``gpu-<device kind>.json``), each
shown in its own content tab; a device class without a file gets a tab that says it
was not measured and how to measure it.
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

PAGE = "performance.md"
ASSETS = "assets/bench"
PLACEHOLDER = re.compile(r"^<!-- bench:([a-z-]+) -->[ \t]*$", re.MULTILINE)

# The ratios the project aims for (reported, not asserted).
PATTERN_TARGET = 1.1  # a pattern costs at most this much more than its mechanism's minimal form
VMAP_TARGET = 1.5  # vmap at the largest batch vs one unbatched call on the same data
CROSSOVER = 2.0  # overhead stops dominating where time <= CROSSOVER x the reference

NOT_MEASURED = (
    "**Not measured yet**: no GPU was available when these benchmarks last ran. On a "
    "machine with an NVIDIA GPU, run `tox -e bench-cuda12`, or `tests/bench/run_gpu.sh` "
    "(which imports the packages from source), and commit the "
    "`docs/data/bench/gpu-<device kind>.json` it writes: this tab then fills itself."
)
NO_DATA = (
    '!!! warning "No benchmark data"\n\n'
    "    `docs/data/bench/` holds no data file yet. Run `tox -e bench` and commit the "
    "JSON file it writes."
)

# pattern -> minimal form of the same mechanism (with the same options)
PAIRS = (
    ("pure_callback/default", "pure_callback/minimal"),
    ("pure_callback/no_rule", "pure_callback/minimal"),
    ("io_callback/unordered", "io_callback/minimal"),
    ("debug.callback/unordered", "debug.callback/minimal"),
)


# ---------------------------------------------------------------------------- data


def load(data_dir: Path) -> list[dict[str, Any]]:
    """Every device file, CPU first."""
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(data_dir.glob("*.json"))]
    for d in docs:
        for key in ("schema", "device", "environment", "variants", "results"):
            if key not in d:
                raise ValueError(f"bench data {d.get('device', '?')}: no {key!r}")
    return sorted(docs, key=lambda d: (d["environment"]["backend"] != "cpu", d["device"]))


class Device:
    """One data file, indexed."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.env = doc["environment"]
        self.stem = doc["device"]
        self.variants = {v["id"]: v for v in doc["variants"]}
        self.index = {
            (r["suite"], r["computation"], r["variant"], r["n"]): r for r in doc["results"]
        }

    @property
    def kind(self) -> str:
        return "CPU" if self.env["backend"] == "cpu" else "GPU"

    @property
    def title(self) -> str:
        name = self.env["processor"] if self.kind == "CPU" else self.env["device_kind"]
        return f"{self.kind} · {name}"

    def get(self, suite: str, comp: str, variant: str, n: int) -> dict[str, Any] | None:
        return self.index.get((suite, comp, variant, n))

    def t(self, suite: str, comp: str, variant: str, n: int) -> float | None:
        r = self.get(suite, comp, variant, n)
        return r["median_s"] if r else None

    def series(
        self, suite: str, comp: str, variants: tuple[str, ...]
    ) -> tuple[list[int], list[list[float]]] | None:
        """``(sizes, [medians of each variant])`` over the sizes all of them have."""
        sizes = [
            n for n in self.sizes(suite, comp) if all(self.get(suite, comp, v, n) for v in variants)
        ]
        if not sizes:
            return None
        return sizes, [
            [self.index[(suite, comp, v, n)]["median_s"] for n in sizes] for v in variants
        ]

    def computations(self, suite: str) -> list[str]:
        seen: dict[str, None] = {}
        for r in self.doc["results"]:
            if r["suite"] == suite:
                seen.setdefault(r["computation"], None)
        return list(seen)

    def sizes(self, suite: str, comp: str) -> list[int]:
        return sorted(
            {
                r["n"]
                for r in self.doc["results"]
                if r["suite"] == suite and r["computation"] == comp
            }
        )

    def columns(self, suite: str, comp: str | None = None) -> list[str]:
        ids = {
            r["variant"]
            for r in self.doc["results"]
            if r["suite"] == suite and (comp is None or r["computation"] == comp)
        }
        return sorted(ids, key=self._order)

    def _order(self, vid: str) -> tuple[Any, ...]:
        v = self.variants[vid]
        return (v.get("order", 50), vid)

    def label(self, vid: str) -> str:
        return self.variants[vid]["label"]


# ---------------------------------------------------------------------------- formats

_SUP = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def fmt_time(s: float) -> str:
    """Seconds, three significant digits: ``183 µs``, ``4.25 ms``."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def fmt_ratio(r: float) -> str:
    return f"×{r:.3g}" if r < 1000 else f"×{r:,.0f}"


def fmt_count(n: int) -> str:
    if n >= 100 and 10 ** round(math.log10(n)) == n:
        return f"10{str(round(math.log10(n))).translate(_SUP)}"
    return f"{n:,}"


def fmt_size(comp: str, n: int) -> str:
    if comp == "expm":
        m = math.isqrt(n)
        return f"{m}×{m}"
    return fmt_count(n)


def fmt_approx(x: float) -> str:
    """``≈ 4.4 × 10⁵``: two significant digits."""
    e = math.floor(math.log10(x))
    m = x / 10**e
    if round(m, 1) >= 10:
        m, e = m / 10, e + 1
    if e < 1:
        return f"≈ {x:.2g}"
    if e < 3:
        return f"≈ {round(x, 1 - e):,.0f}"
    return f"≈ {m:.2g} × 10{str(e).translate(_SUP)}"


def fmt_gbs(nbytes: int | None, s: float) -> str:
    if not nbytes:
        return "–"
    g = nbytes / s / 1e9
    return f"{g:.3g}" if g >= 0.01 else f"{g:.1e}"


def cell(r: dict[str, Any] | None) -> str:
    """A time with its spread in a tooltip."""
    if r is None:
        return "–"
    tip = f"median of {r['rounds']} rounds; IQR {fmt_time(r['iqr_s'])}"
    if r["host_calls"] is not None:
        tip += f"; {r['host_calls']} host call(s) per call"
    return f'<span title="{tip}">{fmt_time(r["median_s"])}</span>'


def table(header: list[str], rows: Iterable[list[str]], align: str | None = None) -> str:
    rows = list(rows)
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join([":--"] + [align or "--:"] * (len(header) - 1)) + "|")
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def tabs(blocks: list[tuple[str, str]]) -> str:
    out = []
    for label, body in blocks:
        out.append(f'=== "{label}"\n')
        out.append("\n".join(("    " + line) if line else "" for line in body.splitlines()))
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------------- analysis


def crossover(
    sizes: list[int], t: list[float], ref: list[float], factor: float = CROSSOVER
) -> tuple[str, float | None]:
    """The size from which on ``t <= factor * ref`` holds at every measured size,
    interpolated log-log between the last size where it fails and the next.

    Returns ``("below", None)`` if it holds at every size, ``("above", r)`` with the
    last ratio if it fails at the largest, else ``("at", n)``.
    """
    ratios = [a / b for a, b in zip(t, ref, strict=True)]
    failing = [i for i, r in enumerate(ratios) if r > factor]
    if not failing:
        return "below", None
    j = failing[-1]
    if j == len(ratios) - 1:
        return "above", ratios[-1]
    n0, n1, r0, r1 = sizes[j], sizes[j + 1], ratios[j], ratios[j + 1]
    frac = (math.log(r0) - math.log(factor)) / (math.log(r0) - math.log(r1))
    return "at", math.exp(math.log(n0) + frac * (math.log(n1) - math.log(n0)))


def fixed_cost_crossover(sizes: list[int], t: list[float]) -> tuple[str, float | None]:
    """Where ``t(n) >= CROSSOVER * t(smallest n)``: the fixed cost is at most half the time."""
    return crossover(sizes, [t[0]] * len(t), t, factor=1 / CROSSOVER)


def fmt_crossover(result: tuple[str, float | None], sizes: list[int]) -> str:
    what, value = result
    if what == "below":
        return f"≤ {fmt_count(sizes[0])}"
    if what == "above":
        assert value is not None
        return f"> {fmt_count(sizes[-1])} (still {fmt_ratio(value)})"
    assert value is not None
    return fmt_approx(value)


def target_sizes(dev: Device, comp: str) -> list[int]:
    """n = 1 and n = 10⁶ where measured, else the largest size measured."""
    sizes = dev.sizes("calls", comp)
    large = 1_000_000 if 1_000_000 in sizes else sizes[-1]
    return sorted({sizes[0], large})


def pattern_ratios(dev: Device) -> list[dict[str, Any]]:
    """Each pattern against its minimal form and the floor at the target sizes."""
    out = []
    for comp in dev.computations("calls"):
        for n in target_sizes(dev, comp):
            floor = dev.t("calls", comp, "floor/numpy", n)
            native = dev.t("calls", comp, "native/jax", n)
            for pat, mini in PAIRS:
                rp, rm = dev.get("calls", comp, pat, n), dev.get("calls", comp, mini, n)
                if rp is None or rm is None:
                    continue
                tp, tm = rp["median_s"], rm["median_s"]
                out.append(
                    {
                        "computation": comp,
                        "n": n,
                        "pattern": pat,
                        "minimal": mini,
                        "vs_minimal": tp / tm,
                        "vs_minimal_fastest": rp["min_s"] / rm["min_s"],
                        "vs_floor": tp / floor if floor else None,
                        "vs_native": tp / native if native else None,
                        "minimal_vs_floor": tm / floor if floor else None,
                    }
                )
    return out


def vmap_targets(dev: Device) -> list[dict[str, Any]]:
    out = []
    for comp in dev.computations("vmap"):
        batch = dev.sizes("vmap", comp)[-1]
        r = dev.get("vmap", comp, "pure_callback/default", batch)
        ref = dev.get("vmap", comp, "pure_callback/unbatched", batch)
        if r is None or ref is None:
            continue
        out.append(
            {
                "computation": comp,
                "batch": batch,
                "host_calls": r["host_calls"],
                "vs_unbatched": r["median_s"] / ref["median_s"],
                "vs_unbatched_fastest": r["min_s"] / ref["min_s"],
            }
        )
    return out


# ---------------------------------------------------------------------------- sections


def sec_devices(devs: list[Device]) -> str:
    rows = []
    for d in devs:
        e = d.env
        rows.append(
            [
                d.kind,
                e["processor"] if d.kind == "CPU" else e["device_kind"],
                f"{e['cores']} cores, {e['machine']}; {e['blas']}",
                f"JAX {e['jax']}, jaxlib {e['jaxlib']}",
                f"Python {e['python']}, NumPy {e['numpy']}, SciPy {e['scipy']}",
                f"{e['backend']}, {e['device_count']} device(s)",
                e["date"],
                f"{e['duration_s'] / 60:.1f} min; machine load {e['load']}",
            ]
        )
    if not any(d.kind == "GPU" for d in devs):
        rows.append(["GPU", "not measured", "–", "–", "–", "–", "–", "–"])
    header = ["", "device", "machine", "JAX", "Python", "backend", "date", "bench run"]
    out = table(header, rows, align=":--")
    if not any(d.kind == "GPU" for d in devs):
        out += "\n\n" + NOT_MEASURED
    return out


def sec_headline(devs: list[Device]) -> str:
    """Per-call cost at one element, every variant, one column per device."""
    comp, n = "sin_scale", 1
    ids: list[str] = []
    for d in devs:
        ids += [v for v in d.columns("calls", comp) if v not in ids]
    ref = devs[0]
    header = ["sin_scale, 1 element", *[f"{d.title}" for d in devs]]
    if not any(d.kind == "GPU" for d in devs):
        header.append("GPU")
    rows = []
    for vid in sorted(ids, key=ref._order):
        row = [ref.label(vid)]
        for d in devs:
            r = d.get("calls", comp, vid, n)
            floor = d.t("calls", comp, "floor/numpy", n)
            if r is None or floor is None:
                row.append("–")
                continue
            extra = "" if vid == "floor/numpy" else f" ({fmt_ratio(r['median_s'] / floor)} floor)"
            row.append(cell(r) + extra)
        if not any(d.kind == "GPU" for d in devs):
            row.append("not measured")
        rows.append(row)
    return table(header, rows)


def _calls_time(d: Device) -> str:
    cols = d.columns("calls")
    rows = []
    for comp in d.computations("calls"):
        for n in d.sizes("calls", comp):
            rows.append(
                [f"{comp} · {fmt_size(comp, n)}", *[cell(d.get("calls", comp, v, n)) for v in cols]]
            )
    return table(["computation · n", *[d.label(v) for v in cols]], rows)


def _calls_ratios(d: Device) -> str:
    cols = [v for v in d.columns("calls") if v != "floor/numpy"]
    rows = []
    for comp in d.computations("calls"):
        for n in d.sizes("calls", comp):
            floor = d.t("calls", comp, "floor/numpy", n)
            native = d.t("calls", comp, "native/jax", n)
            row = [f"{comp} · {fmt_size(comp, n)}"]
            for v in cols:
                t = d.t("calls", comp, v, n)
                if t is None or floor is None or native is None:
                    row.append("–")
                elif v == "native/jax":
                    row.append(f"{fmt_ratio(t / floor)}")
                else:
                    row.append(f"{fmt_ratio(t / floor)} / {fmt_ratio(t / native)}")
            rows.append(row)
    return table(["computation · n", *[d.label(v) for v in cols]], rows)


def sec_calls(devs: list[Device]) -> str:
    blocks = []
    for d in devs:
        body = (
            "Median time per jitted call (hover a cell for the IQR, rounds and host calls):\n\n"
            + _calls_time(d)
            + "\n\nThe same, as ratios: **÷ NumPy floor / ÷ native** (native: ÷ floor only):\n\n"
            + _calls_ratios(d)
        )
        blocks.append((d.title if len(devs) > 1 else d.kind, body))
    return _with_gpu(blocks, devs)


def _with_gpu(blocks: list[tuple[str, str]], devs: list[Device]) -> str:
    if not any(d.kind == "GPU" for d in devs):
        blocks.append(("GPU", NOT_MEASURED))
    return tabs(blocks)


def sec_sizes(devs: list[Device]) -> str:
    blocks = []
    comp = "sin_scale"
    for d in devs:
        sizes = d.sizes("calls", comp)
        cols = [
            v for v in d.columns("calls", comp) if all(d.get("calls", comp, v, n) for n in sizes)
        ]
        floor = [d.t("calls", comp, "floor/numpy", n) or 0.0 for n in sizes]
        native = [d.t("calls", comp, "native/jax", n) or 0.0 for n in sizes]
        cross_rows = []
        for v in cols:
            if v in ("floor/numpy",):
                continue
            t = [d.t("calls", comp, v, n) or 0.0 for n in sizes]
            over = t[0] - floor[0]
            fixed = fmt_crossover(fixed_cost_crossover(sizes, t), sizes)
            vs_floor = fmt_crossover(crossover(sizes, t, floor), sizes)
            vs_native = (
                "–" if v == "native/jax" else fmt_crossover(crossover(sizes, t, native), sizes)
            )
            cross_rows.append(
                [d.label(v), fmt_time(t[0]), fmt_time(max(over, 0.0)), fixed, vs_floor, vs_native]
            )
        gbs_rows = []
        for n in sizes:
            row = [fmt_count(n)]
            for v in cols:
                r = d.get("calls", comp, v, n)
                row.append(fmt_gbs(r["bytes"], r["median_s"]) if r else "–")
            gbs_rows.append(row)
        body = (
            f"![sin_scale: time per call against n, log-log]({ASSETS}/{d.stem}-sizes.svg)\n\n"
            "**Crossovers**, interpolated log-log between the measured sizes. *Fixed cost "
            "stops dominating*: the size from which a call takes at least "
            f"{CROSSOVER:g}× its one-element time, so that the fixed per-call overhead is at "
            f"most half of it. *≤ {CROSSOVER:g}× floor / native*: the size from which a call "
            f"costs at most {CROSSOVER:g}× the NumPy floor (or native JAX) on the same data.\n\n"
            + table(
                [
                    "sin_scale",
                    "time at n = 1",
                    "overhead at n = 1 (− floor)",
                    "crossover: fixed cost stops dominating",
                    f"crossover: ≤ {CROSSOVER:g}× floor",
                    f"crossover: ≤ {CROSSOVER:g}× native",
                ],
                cross_rows,
            )
            + "\n\n"
            + _where(d)
            + "\n\nEffective bandwidth, GB/s (bytes read and written by one call ÷ its time):\n\n"
            + table(["n", *[d.label(v) for v in cols]], gbs_rows)
        )
        blocks.append((d.title if len(devs) > 1 else d.kind, body))
    return _with_gpu(blocks, devs)


def sec_vmap(devs: list[Device]) -> str:
    blocks = []
    for d in devs:
        parts = [f"![vmap: time per batch against batch size]({ASSETS}/{d.stem}-vmap.svg)"]
        for comp in d.computations("vmap"):
            cols = d.columns("vmap", comp)
            rows = []
            for b in d.sizes("vmap", comp):
                row = [fmt_count(b)]
                for v in cols:
                    r = d.get("vmap", comp, v, b)
                    if r is None:
                        row.append("–")
                    elif r["host_calls"] is None:
                        row.append(cell(r))
                    else:
                        row.append(f"{cell(r)} · {r['host_calls']}")
                rows.append(row)
            parts.append(
                f"**{comp}** — time per batch · host calls per batch:\n\n"
                + table(["batch", *[d.label(v) for v in cols]], rows)
            )
        blocks.append((d.title if len(devs) > 1 else d.kind, "\n\n".join(parts)))
    return _with_gpu(blocks, devs)


def sec_targets(devs: list[Device]) -> str:
    blocks = []
    for d in devs:
        rows = []
        for r in pattern_ratios(d):
            ok = r["vs_minimal"] <= PATTERN_TARGET
            rows.append(
                [
                    f"{r['computation']} · {fmt_size(r['computation'], r['n'])}",
                    d.label(r["pattern"]),
                    fmt_ratio(r["vs_minimal"]),
                    fmt_ratio(r["vs_minimal_fastest"]),
                    "✅ within" if ok else f"❌ over {PATTERN_TARGET:g}×",
                    fmt_ratio(r["minimal_vs_floor"]) if r["minimal_vs_floor"] else "–",
                    fmt_ratio(r["vs_floor"]) if r["vs_floor"] else "–",
                    fmt_ratio(r["vs_native"]) if r["vs_native"] else "–",
                ]
            )
        vrows = []
        for r in vmap_targets(d):
            ok = r["vs_unbatched"] <= VMAP_TARGET and r["host_calls"] == 1
            vrows.append(
                [
                    r["computation"],
                    fmt_count(r["batch"]),
                    str(r["host_calls"]),
                    fmt_ratio(r["vs_unbatched"]),
                    fmt_ratio(r["vs_unbatched_fastest"]),
                    "✅ met" if ok else "❌ missed",
                ]
            )
        body = (
            f"**No pattern adds cost to its mechanism** (target ≤ {PATTERN_TARGET:g}× the minimal form):\n\n"
            + table(
                [
                    "computation · n",
                    "pattern",
                    "÷ minimal form",
                    "fastest rounds",
                    "target",
                    "minimal ÷ floor",
                    "pattern ÷ floor",
                    "pattern ÷ native",
                ],
                rows,
            )
            + "\n\nThe verdict compares medians; *fastest rounds* compares the fastest round "
            "of each, which a busy machine slows the least: where the two disagree, the "
            "difference is noise rather than work."
            + f"\n\n**vmap batches** (default `vmap_method`, one host call per batch, ≤ {VMAP_TARGET:g}× "
            "one unbatched call on the same data):\n\n"
            + table(
                [
                    "computation",
                    "batch",
                    "host calls",
                    "÷ unbatched call",
                    "fastest rounds",
                    "target",
                ],
                vrows,
            )
        )
        blocks.append((d.title if len(devs) > 1 else d.kind, body))
    return _with_gpu(blocks, devs)


def sec_loops(devs: list[Device]) -> str:
    blocks = []
    for d in devs:
        rows = []
        base = None
        for comp in d.computations("loops"):
            for v in d.columns("loops", comp):
                for n in d.sizes("loops", comp):
                    r = d.get("loops", comp, v, n)
                    if r is None:
                        continue
                    if v == "native/jax":
                        base = r["median_s"]
                    calls = r["host_calls"]
                    rows.append(
                        [
                            f"{comp} · {n:,} steps",
                            d.label(v),
                            "–" if calls is None else f"{calls:,}",
                            cell(r),
                            fmt_time(r["median_s"] / n),
                            fmt_ratio(r["median_s"] / base) if base else "–",
                        ]
                    )
        body = table(
            ["loop", "variant", "host calls", "time per loop", "per step", "÷ native scan"], rows
        )
        blocks.append((d.title if len(devs) > 1 else d.kind, body))
    return _with_gpu(blocks, devs)


def sec_effects(devs: list[Device]) -> str:
    blocks = []
    effect_ids = (
        "io_callback/unordered",
        "io_callback/ordered",
        "debug.callback/unordered",
        "debug.callback/ordered",
        "debug.print/ordered",
    )
    for d in devs:
        cols = [v for v in effect_ids if v in d.variants]
        per_call = ["one call (sin_scale, 1 element)"]
        for v in cols:
            per_call.append(cell(d.get("calls", "sin_scale", v, 1)))
        in_scan = []
        for n in d.sizes("loops", "log_steps"):
            row = [f"per step of a {n:,}-step scan (log_steps)"]
            for v in cols:
                r = d.get("loops", "log_steps", v, n)
                row.append(fmt_time(r["median_s"] / n) if r else "–")
            in_scan.append(row)
        body = table(["", *[d.label(v) for v in cols]], [per_call, *in_scan])
        blocks.append((d.title if len(devs) > 1 else d.kind, body))
    return _with_gpu(blocks, devs)


def sec_grad(devs: list[Device]) -> str:
    blocks = []
    for d in devs:
        rows = []
        for comp in d.computations("grad"):
            cols = d.columns("grad", comp)
            for n in d.sizes("grad", comp):
                native = d.t("grad", comp, "native/jax", n)
                for v in cols:
                    r = d.get("grad", comp, v, n)
                    if r is None:
                        continue
                    rows.append(
                        [
                            f"grad {comp} · {fmt_size(comp, n)}",
                            d.label(v),
                            cell(r),
                            fmt_ratio(r["median_s"] / native) if native else "–",
                            "–" if r["host_calls"] is None else str(r["host_calls"]),
                        ]
                    )
        body = table(["case", "variant", "time", "÷ native", "host calls"], rows)
        blocks.append((d.title if len(devs) > 1 else d.kind, body))
    return _with_gpu(blocks, devs)


def sec_seeds(devs: list[Device]) -> str:
    blocks = []
    for d in devs:
        rows = []
        for suite, comp, seed in (
            ("calls", "sin_scale", "seed/000"),
            ("calls", "bessel_jv", "seed/004"),
            ("vmap", "bessel_jv", "seed/004"),
            ("grad", "bessel_jv", "seed/004"),
        ):
            for n in d.sizes(suite, comp):
                s = d.get(suite, comp, seed, n)
                p = d.get(suite, comp, "pure_callback/default", n)
                if s is None or p is None:
                    continue
                what = {"calls": "call", "vmap": "vmap, batch", "grad": "grad"}[suite]
                rows.append(
                    [
                        f"{comp} · {what} {fmt_size(comp, n)}",
                        d.label(seed),
                        cell(s),
                        cell(p),
                        fmt_ratio(s["median_s"] / p["median_s"]),
                        f"{s['host_calls']} / {p['host_calls']}",
                    ]
                )
        body = table(
            [
                "case",
                "seed",
                "seed's code",
                "jaxcb pattern",
                "seed ÷ pattern",
                "host calls (seed / pattern)",
            ],
            rows,
        )
        blocks.append((d.title if len(devs) > 1 else d.kind, body))
    return _with_gpu(blocks, devs)


def _findings(d: Device) -> list[str]:
    out = []
    t = d.t
    f1 = t("calls", "sin_scale", "floor/numpy", 1)
    n1 = t("calls", "sin_scale", "native/jax", 1)
    mins = [
        (m, t("calls", "sin_scale", f"{m}/minimal", 1))
        for m in ("pure_callback", "io_callback", "debug.callback")
    ]
    if f1 and n1 and all(v for _, v in mins):
        parts = ", ".join(f"{fmt_time(v - f1)} with `{m}`" for m, v in mins if v)
        out.append(
            f"**Fixed cost of a round trip**: {parts} (minimal forms, one element, minus the "
            f"NumPy floor of {fmt_time(f1)}); a jitted native call costs {fmt_time(n1)}."
        )
    series = d.series("calls", "sin_scale", ("floor/numpy", "pure_callback/default", "native/jax"))
    if series:
        sizes, (floor, pat, native) = series
        cx = fmt_crossover(fixed_cost_crossover(sizes, pat), sizes)
        cf = fmt_crossover(crossover(sizes, pat, floor), sizes)
        cn = fmt_crossover(crossover(sizes, pat, native), sizes)
        out.append(
            f"**Crossover** (`sin_scale`, `pure_callback` pattern): its fixed per-call cost "
            f"stops dominating (a call takes {CROSSOVER:g}× its one-element time) from n {cx}; "
            f"it costs at most {CROSSOVER:g}× native JAX from n {cn}, and at most "
            f"{CROSSOVER:g}× the NumPy floor from n {cf}."
        )
        big = sizes[-1]
        empty = t("calls", "sin_scale", "pure_callback/no_work", big)
        if empty and pat[-1] > floor[-1]:
            out.append(
                f"**At n = {fmt_count(big)}** the pattern takes {fmt_time(pat[-1])} against the "
                f"floor's {fmt_time(floor[-1])} ({fmt_ratio(pat[-1] / floor[-1])}); a "
                f"`pure_callback` with no host work at all already takes {fmt_time(empty)}: "
                "what remains above the floor is the round trip and the copies of arguments "
                "and result between JAX's buffers and NumPy's."
            )
    for comp in d.computations("calls"):
        big = d.sizes("calls", comp)[-1]
        mini = d.t("calls", comp, "pure_callback/minimal", big)
        many = d.t("calls", comp, "pure_callback/blas-default", big)
        fl = d.t("calls", comp, "floor/numpy", big)
        floor_many = d.t("calls", comp, "floor/numpy-blas-default", big)
        if mini and many and fl and floor_many:
            out.append(
                f"**BLAS threads** (`{comp}`, {fmt_size(comp, big)}): with OpenBLAS on one "
                f"thread, as everywhere on this page, the minimal `pure_callback` takes "
                f"{fmt_time(mini)} and the NumPy floor {fmt_time(fl)}; with OpenBLAS's default "
                f"threads, {fmt_time(many)} ({fmt_ratio(many / mini)}) and {fmt_time(floor_many)} "
                f"({fmt_ratio(floor_many / fl)})."
            )
    for comp in d.computations("vmap"):
        b = d.sizes("vmap", comp)[-1]
        dflt = d.get("vmap", comp, "pure_callback/default", b)
        seq = d.get("vmap", comp, "pure_callback/sequential", b)
        if dflt and seq and comp == "sin_scale":
            out.append(
                f"**vmap** (`{comp}`, batch {fmt_count(b)}): the default `vmap_method` makes "
                f"{dflt['host_calls']} host call(s) and takes {fmt_time(dflt['median_s'])}; "
                f"`sequential` makes {seq['host_calls']} and takes {fmt_time(seq['median_s'])} "
                f"({fmt_ratio(seq['median_s'] / dflt['median_s'])})."
            )
    loops = {
        v: d.get("loops", c, v, n)
        for c in d.computations("loops")
        for v in d.columns("loops", c)
        for n in d.sizes("loops", c)
        if c == "log_steps"
    }
    base, step = loops.get("native/jax"), loops.get("io_callback/ordered")
    stack = loops.get("io_callback/stacked")
    prog = [
        d.get("loops", "progress", "io_callback/ordered", n) for n in d.sizes("loops", "progress")
    ]
    if base and step and stack:
        text = (
            f"**Loops** (time ÷ the native scan's): a host call on every step of a "
            f"{step['n']:,}-step scan costs {fmt_time(step['median_s'] / step['n'])} per step, "
            f"{fmt_ratio(step['median_s'] / base['median_s'])} in all; one call on the stacked "
            f"states, {fmt_ratio(stack['median_s'] / base['median_s'])}"
        )
        if prog and prog[0]:
            text += f"; reporting every {step['n'] // prog[0]['host_calls']}th step, {fmt_ratio(prog[0]['median_s'] / base['median_s'])}"
        out.append(text + ".")
    return out


def sec_findings(devs: list[Device]) -> str:
    blocks = []
    for d in devs:
        items = _findings(d)
        blocks.append(
            (d.title if len(devs) > 1 else d.kind, "\n".join(f"- {i}" for i in items) or "–")
        )
    return _with_gpu(blocks, devs)


def _where(d: Device) -> str:
    comp = "sin_scale"
    ids = ("floor/numpy", "pure_callback/no_work", "pure_callback/minimal", "pure_callback/default")
    rows = []
    sizes, columns = d.series("calls", comp, ids) or ([], [])
    for i, n in enumerate(sizes):
        rs = [d.get("calls", comp, v, n) for v in ids]
        floor, empty, _mini, pat = (c[i] for c in columns)
        rows.append(
            [
                fmt_count(n),
                *[cell(r) for r in rs],
                fmt_time(max(pat - floor, 0.0)),
                fmt_ratio(empty / max(pat - floor, 1e-12)) if pat > floor else "–",
            ]
        )
    if not rows:
        return ""
    return (
        "**Where the time goes**: the pattern's time above the floor, next to a "
        "`pure_callback` whose host function does nothing (returns a preallocated result):\n\n"
        + table(
            ["n", *[d.label(v) for v in ids], "pattern − floor", "no-work ÷ (pattern − floor)"],
            rows,
        )
    )


SECTIONS: dict[str, Callable[[list[Device]], str]] = {
    "findings": sec_findings,
    "devices": sec_devices,
    "headline": sec_headline,
    "targets": sec_targets,
    "calls": sec_calls,
    "sizes": sec_sizes,
    "vmap": sec_vmap,
    "loops": sec_loops,
    "effects": sec_effects,
    "grad": sec_grad,
    "seeds": sec_seeds,
}


def render(markdown: str, docs: list[dict[str, Any]]) -> str:
    """Replace every ``<!-- bench:NAME -->`` line of ``markdown`` with its section."""
    devs = [Device(d) for d in docs]

    def replace(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in SECTIONS:
            raise ValueError(
                f"{PAGE}: unknown placeholder <!-- bench:{name} -->; known: {sorted(SECTIONS)}"
            )
        if not devs:
            return NO_DATA if name == "devices" else ""
        return SECTIONS[name](devs)

    return PLACEHOLDER.sub(replace, markdown)


# ---------------------------------------------------------------------------- plots


def _figure(ncols: int = 1, nrows: int = 1, size: tuple[float, float] = (7.5, 4.6)) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, facecolor="white", layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, axes


_COLORS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
    "#393b79",
    "#ad494a",
    "#637939",
    "#7b4173",
    "#e7969c",
)


def _style(dev: Device, vid: str) -> dict[str, Any]:
    """The same variant gets the same color and marker in every plot of a device."""
    role = dev.variants[vid]["role"]
    if role == "floor":
        return {"color": "black", "linestyle": "--", "marker": "", "linewidth": 1.8}
    if role == "native":
        return {"color": "0.5", "linestyle": "-", "marker": "s", "linewidth": 1.8}
    others = [
        v
        for v in sorted(dev.variants, key=dev._order)
        if dev.variants[v]["role"] not in ("floor", "native")
    ]
    i = others.index(vid)
    line = {"minimal": "-.", "reference": ":", "seed": (0, (1, 1))}.get(role, "-")
    return {"color": _COLORS[i % len(_COLORS)], "linestyle": line, "marker": "osD^vP*Xh<>p"[i % 12]}


def _svg(fig: Any) -> bytes:
    import matplotlib

    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "jaxcb-bench", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def _legend(fig: Any, axes: Any, ncols: int = 4) -> None:
    seen: dict[str, Any] = {}
    for ax in axes.flat:
        for h, label in zip(*ax.get_legend_handles_labels(), strict=True):
            seen.setdefault(label, h)
    if seen:
        fig.legend(
            list(seen.values()), list(seen), loc="outside lower center", ncols=ncols, fontsize=7
        )


def plot_sizes(dev: Device) -> bytes:
    """Left: time per call against n; right: the same ÷ the NumPy floor (the overhead)."""
    comp = "sin_scale"
    sizes = dev.sizes("calls", comp)
    floor = {n: dev.t("calls", comp, "floor/numpy", n) for n in sizes}
    fig, axes = _figure(2, 1, size=(10.0, 5.4))
    left, right = axes[0]
    for v in dev.columns("calls", comp):
        pts = [(n, r) for n in sizes if (r := dev.get("calls", comp, v, n)) is not None]
        if not pts:
            continue
        ns = [n for n, _ in pts]
        med = [r["median_s"] for _, r in pts]
        lo = [r["median_s"] - r["q1_s"] for _, r in pts]
        hi = [r["q3_s"] - r["median_s"] for _, r in pts]
        style = _style(dev, v)
        left.errorbar(ns, med, yerr=[lo, hi], label=dev.label(v), capsize=2, markersize=4, **style)
        ratio = [(n, r["median_s"] / floor[n]) for n, r in pts if floor.get(n)]
        right.plot([n for n, _ in ratio], [x for _, x in ratio], markersize=4, **style)
    right.axhline(CROSSOVER, color="black", linewidth=0.8, linestyle=":")
    right.annotate(
        f"{CROSSOVER:g}× floor: the crossover",
        (sizes[0], CROSSOVER),
        fontsize=7,
        xytext=(2, 3),
        textcoords="offset points",
    )
    for ax, ylabel in (
        (left, "time per call (s): median, IQR bars"),
        (right, "time ÷ NumPy floor"),
    ):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("n (float32 elements)")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="major", alpha=0.3)
    fig.suptitle(f"sin_scale(x, y): cost per call against size — {dev.title}", fontsize=10)
    _legend(fig, axes)
    return _svg(fig)


def plot_vmap(dev: Device) -> bytes:
    comps = dev.computations("vmap")
    ncols = 2
    nrows = max(1, math.ceil(len(comps) / ncols))
    fig, axes = _figure(ncols, nrows, size=(10.0, 3.4 * nrows + 0.8))
    for i, comp in enumerate(comps):
        ax = axes[i // ncols][i % ncols]
        batches = dev.sizes("vmap", comp)
        for v in dev.columns("vmap", comp):
            pts = [(b, dev.t("vmap", comp, v, b)) for b in batches]
            pts = [(b, t) for b, t in pts if t]
            if pts:
                ax.plot(
                    [b for b, _ in pts],
                    [t for _, t in pts],
                    label=dev.label(v),
                    markersize=4,
                    **_style(dev, v),
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
    fig.suptitle(f"vmap: each vmap_method against batch size — {dev.title}", fontsize=10)
    _legend(fig, axes, ncols=3)
    return _svg(fig)


PLOTS: dict[str, Callable[[Device], bytes]] = {"sizes": plot_sizes, "vmap": plot_vmap}


def plots(docs: list[dict[str, Any]]) -> dict[str, bytes]:
    """``{site path: SVG}`` for every device."""
    out = {}
    for d in docs:
        dev = Device(d)
        for name, fn in PLOTS.items():
            out[f"{ASSETS}/{dev.stem}-{name}.svg"] = fn(dev)
    return out


# ---------------------------------------------------------------------------- mkdocs


def _data_dir(config: Any) -> Path:
    return Path(config["docs_dir"]) / "data" / "bench"


def on_files(files: Any, config: Any) -> Any:
    """Add the plots as generated files (no plot is written into docs/)."""
    if files.get_file_from_path(PAGE) is None:
        return files
    try:
        import matplotlib  # noqa: F401
    except ImportError as e:
        raise RuntimeError(
            "docs/hooks/bench.py draws the performance plots with matplotlib: install it "
            "in the docs environment (it is in pyproject's docs dependency group)"
        ) from e
    from mkdocs.structure.files import File

    for path, svg in plots(load(_data_dir(config))).items():
        files.append(File.generated(config, path, content=svg))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri != PAGE:
        return markdown
    return render(markdown, load(_data_dir(config)))
