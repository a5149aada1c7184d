"""The performance page's directives (``<!-- jaxcb:bench-NAME -->``) and its plots.

Everything comes from ``docs/data/bench/*.json`` through ``jaxcb_core.schema`` and the
analysis in ``jaxcb_core.bench`` (ratios, crossovers, targets): every number and every
verdict on the page, and every sentence that states one, is generated here from the
data. One file per device, each in its own content tab; a device class without a file
gets a tab saying it was not measured and how to measure it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from jaxcb_core import bench as analysis
from jaxcb_core.bench import CROSSOVER, HARNESS_TARGET, Device
from jaxcb_core.schema import QUIET_LOAD, BenchResult

from . import data, plots
from .render import esc, tabs

NOT_MEASURED = (
    "**Not measured**: no GPU has run these benchmarks yet, so this page has no GPU "
    "number. On a machine with an NVIDIA GPU, `tox -e bench-cuda12` (or "
    "`tests/bench/run_gpu.sh`, which imports the packages from source) writes "
    "`docs/data/bench/gpu-<device kind>.json`; committed, it fills this tab."
)
#: the same, for a reader's page (no commands, no file names)
NOT_MEASURED_READER = "**Not measured**: no GPU has run these benchmarks yet."
NO_DATA = (
    '!!! warning "No benchmark data"\n\n'
    "    `docs/data/bench/` holds no data file yet. Run `tox -e bench` and commit the "
    "JSON file it writes."
)

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


def fmt_crossover(result: tuple[str, float | None], sizes: list[int]) -> str:
    what, value = result
    if what == "below":
        return f"≤ {fmt_count(sizes[0])}"
    if what == "above":
        assert value is not None
        return f"> {fmt_count(sizes[-1])} (still {fmt_ratio(value)})"
    assert value is not None
    return fmt_approx(value)


def cell(r: BenchResult | None) -> str:
    """A time with its spread in a tooltip."""
    if r is None:
        return "–"
    tip = f"median of {r.rounds} rounds; IQR {fmt_time(r.iqr_s)}"
    if r.host_calls is not None:
        tip += f"; {r.host_calls} host call(s) per call"
    if r.page_faults is not None:
        tip += f"; {r.page_faults:,} page faults per call"
    return f'<span title="{esc(tip)}">{fmt_time(r.median_s)}</span>'


def table(header: list[str], rows: Iterable[list[str]], align: str | None = None) -> str:
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join([":--"] + [align or "--:"] * (len(header) - 1)) + "|")
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def devices() -> list[Device]:
    return [Device(f) for f in data.bench_files()]


def per_device(
    fn: Callable[[Device], str],
    missing_gpu: str = NOT_MEASURED,
    measured: Callable[[Device], bool] | None = None,
) -> str:
    """One tab per device file (a GPU tab that says it is not measured, where none is);
    with ``measured``, only the files it accepts (those that ran a later suite, say)."""
    devs = [d for d in devices() if measured is None or measured(d)]
    if not devs:
        return "Not measured yet: no benchmark run on any machine has measured this."
    titled = measured is not None or len(devs) > 1  # a reader's page names the processor
    blocks = [(d.title if titled else d.kind, fn(d)) for d in devs]
    if not any(d.kind == "GPU" for d in devs):
        blocks.append(("GPU", missing_gpu))
    return tabs(blocks)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------------- sections


def sec_devices() -> str:
    """One row per benchmark file: device, processor, versions, backend, date."""
    rows, warnings = [], []
    for d in devices():
        e = d.env
        rows.append(
            [
                d.kind,
                e.processor if d.kind == "CPU" else e.device_kind,
                f"{e.cores} cores, {e.machine}, {e.simd or 'vector width not recorded'}; {e.blas}",
                f"JAX {e.jax}, jaxlib {e.jaxlib}",
                f"Python {e.python}, NumPy {e.numpy}, SciPy {e.scipy}",
                f"{e.backend}, {plural(e.device_count, 'device')}, {plural(e.process_count, 'process')}",
                e.date,
                f"{e.duration_s / 60:.1f} min; load {e.load}",
            ]
        )
        if not e.quiet:
            warnings.append(
                f'!!! warning "{esc(d.title)}: measured on a busy machine"\n\n'
                f"    The 1-minute load average was {e.load}, above {QUIET_LOAD} on "
                f"{e.cores} cores: other work shared the cores, and callback timings on a "
                "busy machine can double. Treat these numbers as an upper bound."
            )
        checks = [c.ratio for c in d.file.checks]
        drift = max((max(r, 1 / r) for r in checks), default=1.0)
        if drift > HARNESS_TARGET:
            within = sum(max(r, 1 / r) <= HARNESS_TARGET for r in checks)
            warnings.append(
                f'!!! warning "{esc(d.title)}: timings drifted during the run"\n\n'
                f"    The same calls timed by the benchmark harness and by a bare "
                f"`perf_counter` loop, in alternate rounds, differed by up to "
                f"{drift:.2f}× ({within} of {len(checks)} within {HARNESS_TARGET:g}×), "
                "though the machine was quiet by its load. This machine's speed moved during "
                "the run: compare this file's ratios with that margin in mind."
            )
    if not any(d.kind == "GPU" for d in devices()):
        rows.append(["GPU", "not measured", "–", "–", "–", "–", "–", "–"])
    header = ["", "device", "machine", "JAX", "Python", "backend", "date", "bench run"]
    out = table(header, rows, align=":--")
    if warnings:
        out += "\n\n" + "\n\n".join(warnings)
    if not any(d.kind == "GPU" for d in devices()):
        out += "\n\n" + NOT_MEASURED
    return out


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
    return f"![What one call costs, per mechanism]({plots.ASSETS}/{d.stem}-calls.svg)\n\n" + table(
        ["sin_scale, 1 element", "time per call", "÷ NumPy floor", "host calls"], rows
    )


def sec_headline() -> str:
    """What one call costs at one element (sin_scale), every column, with its plot, per device file."""
    return per_device(_headline)


def _pick(d: Device) -> str:
    """A short, generated guide: which column is fastest for which kind of use."""
    out = []
    noops = sorted(
        (
            (t, v)
            for v in d.of_form("noop")
            if v.role != "native" and (t := d.t("calls", "sin_scale", v.id, 1))
        ),
        key=lambda p: p[0],
    )
    native = next((v for v in d.of_form("noop") if v.role == "native"), None)
    base = d.t("calls", "sin_scale", native.id, 1) if native else None
    if noops and base:
        t, v = noops[0]
        slow = noops[-1]
        out.append(
            f"**Called often on small arrays** (a hot path): `{v.mechanism}` has the lowest fixed "
            f"cost, {fmt_time(t)} per call ({fmt_ratio(t / base)} a jitted native no-op); "
            f"`{slow[1].mechanism}` the highest, {fmt_time(slow[0])}."
        )
    largest: dict[str, Any] = {}  # per computation, the largest n measured (sizes ascend)
    for t in d.file.targets:
        if t.name.startswith("best pattern"):
            largest[t.where.split(",")[0]] = t
    for t in largest.values():
        label = d.label(t.subject) if t.subject in d.variants else t.subject
        out.append(
            f"**Large arrays, {t.where.split(',')[0]}** (host work dominates): {label} comes "
            f"closest to the floor, {fmt_ratio(t.value)} {t.name.split('÷ ')[1]} at {t.where.split(', ')[1]}."
        )
    steps = sorted(
        (
            r
            for r in analysis.loop_steps(d)
            if d.variants[r["variant"]].form == "noop-per-step" and r["per_step_s"]
        ),
        key=lambda r: r["per_step_s"],
    )
    if steps:
        r = steps[0]
        out.append(
            f"**Inside a loop**: every step that reaches the host adds {fmt_time(r['per_step_s'])} "
            f"with `{d.variants[r['variant']].mechanism}`, the least of the mechanisms measured; "
            "sending the stacked states once at the end, or every k-th step, costs less (the loops table)."
        )
    batched = [t for t in d.file.targets if t.name.startswith("vmap")]
    one = sorted({t.subject for t in batched if t.detail.startswith("1 host call")})
    many = sorted({t.subject for t in batched if not t.detail.startswith("1 host call")})
    if one or many:
        text = "**Under vmap**: "
        if one:
            text += ", ".join(f"`{s}`" for s in one) + " make one host call per batch"
        if many:
            text += ("; " if one else "") + ", ".join(f"`{s}`" for s in many) + " one per element"
        out.append(text + " (measured at the largest batch).")
    return "\n".join(f"- {i}" for i in out) or "–"


def sec_pick() -> str:
    """Which column is fastest for which kind of use, per device file (generated)."""
    return per_device(_pick)


def _targets(d: Device) -> str:
    stored = d.file.targets
    met = sum(t.met for t in stored)
    groups: dict[str, list[Any]] = {}
    for t in stored:
        groups.setdefault(t.name, []).append(t)
    parts = [
        f"{met} of {plural(len(stored), 'target')} met in this run "
        f"({', '.join(f'{sum(t.met for t in ts)} of {len(ts)} for “{name}”' for name, ts in groups.items())})."
    ]
    for name, ts in groups.items():
        rows = [
            [
                d.label(t.subject) if t.subject in d.variants else f"`{t.subject}`",
                esc(t.where),
                fmt_ratio(t.value),
                f"≤ {t.limit:g}",
                "✅ met" if t.met else "❌ missed",
                esc(t.detail),
            ]
            for t in sorted(ts, key=lambda t: -t.value)
        ]
        parts.append(
            f"**{name}** — {sum(t.met for t in ts)} of {len(ts)} met:\n\n"
            + table(["subject", "where", "ratio", "target", "verdict", "detail"], rows)
        )
    return "\n\n".join(parts)


def sec_targets() -> str:
    """The benchmark targets per device file, met or not, grouped by name."""
    return per_device(_targets)


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
        f"![sin_scale: time per call against n, log-log]({plots.ASSETS}/{d.stem}-sizes.svg)\n\n"
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
    parts = [f"![vmap: time per batch against batch size]({plots.ASSETS}/{d.stem}-vmap.svg)"]
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


def _findings(d: Device) -> str:
    out = []
    floor1 = d.t("calls", "sin_scale", "floor/numpy", 1)
    noops = d.of_form("noop")
    native = next((v for v in noops if v.role == "native"), None)
    base = d.t("calls", "sin_scale", native.id, 1) if native else None
    measured = sorted(
        ((t, v) for v in noops if v.role != "native" and (t := d.t("calls", "sin_scale", v.id, 1))),
        key=lambda p: p[0],
    )
    if base and measured:
        parts = ", ".join(
            f"`{v.mechanism}` {fmt_time(t)} ({fmt_ratio(t / base)})" for t, v in measured
        )
        out.append(
            f"**Fixed cost of one round trip** (a no-op on one float32 element): {parts}; a jitted "
            f"native no-op, the dispatch floor, takes {fmt_time(base)}."
        )
    for t in d.file.targets:
        if t.name.startswith("best pattern") and not t.met:
            out.append(
                f"**{t.where}**: the fastest pattern, {d.label(t.subject) if t.subject in d.variants else t.subject}, "
                f"is still {fmt_ratio(t.value)} {t.name.split('÷ ')[1]} — {esc(t.detail.split(';')[0])}."
            )
        elif t.name.startswith("best pattern"):
            out.append(
                f"**{t.where}**: {d.label(t.subject) if t.subject in d.variants else t.subject} "
                f"runs at {fmt_ratio(t.value)} {t.name.split('÷ ')[1]}."
            )
    steps = [
        r
        for r in analysis.loop_steps(d)
        if d.variants[r["variant"]].form == "noop-per-step" and r["per_step_s"]
    ]
    if steps:
        parts = ", ".join(
            f"`{d.variants[r['variant']].mechanism}` {fmt_time(r['per_step_s'])}"
            for r in sorted(steps, key=lambda r: r["per_step_s"])
        )
        out.append(
            f"**In a {steps[0]['steps']:,}-step `lax.scan`**, one round trip per step adds: {parts}."
        )
    out += _fresh_outputs(d)
    sizes = d.sizes("calls", "sin_scale")
    cross = []
    for v in d.of_form("call", "send", role="minimal"):
        t = [d.t("calls", "sin_scale", v.id, n) for n in sizes]
        if all(t):
            cross.append(
                f"`{v.mechanism}` from n {fmt_crossover(analysis.fixed_cost_crossover(sizes, t), sizes)}"
            )  # type: ignore[arg-type]
    if cross and floor1:
        out.append(
            f"**Crossover** (`sin_scale`, minimal forms): the fixed per-call cost stops dominating "
            f"(a call takes {CROSSOVER:g}× its one-element time) " + ", ".join(cross) + "."
        )
    if not d.env.quiet:
        out.append(f"**Measured under load** ({d.env.load}): see the warning under *Devices*.")
    return "\n".join(f"- {i}" for i in out) or "–"


def _fresh_outputs(d: Device) -> list[str]:
    """Where a file has an in-place form with page faults recorded: at the largest
    ``sin_scale``, what a fresh output buffer costs against one written before."""
    out = []
    into_id = "floor/numpy-into"
    for v in d.of_form("call-in-place", role="minimal"):
        sizes = [n for n in d.sizes("calls", "sin_scale") if d.get("calls", "sin_scale", v.id, n)]
        if not sizes:
            continue
        n = sizes[-1]
        inp, into = d.get("calls", "sin_scale", v.id, n), d.get("calls", "sin_scale", into_id, n)
        pats = [
            r
            for p in d.host_patterns()
            if p.mechanism == v.mechanism
            and (r := d.get("calls", "sin_scale", p.id, n)) is not None
            and r.page_faults is not None
        ]
        if inp is None or into is None or inp.page_faults is None or not pats:
            continue
        pat = min(pats, key=lambda r: r.median_s)
        out.append(
            f"**A fresh output buffer** (`sin_scale`, n = {fmt_count(n)}): XLA gives each call "
            f"a new result buffer, and the first write to each of its memory pages is a page "
            f"fault. The `{v.mechanism}` pattern takes {fmt_time(pat.median_s)} with "
            f"{pat.page_faults:,} page faults per call, NumPy into a preallocated array "
            f"{fmt_time(into.median_s)}; the bare `{v.mechanism}` writing into its donated "
            f"input instead (`input_output_aliases`) takes {fmt_time(inp.median_s)} "
            f"({fmt_ratio(inp.median_s / into.median_s)} NumPy into) with "
            f"{inp.page_faults:,} page faults."
        )
    return out


def sec_findings() -> str:
    """The findings, per device file: what the timings show, in sentences built from them."""
    return per_device(_findings)


def _cpu_title(d: Device) -> str:
    return f"{d.env.processor}, {d.env.simd or 'no width recorded'} ({d.env.date})"


def _subject(d: Device, subject: str) -> str:
    return d.label(subject) if subject in d.variants else f"`{subject}`"


def sec_every_cpu() -> str:
    """Every committed CPU file side by side: each target measured in all of them, its ratio
    in each, and whether it holds on every one."""
    cpus = [d for d in devices() if d.kind == "CPU"]
    if len(cpus) < 2:
        return (
            "Only one CPU file is committed, so nothing can be said yet about what holds "
            "on more than one processor."
        )
    # A target whose subject the run chose (the best pattern at a size, the fastest round
    # trip) is one per place: it is compared by where it was measured, whatever won there.
    places = [Counter((t.name, t.where) for t in d.file.targets) for d in cpus]
    chosen = {name for c in places for name, _ in c} - {
        name for c in places for (name, _), n in c.items() if n > 1
    }
    keyed = [
        {(t.name, "" if t.name in chosen else t.subject, t.where): t for t in d.file.targets}
        for d in cpus
    ]
    common = [k for k in keyed[0] if all(k in m for m in keyed[1:])]
    names = list(dict.fromkeys(k[0] for k in common))
    summary = []
    for name in names:
        keys = [k for k in common if k[0] == name]
        per = [sum(m[k].met for k in keys) for m in keyed]
        both = sum(all(m[k].met for m in keyed) for k in keys)
        summary.append([esc(name), *(f"{n} of {len(keys)}" for n in per), f"{both} of {len(keys)}"])
    head = ["target", *(esc(_cpu_title(d)) for d in cpus), "met on every CPU"]
    rows = []
    for k in common:
        ts = [m[k] for m in keyed]
        subject = "the run's fastest" if not k[1] else _subject(cpus[0], k[1])
        rows.append(
            [
                esc(k[0]),
                subject,
                esc(k[2]),
                *(
                    f"{fmt_ratio(t.value)} {'✅' if t.met else '❌'}"
                    + ("" if k[1] else f" ({_subject(d, t.subject)})")
                    for d, t in zip(cpus, ts, strict=True)
                ),
                "✅ yes" if all(t.met for t in ts) else "❌ no",
            ]
        )
    detail = table(
        ["target", "subject", "where", *(esc(_cpu_title(d)) for d in cpus), "on every CPU"],
        rows,
    )
    total = sum(all(m[k].met for m in keyed) for k in common)
    return (
        f"{total} of {plural(len(common), 'target')} measured in all {len(cpus)} CPU files "
        "are met in every one of them.\n\n"
        + table(head, summary)
        + '\n\n??? note "Every target, every CPU file"\n\n'
        + "\n".join(f"    {line}" for line in detail.splitlines())
    )


def _measured_on(d: Device) -> str:
    e = d.env
    return (
        f"Measured with JAX {e.jax} on {e.processor} ({e.device_count} {d.kind} device, "
        f"{e.process_count} process), {e.date}."
    )


def _tools(comp: str) -> Callable[[Device], bool]:
    """Whether a file measured ``comp`` in the tools suite (files from before it did not)."""
    return lambda d: comp in d.computations("tools")


def _progress_bars(d: Device) -> str:
    (steps,) = d.sizes("tools", "progress")
    native = next(v for v in d.columns("tools", "progress") if d.variants[v].role == "native")
    base = d.t("tools", "progress", native, steps)
    assert base is not None
    rows = []
    for v in d.columns("tools", "progress"):
        r = d.get("tools", "progress", v, steps)
        if r is None:
            continue
        added = "–" if v == native else fmt_time(max(r.median_s - base, 0.0) / steps)
        calls = "–" if r.host_calls is None else f"{r.host_calls:,}"
        rows.append([d.label(v), calls, cell(r), added])
    return (
        f"A `lax.scan` of {steps:,} steps, one jitted call, with a progress report in its "
        "body; “added per step” is the loop's time minus the same loop with no report, "
        f"divided by its {steps:,} steps. {_measured_on(d)}\n\n"
        + table(["column", "host calls per loop", "time per loop", "added per step"], rows)
    )


def sec_progress_bars() -> str:
    """The progress recipe beside jax-tqdm: what a report costs per step of a jitted scan."""
    return per_device(_progress_bars, NOT_MEASURED_READER, _tools("progress"))


def _beside_native(d: Device, comp: str, intro: str, ratio: str) -> str:
    """One tools row per column, its time at each size and its ratio to the native column."""
    sizes = d.sizes("tools", comp)
    columns = d.columns("tools", comp)
    native = next(v for v in columns if d.variants[v].role == "native")
    rows = []
    for v in columns:
        row = [d.label(v)]
        for n in sizes:
            r, base = d.get("tools", comp, v, n), d.t("tools", comp, native, n)
            row.append(cell(r))
            if v != native:
                ok = r is not None and base is not None
                row.append(fmt_ratio(r.median_s / base) if ok else "–")  # type: ignore[union-attr]
            else:
                row.append("–")
        rows.append(row)
    head = ["column"]
    for n in sizes:
        head += [f"time, n = {fmt_count(n)}", f"÷ {ratio}, n = {fmt_count(n)}"]
    return f"{intro} {_measured_on(d)}\n\n" + table(head, rows)


def _checks(d: Device) -> str:
    return _beside_native(
        d,
        "checked_sqrt",
        "`jnp.sqrt(x)` under `jax.jit` after a check that `x` is not negative, on float32 "
        "inputs that pass it.",
        "no check",
    )


def _host_copy(d: Device) -> str:
    return _beside_native(
        d,
        "host_copy",
        "A jitted function's three float32 results of `n` elements each, read into NumPy "
        "with `np.asarray`, with `copy_to_host_async()` called on each first and without. "
        "On a CPU the results are in host memory already: the table shows what the calls "
        "change there, not what they can buy on an accelerator.",
        "without",
    )


def sec_checks() -> str:
    """checkify and equinox's error_if: what a check that passes costs at run time."""
    return per_device(_checks, NOT_MEASURED_READER, _tools("checked_sqrt"))


def sec_host_copy() -> str:
    """copy_to_host_async before reading results: what it costs, per CPU file."""
    return per_device(_host_copy, NOT_MEASURED_READER, _tools("host_copy"))


SECTIONS: dict[str, Callable[[], str]] = {
    "every-cpu": sec_every_cpu,
    "pick": sec_pick,
    "findings": sec_findings,
    "devices": sec_devices,
    "headline": sec_headline,
    "targets": sec_targets,
    "calls": sec_calls,
    "sizes": sec_sizes,
    "vmap": sec_vmap,
    "loops": sec_loops,
    "grad": sec_grad,
    "seeds": sec_seeds,
    "eager": sec_eager,
    "progress-bars": sec_progress_bars,
    "checks": sec_checks,
    "host-copy": sec_host_copy,
}


def directive(name: str) -> Callable[[str], str]:
    def run(src: str) -> str:
        if not data.bench_files():
            return NO_DATA if name == "devices" else ""
        return SECTIONS[name]()

    run.__doc__ = SECTIONS[name].__doc__
    return run


DIRECTIVES = {f"bench-{name}": directive(name) for name in SECTIONS}


def add_plots(files: Any, config: Any) -> Any:
    """The plots of every device file, as generated files (nothing written into docs/)."""
    from mkdocs.structure.files import File

    for path, svg in plots.render(devices()).items():
        files.append(File.generated(config, path, content=svg))
    return files
