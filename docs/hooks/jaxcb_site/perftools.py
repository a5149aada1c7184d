"""Other projects' tools beside this site's recipes, from the benchmarks' tools suite: a
progress report per step of a scan, a check that passes, ``copy_to_host_async``. Only the
files that ran the suite have these tables (files from before it do not)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from jaxcb_core.bench import Device

from .perfformat import cell, fmt_count, fmt_ratio, fmt_time, per_device, table
from .perfwords import head, say
from .perfwords import label as in_words


def _measured_on(d: Device, lang: str = "en") -> str:
    e = d.env
    return say(
        lang,
        "measured-on",
        jax=e.jax,
        processor=e.processor,
        devices=e.device_count,
        kind=d.kind,
        processes=e.process_count,
        date=e.date,
    )


def _tools(comp: str) -> Callable[[Device], bool]:
    """Whether a file measured ``comp`` in the tools suite (files from before it did not)."""
    return lambda d: comp in d.computations("tools")


def _progress_bars(d: Device, lang: str = "en") -> str:
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
        rows.append([in_words(lang, d.label(v)), calls, cell(r, lang), added])
    return (
        say(lang, "progress-text", steps=steps, measured=_measured_on(d, lang))
        + "\n\n"
        + table(head(lang, "progress-head"), rows)
    )


def sec_progress_bars(lang: str = "en") -> str:
    """The progress recipe beside jax-tqdm: what a report costs per step of a jitted scan."""
    missing = say(lang, "not-measured-reader")
    return per_device(
        functools.partial(_progress_bars, lang=lang), missing, _tools("progress"), lang
    )


def _beside_native(d: Device, comp: str, intro: str, ratio: str, lang: str = "en") -> str:
    """One tools row per column, its time at each size and its ratio to the native column."""
    sizes = d.sizes("tools", comp)
    columns = d.columns("tools", comp)
    native = next(v for v in columns if d.variants[v].role == "native")
    rows = []
    for v in columns:
        row = [in_words(lang, d.label(v))]
        for n in sizes:
            r, base = d.get("tools", comp, v, n), d.t("tools", comp, native, n)
            row.append(cell(r, lang))
            if v != native:
                ok = r is not None and base is not None
                row.append(fmt_ratio(r.median_s / base) if ok else "–")  # type: ignore[union-attr]
            else:
                row.append("–")
        rows.append(row)
    heads = [say(lang, "tools-column")]
    for n in sizes:
        heads += [
            say(lang, "tools-time", n=fmt_count(n)),
            say(lang, "tools-ratio", ratio=ratio, n=fmt_count(n)),
        ]
    # the English intro and "Measured with" are one paragraph, a space apart
    space = "" if lang == "zh" else " "
    return f"{intro}{space}{_measured_on(d, lang)}\n\n" + table(heads, rows)


def _checks(d: Device, lang: str = "en") -> str:
    return _beside_native(
        d,
        "checked_sqrt",
        say(lang, "checks-text"),
        say(lang, "checks-ratio"),
        lang,
    )


def _host_copy(d: Device, lang: str = "en") -> str:
    return _beside_native(
        d,
        "host_copy",
        say(lang, "host-copy-text"),
        say(lang, "host-copy-ratio"),
        lang,
    )


def sec_checks(lang: str = "en") -> str:
    """checkify and equinox's error_if: what a check that passes costs at run time."""
    missing = say(lang, "not-measured-reader")
    return per_device(functools.partial(_checks, lang=lang), missing, _tools("checked_sqrt"), lang)


def sec_host_copy(lang: str = "en") -> str:
    """copy_to_host_async before reading results: what it costs, per CPU file."""
    missing = say(lang, "not-measured-reader")
    return per_device(functools.partial(_host_copy, lang=lang), missing, _tools("host_copy"), lang)
