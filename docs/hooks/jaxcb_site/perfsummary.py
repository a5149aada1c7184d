"""The performance page's verdicts in sentences and tables: what to pick, the findings, the
devices that ran, the targets met or missed per file and on every CPU. Each is generated
from the data, per device file."""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

from jaxcb_core import bench as analysis
from jaxcb_core.bench import CROSSOVER, HARNESS_TARGET, Device
from jaxcb_core.schema import QUIET_LOAD

from . import perfwords
from .perfformat import (
    devices,
    fmt_count,
    fmt_crossover,
    fmt_ratio,
    fmt_time,
    per_device,
    plural,
    table,
)
from .perfwords import blas, detail, floor_name, head, load, say
from .render import esc


def _pick(d: Device, lang: str = "en") -> str:
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
            say(
                lang,
                "pick-hot",
                mech=v.mechanism,
                time=fmt_time(t),
                ratio=fmt_ratio(t / base),
                slow=slow[1].mechanism,
                slow_time=fmt_time(slow[0]),
            )
        )
    largest: dict[str, Any] = {}  # per computation, the largest n measured (sizes ascend)
    for t in d.file.targets:
        if t.name.startswith("best pattern"):
            largest[t.where.split(",")[0]] = t
    for t in largest.values():
        label = _named(d, t.subject, lang)
        out.append(
            say(
                lang,
                "pick-large",
                comp=t.where.split(",")[0],
                label=label,
                ratio=fmt_ratio(t.value),
                floor=floor_name(lang, t.name.split("÷ ")[1]),
                n=t.where.split(", ")[1],
            )
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
            say(
                lang,
                "pick-loop",
                time=fmt_time(r["per_step_s"]),
                mech=d.variants[r["variant"]].mechanism,
            )
        )
    batched = [t for t in d.file.targets if t.name.startswith("vmap")]
    one = sorted({t.subject for t in batched if t.detail.startswith("1 host call")})
    many = sorted({t.subject for t in batched if not t.detail.startswith("1 host call")})
    if one or many:
        names = say(lang, "name-sep").join
        text = say(lang, "pick-vmap")
        if one:
            text += say(lang, "pick-vmap-one", names=names(f"`{s}`" for s in one))
        if many:
            text += (say(lang, "semi") if one else "") + say(
                lang, "pick-vmap-many", names=names(f"`{s}`" for s in many)
            )
        out.append(text + say(lang, "pick-vmap-end"))
    return "\n".join(f"- {i}" for i in out) or "–"


def sec_pick(lang: str = "en") -> str:
    """Which column is fastest for which kind of use, per device file (generated)."""
    return per_device(functools.partial(_pick, lang=lang), lang=lang)


def _findings(d: Device, lang: str = "en") -> str:
    out = []
    floor1 = d.t("calls", "sin_scale", "floor/numpy", 1)
    noops = d.of_form("noop")
    native = next((v for v in noops if v.role == "native"), None)
    base = d.t("calls", "sin_scale", native.id, 1) if native else None
    measured = sorted(
        ((t, v) for v in noops if v.role != "native" and (t := d.t("calls", "sin_scale", v.id, 1))),
        key=lambda p: p[0],
    )
    sep = say(lang, "sep")
    if base and measured:
        parts = sep.join(
            say(
                lang,
                "find-fixed-item",
                mech=v.mechanism,
                time=fmt_time(t),
                ratio=fmt_ratio(t / base),
            )
            for t, v in measured
        )
        out.append(say(lang, "find-fixed", parts=parts, base=fmt_time(base)))
    for t in d.file.targets:
        if not t.name.startswith("best pattern"):
            continue
        said = {
            "where": t.where,
            "label": _named(d, t.subject, lang),
            "ratio": fmt_ratio(t.value),
            "floor": floor_name(lang, t.name.split("÷ ")[1]),
        }
        if not t.met:
            text = esc(detail(lang, t.detail.split(";")[0]))
            out.append(say(lang, "find-missed", detail=text, **said))
        else:
            out.append(say(lang, "find-met", **said))
    steps = [
        r
        for r in analysis.loop_steps(d)
        if d.variants[r["variant"]].form == "noop-per-step" and r["per_step_s"]
    ]
    if steps:
        parts = sep.join(
            say(
                lang,
                "find-scan-item",
                mech=d.variants[r["variant"]].mechanism,
                time=fmt_time(r["per_step_s"]),
            )
            for r in sorted(steps, key=lambda r: r["per_step_s"])
        )
        out.append(say(lang, "find-scan", steps=steps[0]["steps"], parts=parts))
    out += _fresh_outputs(d, lang)
    sizes = d.sizes("calls", "sin_scale")
    cross = []
    for v in d.of_form("call", "send", role="minimal"):
        t = [d.t("calls", "sin_scale", v.id, n) for n in sizes]
        if all(t):
            at = fmt_crossover(analysis.fixed_cost_crossover(sizes, t), sizes, lang)  # type: ignore[arg-type]
            cross.append(say(lang, "find-cross-item", mech=v.mechanism, at=at))
    if cross and floor1:
        out.append(say(lang, "find-cross", x=CROSSOVER, items=sep.join(cross)))
    if not d.env.quiet:
        out.append(say(lang, "find-load", load=load(lang, d.env)))
    return "\n".join(f"- {i}" for i in out) or "–"


def _fresh_outputs(d: Device, lang: str = "en") -> list[str]:
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
            say(
                lang,
                "find-fresh",
                n=fmt_count(n),
                mech=v.mechanism,
                pattern=fmt_time(pat.median_s),
                faults=pat.page_faults,
                into=fmt_time(into.median_s),
                in_place=fmt_time(inp.median_s),
                ratio=fmt_ratio(inp.median_s / into.median_s),
                in_place_faults=inp.page_faults,
            )
        )
    return out


def sec_findings(lang: str = "en") -> str:
    """The findings, per device file: what the timings show, in sentences built from them."""
    return per_device(functools.partial(_findings, lang=lang), lang=lang)


def sec_devices(lang: str = "en") -> str:
    """One row per benchmark file: device, processor, versions, backend, date."""
    rows, warnings = [], []
    for d in devices():
        e = d.env
        rows.append(
            [
                d.kind,
                e.processor if d.kind == "CPU" else e.device_kind,
                say(
                    lang,
                    "dev-machine",
                    cores=e.cores,
                    machine=e.machine,
                    simd=e.simd or say(lang, "dev-no-simd"),
                    blas=blas(lang, e.blas),
                ),
                say(lang, "dev-jax", jax=e.jax, jaxlib=e.jaxlib),
                say(lang, "dev-python", python=e.python, numpy=e.numpy, scipy=e.scipy),
                say(
                    lang,
                    "dev-backend",
                    backend=e.backend,
                    devices=plural(e.device_count, "device", lang),
                    processes=plural(e.process_count, "process", lang),
                ),
                e.date,
                say(lang, "dev-run", minutes=e.duration_s / 60, load=load(lang, e)),
            ]
        )
        if not e.quiet:
            warnings.append(
                say(
                    lang,
                    "dev-busy",
                    title=esc(d.title),
                    load=load(lang, e),
                    quiet=QUIET_LOAD,
                    cores=e.cores,
                )
            )
        checks = [c.ratio for c in d.file.checks]
        drift = max((max(r, 1 / r) for r in checks), default=1.0)
        if drift > HARNESS_TARGET:
            within = sum(max(r, 1 / r) <= HARNESS_TARGET for r in checks)
            warnings.append(
                say(
                    lang,
                    "dev-drift",
                    title=esc(d.title),
                    drift=drift,
                    within=within,
                    checks=len(checks),
                    margin=HARNESS_TARGET,
                )
            )
    if not any(d.kind == "GPU" for d in devices()):
        rows.append(["GPU", say(lang, "dev-gpu"), "–", "–", "–", "–", "–", "–"])
    out = table(head(lang, "dev-head"), rows, align=":--")
    if warnings:
        out += "\n\n" + "\n\n".join(warnings)
    if not any(d.kind == "GPU" for d in devices()):
        out += "\n\n" + say(lang, "not-measured")
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
        # each target's table folded under its name and count: the page lists the targets,
        # a contributor opens the one they work on
        body = table(["subject", "where", "ratio", "target", "verdict", "detail"], rows)
        title = f"{name} — {sum(t.met for t in ts)} of {len(ts)} met".replace('"', "'")
        indented = "\n".join("    " + line if line else line for line in body.split("\n"))
        parts.append(f'??? note "{title}"\n\n{indented}')
    return "\n\n".join(parts)


def sec_targets() -> str:
    """The benchmark targets per device file, met or not, grouped by name."""
    return per_device(_targets)


def _cpu_title(d: Device) -> str:
    return f"{d.env.processor}, {d.env.simd or 'no width recorded'} ({d.env.date})"


def _subject(d: Device, subject: str) -> str:
    return d.label(subject) if subject in d.variants else f"`{subject}`"


def _named(d: Device, subject: str, lang: str) -> str:
    """A target's subject in a sentence of the page's language: a benchmark's label
    (``perfwords.label``), or the subject as the data names it."""
    return perfwords.label(lang, d.label(subject)) if subject in d.variants else subject


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
