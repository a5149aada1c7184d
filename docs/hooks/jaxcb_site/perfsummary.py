"""The performance page's verdicts in sentences and tables: what to pick, the findings, the
devices that ran, the targets met or missed per file and on every CPU. Each is generated
from the data, per device file."""

from __future__ import annotations

from collections import Counter
from typing import Any

from jaxcb_core import bench as analysis
from jaxcb_core.bench import CROSSOVER, HARNESS_TARGET, Device
from jaxcb_core.schema import QUIET_LOAD

from .perfformat import (
    NOT_MEASURED,
    devices,
    fmt_count,
    fmt_crossover,
    fmt_ratio,
    fmt_time,
    per_device,
    plural,
    table,
)
from .render import esc


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
