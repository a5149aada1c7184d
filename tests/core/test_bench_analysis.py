"""The benchmark analysis (jaxcb_core.bench) on small made-up numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jaxcb_core import bench
from jaxcb_core.schema import BenchFile, BenchResult, BenchVariant, PairedRatio, load_bench

DATA = Path(__file__).resolve().parents[2] / "docs" / "data" / "bench"


def test_crossover() -> None:
    sizes = [1, 100, 10_000]
    ref = [1.0, 1.0, 100.0]
    assert bench.crossover(sizes, [1.5, 1.5, 150.0], ref) == ("below", None)
    what, r = bench.crossover(sizes, [10.0, 10.0, 1000.0], ref)
    assert what == "above"
    assert r == pytest.approx(10.0)
    # ratio 4 at n=100, 1 at n=10^4: the factor 2 is crossed half way, log-log
    what, n = bench.crossover(sizes, [4.0, 4.0, 100.0], ref)
    assert what == "at"
    assert n == pytest.approx(1_000.0)
    # the fixed cost (1.0) is half of the time where t reaches 2.0: log-log half way
    what, n = bench.fixed_cost_crossover(sizes, [1.0, 1.0, 4.0])
    assert what == "at"
    assert n == pytest.approx(1_000.0)
    # "from which size on": a noisy dip below the factor at a small size does not count
    what, n = bench.crossover(sizes, [1.5, 4.0, 100.0], ref)
    assert what == "at"
    assert n == pytest.approx(1_000.0)


def test_target_verdict() -> None:
    t = bench.Target(name="x", subject="s", value=1.05, limit=1.10, where="w")
    assert t.met
    assert not t.model_copy(update={"value": 1.2}).met


def _file(
    columns: dict[str, tuple[str, str, str]],
    times: dict[tuple[str, int], float],
    pairs: tuple[PairedRatio, ...] = (),
    faults: dict[tuple[str, int], int] | None = None,
) -> Any:
    """A made-up benchmark file: ``columns[id] = (role, mechanism, form)``, ``times[(id, n)]``
    the median of ``sin_scale`` at ``n`` in the calls suite, ``pairs``, and the page faults
    per call ``faults[(id, n)]`` where given."""
    committed = load_bench(next(iter(sorted(DATA.glob("cpu-*.json")))))
    variants = [
        BenchVariant(id=i, label=i, role=r, mechanism=m, form=f, doc="", order=k)  # type: ignore[arg-type]
        for k, (i, (r, m, f)) in enumerate(columns.items())
    ]
    results = [
        BenchResult(
            suite="calls",
            computation="sin_scale",
            variant=i,
            n=n,
            median_s=t,
            iqr_s=0.0,
            q1_s=t,
            q3_s=t,
            min_s=t,
            rounds=3,
            iterations=1,
            host_calls=None,
            bytes=0,
            page_faults=(faults or {}).get((i, n)),
        )
        for (i, n), t in times.items()
    ]
    update = {"variants": variants, "results": results, "pairs": list(pairs)}
    return bench.Device(committed.model_copy(update=update))


COLUMNS = {
    "floor/numpy": ("floor", "numpy", "numpy"),
    "floor/numpy-into": ("floor", "numpy", "into"),
    "io_callback/unordered": ("pattern", "io_callback", "pattern"),
    "io_callback/ordered": ("pattern", "io_callback", "pattern"),
    "io_callback/minimal": ("minimal", "io_callback", "call"),
    "io_callback/minimal-ordered": ("minimal", "io_callback", "call"),
    "buffer_callback/default": ("pattern", "buffer_callback", "pattern"),
    "buffer_callback/minimal": ("minimal", "buffer_callback", "call"),
}


def test_an_ordered_pattern_is_held_to_the_ordered_minimal_form() -> None:
    n = 10**6
    times = {(i, n): 1.0 for i in COLUMNS}
    times |= {("io_callback/ordered", n): 1.5, ("io_callback/minimal-ordered", n): 1.45}
    dev = _file(COLUMNS, times)
    assert dev.minimal_for(dev.variants["io_callback/ordered"]).id == "io_callback/minimal-ordered"  # type: ignore[union-attr]
    assert dev.minimal_for(dev.variants["io_callback/unordered"]).id == "io_callback/minimal"  # type: ignore[union-attr]
    ratios = {
        t.subject: t.value for t in bench.targets(dev) if t.name == "pattern ÷ its minimal form"
    }
    assert ratios == {
        "io_callback/unordered": pytest.approx(1.0),
        "io_callback/ordered": pytest.approx(1.5 / 1.45),
        "buffer_callback/default": pytest.approx(1.0),
    }


def test_a_missed_pattern_target_says_what_the_pattern_adds() -> None:
    """Beyond the limit the detail decomposes the miss: both medians, the time added per
    call, the minimal form's interquartile range; within it, the ratios only."""
    n = 10**6
    times = {(i, n): 1.0 for i in COLUMNS}
    times |= {("io_callback/unordered", n): 1.25, ("io_callback/minimal", n): 1.0}
    targets = bench.targets(_file(COLUMNS, times))
    got = {t.subject: t for t in targets if t.name == "pattern ÷ its minimal form"}
    miss = got["io_callback/unordered"]
    assert (miss.value, miss.met) == (pytest.approx(1.25), False)
    assert miss.detail == (
        "fastest rounds: ×1.25; decomposition, from the two cases' own medians: pattern 1.25 s, its minimal form 1 s, "
        "+0.25 s a call against the minimal form's interquartile range 1 to 1 s (0 s wide)"
    )
    assert got["buffer_callback/default"].detail == "fastest rounds: ×1"


def test_floor_targets_at_every_large_n_and_buffer_against_into() -> None:
    times = {}
    for n, floor in ((1000, 1.0), (10**6, 2.0), (10**7, 20.0)):
        times |= {(i, n): floor for i in COLUMNS}
        times |= {("floor/numpy-into", n): floor / 2, ("buffer_callback/default", n): floor * 1.5}
        times |= {("io_callback/unordered", n): floor * 3, ("io_callback/ordered", n): floor * 3}
    got = {(t.name, t.where): t for t in bench.targets(_file(COLUMNS, times))}
    floor6 = got[("best pattern ÷ the NumPy floor", "sin_scale, n = 1000000")]
    floor7 = got[("best pattern ÷ the NumPy floor", "sin_scale, n = 10000000")]
    assert ("best pattern ÷ the NumPy floor", "sin_scale, n = 1000") not in got
    assert floor6.subject == floor7.subject == "buffer_callback/default"
    assert floor6.value == pytest.approx(1.5)
    assert not floor6.met
    assert floor6.detail.startswith(
        "decomposition: floor 2 s, the bare buffer_callback running the floor 2 s, pattern 3 s;"
    )
    into = got[("buffer_callback ÷ NumPy into a preallocated array", "sin_scale, n = 1000000")]
    assert into.subject == "buffer_callback/default"
    assert into.value == pytest.approx(3.0)
    assert into.detail == "into 1 s, the bare buffer_callback running the floor 2 s, pattern 3 s"
    into7 = got[("buffer_callback ÷ NumPy into a preallocated array", "sin_scale, n = 10000000")]
    assert into7.value == pytest.approx(3.0)
    # no in-place form measured: no target for it, and no page faults in the details
    assert not [t for t in got.values() if "in place" in t.name or "page faults" in t.detail]


def test_the_best_pattern_no_slower_than_the_floor_and_the_kernel_well_below() -> None:
    """A large n: the best pattern at most 1.0x the floor; ffi_call's best pattern at
    n = 10^6 (only there) at most 0.6x it, met or missed with its two times."""
    columns = COLUMNS | {
        "ffi_call/default": ("pattern", "ffi_call", "pattern"),
        "ffi_call/no_rule": ("pattern", "ffi_call", "pattern"),
        "ffi_call/minimal": ("minimal", "ffi_call", "call"),
    }
    times = {}
    for n, floor in ((10**6, 2.0), (10**7, 20.0)):
        times |= {(i, n): floor * 3 for i in columns}
        times |= {("floor/numpy", n): floor, ("ffi_call/no_rule", n): floor * 0.7}
        times |= {("ffi_call/default", n): floor * 0.5, ("ffi_call/minimal", n): floor * 0.5}
    times[("ffi_call/default", 10**7)] = 25.0  # the faster ffi_call pattern, no_rule, misses
    got = {(t.name, t.where): t for t in bench.targets(_file(columns, times))}
    best = got[("best pattern ÷ the NumPy floor", "sin_scale, n = 1000000")]
    assert (best.subject, best.value, best.limit, best.met) == ("ffi_call/default", 0.5, 1.0, True)
    kernel = got[("ffi_call kernel ÷ the NumPy floor", "sin_scale, n = 1000000")]
    assert (kernel.subject, kernel.value, kernel.limit) == ("ffi_call/default", 0.5, 0.6)
    assert kernel.met
    assert kernel.detail == "floor 2 s, kernel 1 s"
    assert ("ffi_call kernel ÷ the NumPy floor", "sin_scale, n = 10000000") not in got
    best7 = got[("best pattern ÷ the NumPy floor", "sin_scale, n = 10000000")]
    assert (best7.subject, best7.value) == ("ffi_call/no_rule", pytest.approx(0.7))
    assert bench.FLOOR_TARGET == 1.0
    assert bench.KERNEL_TARGET == 0.6
    assert bench.INTO_TARGET == 1.1
    slow = times | {("ffi_call/default", 10**6): 1.4, ("ffi_call/no_rule", 10**6): 1.5}
    missed = {(t.name, t.where): t for t in bench.targets(_file(columns, slow))}
    kernel = missed[("ffi_call kernel ÷ the NumPy floor", "sin_scale, n = 1000000")]
    assert (kernel.value, kernel.met) == (pytest.approx(0.7), False)


def test_an_in_place_form_is_held_to_numpy_into_and_page_faults_decompose() -> None:
    columns = COLUMNS | {
        "buffer_callback/minimal-in-place": ("minimal", "buffer_callback", "call-in-place")
    }
    n = 10**7
    times = {(i, n): 20.0 for i in columns}
    times |= {("floor/numpy-into", n): 10.0, ("buffer_callback/default", n): 25.0}
    times |= {("buffer_callback/minimal-in-place", n): 11.0, ("buffer_callback/minimal", n): 30.0}
    faults = {("buffer_callback/default", n): 9766, ("buffer_callback/minimal-in-place", n): 0}
    dev = _file(columns, times, faults=faults)
    got = {(t.name, t.where): t for t in bench.targets(dev)}
    where = "sin_scale, n = 10000000"
    into = got[("buffer_callback ÷ NumPy into a preallocated array", where)]
    assert into.value == pytest.approx(2.5)
    assert into.detail == (
        "into 10 s, the bare buffer_callback running the floor 30 s, pattern 25 s "
        "(9,766 page faults per call), in place 11 s (0 page faults per call)"
    )
    place = got[("buffer_callback, in place ÷ NumPy into a preallocated array", where)]
    assert place.subject == "buffer_callback/minimal-in-place"
    assert place.value == pytest.approx(1.1)
    assert place.limit == bench.IN_PLACE_TARGET
    assert place.met
    assert place.detail == "into 10 s, in place 11 s (0 page faults per call)"
    # the in-place form is never the minimal form a pattern is held to
    assert dev.minimal_for(dev.variants["buffer_callback/default"]).id == "buffer_callback/minimal"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "simd"),
    [
        (
            "model name\t: AMD EPYC\nflags\t\t: fpu sse sse2 avx avx2 fma avx512f avx512bw\n",
            "AVX-512",
        ),
        ("model name\t: AMD EPYC\nflags\t\t: fpu sse sse2 avx avx2 fma\n", "AVX2"),
        ("flags\t\t: fpu sse sse2 avx\n", "SSE2"),
        ("processor\t: 0\nFeatures\t: fp asimd sve\n", None),  # an ARM CPU: no x86 flags line
    ],
)
def test_cpu_simd_is_the_widest_flag(text: str, simd: str | None, tmp_path: Path) -> None:
    from jaxcb_core.environment import cpu_simd

    (tmp_path / "cpuinfo").write_text(text, encoding="utf-8")
    assert cpu_simd(str(tmp_path / "cpuinfo")) == simd
    assert cpu_simd(str(tmp_path / "missing")) is None


def test_device_stem_names_the_vector_width() -> None:
    from jaxcb_core.schema import device_stem

    assert device_stem("cpu", "cpu", "AMD EPYC", "AVX2") == "cpu-amd-epyc-avx2"
    assert device_stem("cpu", "cpu", "AMD EPYC", "AVX-512") == "cpu-amd-epyc-avx-512"
    assert device_stem("cpu", "cpu", "AMD EPYC") == "cpu-amd-epyc"  # files older than the width
    assert device_stem("gpu", "NVIDIA H200", None, "AVX2") == "gpu-nvidia-h200"


def _pair(variant: str, minimal: str, n: int, pattern_s: float, minimal_s: float) -> PairedRatio:
    return PairedRatio(
        suite="calls",
        computation="sin_scale",
        variant=variant,
        minimal=minimal,
        n=n,
        pattern_s=pattern_s,
        minimal_s=minimal_s,
    )


def test_a_pattern_timed_beside_its_minimal_form_is_held_to_those_rounds() -> None:
    n = 1
    times = {(i, n): 1.0 for i in COLUMNS}
    # timed apart, the pattern looks 30 % slower; in alternating rounds, 2 % slower
    times |= {("io_callback/unordered", n): 1.3}
    beside = _pair("io_callback/unordered", "io_callback/minimal", n, 1.3, 1.275)
    # a pair with another form than the one the pattern is held to is not used
    other = _pair("io_callback/ordered", "io_callback/minimal", n, 1.0, 2.0)
    targets = {
        t.subject: t
        for t in bench.targets(_file(COLUMNS, times, (beside, other)))
        if t.name == "pattern ÷ its minimal form"
    }
    assert targets["io_callback/unordered"].value == pytest.approx(1.3 / 1.275)
    assert targets["io_callback/unordered"].detail.startswith("in alternating rounds; ")
    assert targets["io_callback/ordered"].value == pytest.approx(1.0)
    assert targets["io_callback/ordered"].detail.startswith("fastest rounds: ")
    unpaired = bench.targets(_file(COLUMNS, times))
    assert {t.subject: t.value for t in unpaired if t.name == "pattern ÷ its minimal form"}[
        "io_callback/unordered"
    ] == pytest.approx(1.3)


def test_a_pair_names_a_measured_pattern_and_a_listed_minimal_form() -> None:
    committed = load_bench(next(iter(sorted(DATA.glob("cpu-*.json")))))
    doc = committed.model_dump(mode="json", by_alias=True)
    result = doc["results"][0]
    doc["pairs"] = [
        {
            "suite": result["suite"],
            "computation": result["computation"],
            "variant": "no/such",
            "minimal": "nor/this",
            "n": result["n"],
            "pattern_s": 1.0,
            "minimal_s": 1.0,
        }
    ]
    where = f"pair {result['suite']}/{result['computation']}/no/such/{result['n']}"
    with pytest.raises(ValueError, match="no result for the pattern") as e:
        BenchFile.model_validate(doc)
    text = str(e.value)
    assert f"{where}: no result for the pattern" in text
    assert f"{where}: minimal form 'nor/this' is not listed in variants" in text
