"""The performance page's directives (``<!-- jaxcb:bench-NAME -->``) and its plots.

Everything comes from ``docs/data/bench/*.json`` through ``jaxcb_core.schema`` and the
analysis in ``jaxcb_core.bench`` (ratios, crossovers, targets): every number and every
verdict on the page, and every sentence that states one, is generated from the data. One
file per device, each in its own content tab; a device class without a file gets a tab
saying it was not measured and how to measure it.

``SECTIONS`` is the page's one table of directives. The sections themselves live by kind:
the verdicts in sentences and tables (``perfsummary.py``), the measurement tables
(``perftables.py``), other projects' tools beside the recipes (``perftools.py``); the
formats and the per-device tabs they share in ``perfformat.py``, their words in English and
Chinese in ``perfwords.py`` (a page ``*.zh.md`` gets the Chinese), the plots in ``plots.py``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from . import data, perfsummary, perftables, perftools, plots
from .i18n import language
from .perfformat import devices
from .perfwords import say

SECTIONS: dict[str, Callable[..., str]] = {
    "every-cpu": perfsummary.sec_every_cpu,
    "pick": perfsummary.sec_pick,
    "findings": perfsummary.sec_findings,
    "devices": perfsummary.sec_devices,
    "headline": perftables.sec_headline,
    "targets": perfsummary.sec_targets,
    "calls": perftables.sec_calls,
    "sizes": perftables.sec_sizes,
    "vmap": perftables.sec_vmap,
    "loops": perftables.sec_loops,
    "grad": perftables.sec_grad,
    "seeds": perftables.sec_seeds,
    "eager": perftables.sec_eager,
    "progress-bars": perftools.sec_progress_bars,
    "checks": perftools.sec_checks,
    "host-copy": perftools.sec_host_copy,
}


def directive(name: str) -> Callable[[str], str]:
    """The directive ``bench-NAME``: the section, or nothing where no file is committed (the
    devices section says so). The directive table names the section's docstring and module."""

    def run(src: str) -> str:
        if not data.bench_files():
            return say(language(src), "no-data") if name == "devices" else ""
        # the plots' paths are relative to the site's root: from a page in a folder
        # (performance/sizes.md) they go up to it
        up = "../" * src.count("/")
        section = SECTIONS[name]
        # a section written in both languages takes the page's (``perfwords.WORDS``); the
        # contributors' sections (targets, every CPU) are English only
        takes = "lang" in inspect.signature(section).parameters
        out = section(language(src)) if takes else section()
        return out.replace(f"]({plots.ASSETS}/", f"]({up}{plots.ASSETS}/")

    run.__doc__ = SECTIONS[name].__doc__
    run.__module__ = SECTIONS[name].__module__
    return run


DIRECTIVES = {f"bench-{name}": directive(name) for name in SECTIONS}


def add_plots(files: Any, config: Any) -> Any:
    """The plots of every device file, as generated files (nothing written into docs/)."""
    from mkdocs.structure.files import File

    for path, svg in plots.render(devices()).items():
        files.append(File.generated(config, path, content=svg))
    return files
