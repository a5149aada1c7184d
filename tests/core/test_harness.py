"""The matrix harness on its own: effect matching, discovery checks, the terminal view."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from jaxcb_core import cli, matrix
from jaxcb_core.catalog import CATALOG, by_name
from jaxcb_core.matrix import checks
from jaxcb_core.matrix.cell import run_cell
from jaxcb_core.matrix.transforms import TRANSFORMS, by_id
from jaxcb_core.mechanisms import discover, from_dict
from jaxcb_core.schema import Cell, MatrixFile, VariantInfo, load_matrix

EXPECTED = [[(1, np.array([1.0])), (2, np.array([2.0]))], [(1, np.array([5.0]))]]


def _check(actual: list[tuple[int, np.ndarray | None]]) -> dict:
    return checks.effects(EXPECTED, actual, rtol=1e-6, atol=0).model_dump()


def test_effects_exact() -> None:
    got = _check([(1, np.array([1.0])), (1, np.array([5.0])), (2, np.array([2.0]))])
    assert got == {
        "expected": 3,
        "arrived": 3,
        "missing": 0,
        "extra": 0,
        "in_order": True,
        "verdict": "exact",
    }


def test_effects_missing_duplicated_reordered_none() -> None:
    assert _check([(1, np.array([1.0])), (2, np.array([2.0]))])["verdict"] == "missing"
    dup = _check(
        [(1, np.array([1.0])), (2, np.array([2.0])), (1, np.array([5.0])), (1, np.array([5.0]))]
    )
    assert (dup["verdict"], dup["extra"]) == ("duplicated", 1)
    swapped = _check([(2, np.array([2.0])), (1, np.array([1.0])), (1, np.array([5.0]))])
    assert (swapped["verdict"], swapped["in_order"]) == ("reordered", False)
    assert _check([])["verdict"] == "none"


def test_effects_values_must_match() -> None:
    wrong = _check([(1, np.array([1.5])), (2, np.array([2.0])), (1, np.array([5.0]))])
    assert (wrong["missing"], wrong["extra"], wrong["verdict"]) == (1, 1, "missing")


def test_batched_records_are_split_per_element() -> None:
    records = [(np.array([1, 1]), np.array([[1.0], [5.0]])), (np.array(2), np.array([2.0]))]
    split = checks.split(records)
    assert [k for k, _ in split] == [1, 1, 2]
    assert _check(split)["verdict"] == "exact"


def _variant_dict(**over: object) -> dict:
    d = {
        "id": "x/y",
        "mechanism": "x",
        "label": "x",
        "doc": "",
        "package": "x",
        "order": 0,
        "implementations": {},
        "modules": {},
        "unsupported": {c.name: "because" for c in CATALOG},
        "probe": None,
    }
    d.update(over)
    return d


def test_registry_must_speak_about_every_computation() -> None:
    unsupported = {c.name: "because" for c in CATALOG if c.name != "expm"}
    with pytest.raises(ValueError, match=r"variant 'x/y' says nothing about \['expm'\]"):
        from_dict(_variant_dict(unsupported=unsupported))


def test_registry_rejects_unknown_names_and_missing_keys() -> None:
    with pytest.raises(ValueError, match="names unknown computations"):
        from_dict(_variant_dict(implementations={"nope": print}))
    d = _variant_dict()
    del d["doc"]
    with pytest.raises(ValueError, match=r"lacks keys \['doc'\]"):
        from_dict(d)


def test_discovered_variants_cover_the_catalog() -> None:
    variants = discover()
    ids = [v.id for v in variants]
    assert ids[0] == "native/jax"
    assert {"pure_callback/default", "io_callback/ordered", "debug.callback/unordered"} <= set(ids)
    for v in variants:
        assert set(v.implementations) | set(v.unsupported) == {c.name for c in CATALOG}


def test_unsupported_cell_is_not_applicable_with_the_registry_reason() -> None:
    variant = from_dict(_variant_dict())
    cell = run_cell(variant, by_name("expm"), by_id("jit"))
    assert (cell.status, cell.reason, cell.host_calls) == ("n/a", "because", None)
    assert cell.test == "tests/matrix/test_matrix.py::test_cell[x/y|expm|jit]"


def test_cell_records_errors_and_wrong_results() -> None:
    calls: list[int] = []

    def on_host(x: object) -> None:
        calls.append(1)

    module = types.SimpleNamespace(on_host=on_host)

    def wrong(x, y):  # type: ignore[no-untyped-def]
        module.on_host(x)
        return x

    def broken(x, y):  # type: ignore[no-untyped-def]
        raise NotImplementedError("nope\nsecond line")

    impls = {"sin_scale": wrong}
    unsupported = {c.name: "-" for c in CATALOG if c.name != "sin_scale"}
    v = from_dict(
        _variant_dict(
            implementations=impls,
            unsupported=unsupported,
            modules={"sin_scale": module},
            probe={"sin_scale": ("on_host",)},
        )
    )
    cell = run_cell(v, by_name("sin_scale"), by_id("eager"))
    assert cell.status == "wrong"
    assert cell.reason is not None
    assert cell.reason.startswith("output 0: values differ from the reference")
    assert (cell.host_calls, cell.shapes) == (1, ["float32[8]"])
    v = from_dict(_variant_dict(implementations={"sin_scale": broken}, unsupported=unsupported))
    cell = run_cell(v, by_name("sin_scale"), by_id("jit"))
    assert (cell.status, cell.error_type, cell.error) == ("error", "NotImplementedError", "nope")
    assert cell.host_calls is None  # no probe: nothing of it runs on the host


def test_runs_grade_an_effect_owed_per_execution() -> None:
    assert checks.runs(3, 3).verdict == "exact"
    lost = checks.runs(3, 1)
    assert (lost.verdict, lost.missing, lost.extra) == ("missing", 2, 0)
    assert checks.runs_problem(lost) == (
        "effects: the host ran 1 time(s) for 3 execution(s) (2 missing, 0 extra)"
    )
    twice = checks.runs(1, 2)
    assert (twice.verdict, twice.extra) == ("duplicated", 1)
    assert checks.runs(3, 0).verdict == "none"
    assert checks.runs_problem(checks.runs(2, 2)) is None


def _host_sin_scale(mechanism: str, variant_id: str) -> Any:
    """A variant whose sin_scale calls the host through ``mechanism``, counted by its probe."""
    import jax

    def on_host(x: Any, y: Any) -> Any:
        return (np.sin(x) * y + 1).astype(x.dtype)

    module = types.SimpleNamespace(on_host=on_host)

    def sin_scale(x, y):  # type: ignore[no-untyped-def]
        shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
        if mechanism == "io_callback":
            return jax.experimental.io_callback(module.on_host, shape, x, y)
        return jax.pure_callback(module.on_host, shape, x, y, vmap_method="sequential")

    unsupported = {c.name: "-" for c in CATALOG if c.name != "sin_scale"}
    return from_dict(
        _variant_dict(
            id=variant_id,
            mechanism=mechanism,
            implementations={"sin_scale": sin_scale},
            unsupported=unsupported,
            modules={"sin_scale": module},
            probe={"sin_scale": ("on_host",)},
        )
    )


def test_an_io_callback_run_fewer_times_than_executed_is_wrong() -> None:
    """grad of a 3-step scan with the call on loop constants: JAX runs the host once (every
    committed JAX), so the effect owed on each step is lost; a pure_callback owes nothing."""
    import jax.experimental  # noqa: F401  (io_callback)

    io = _host_sin_scale("io_callback", "io_callback/test")
    assert io.owes_runs
    cell = run_cell(io, by_name("sin_scale"), by_id("grad_scan_const"))
    assert cell.host_calls == 1
    assert cell.effects is not None
    assert (cell.effects.expected, cell.effects.arrived, cell.effects.verdict) == (3, 1, "missing")
    assert (cell.status, cell.reason) == (
        "wrong",
        "effects: the host ran 1 time(s) for 3 execution(s) (2 missing, 0 extra)",
    )
    kept = run_cell(io, by_name("sin_scale"), by_id("jit_unused"))
    assert (kept.status, kept.host_calls, kept.effects.verdict) == ("ok", 1, "exact")  # type: ignore[union-attr]
    pure = _host_sin_scale("pure_callback", "pure_callback/test")
    assert not pure.owes_runs
    cell = run_cell(pure, by_name("sin_scale"), by_id("grad_scan_const"))
    assert (cell.status, cell.effects) == ("ok", None)


def test_the_shared_compilation_cache_warnings_are_not_the_cells() -> None:
    """A worker may read a cache entry another worker is still writing: JAX warns and
    compiles the program itself. That warning is the harness's, never a cell's."""
    import warnings

    import jax.numpy as jnp

    def noisy(x, y):  # type: ignore[no-untyped-def]
        warnings.warn(
            "Error reading persistent compilation cache entry for 'jit_f': error: Error -5",
            UserWarning,
            stacklevel=1,
        )
        return jnp.sin(x) * y + 1

    unsupported = {c.name: "-" for c in CATALOG if c.name != "sin_scale"}
    v = from_dict(_variant_dict(implementations={"sin_scale": noisy}, unsupported=unsupported))
    cell = run_cell(v, by_name("sin_scale"), by_id("eager"))
    assert (cell.status, cell.warning) == ("ok", None)

    def also(x, y):  # type: ignore[no-untyped-def]
        warnings.warn("something of the cell's own", UserWarning, stacklevel=1)
        return noisy(x, y)

    v = from_dict(_variant_dict(implementations={"sin_scale": also}, unsupported=unsupported))
    cell = run_cell(v, by_name("sin_scale"), by_id("eager"))
    assert cell.warning == "UserWarning: something of the cell's own"


def test_compare_lists_changed_fields() -> None:
    cell = Cell(variant="v", computation="c", transform="t", status="ok", host_calls=2)
    old = cell.model_copy(update={"status": "error", "host_calls": 1})
    assert matrix.compare(old, cell) == [
        "status: committed 'error', measured 'ok'",
        "host_calls: committed 1, measured 2",
    ]


def test_terminal_view_fits_80_columns(tmp_path: Path) -> None:
    variants = discover()
    env = {
        "jax": "x",
        "jaxlib": "x",
        "python": "3",
        "numpy": "2",
        "scipy": "1",
        "platform": "cpu",
        "device_count": 4,
        "device_kind": "cpu",
        "x64": False,
        "machine": "x86_64",
        "processor": "p",
        "os": "linux",
    }
    data = MatrixFile.model_validate(
        {
            "environment": env,
            "variants": [VariantInfo.model_validate(v.to_json()) for v in variants],
            "computations": [matrix.computation_info(c) for c in CATALOG],
            "transforms": [matrix.transform_info(t) for t in TRANSFORMS],
            "cells": [
                Cell(variant=v.id, computation=c.name, transform=t.id, status="ok")
                for v in variants
                for c in CATALOG
                for t in TRANSFORMS
            ],
        }
    )
    text = cli.render(data)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "sin_scale" in text
    assert "vmap∘grad" in text
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data.model_dump(mode="json", by_alias=True)))
    assert load_matrix(path).cells[0].status == "ok"


def test_cli_catalog_lists_every_computation_and_variant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["catalog"]) == 0
    out = capsys.readouterr().out
    for c in CATALOG:
        assert c.signature in out
    for v in discover():
        assert v.id in out


def test_cli_matrix_runs_a_slice_and_refuses_partial_writes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["matrix", "-m", "native", "-c", "sin_scale", "-t", "jit", "-t", "grad", "-j", "1"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "sin_scale" in out
    assert "2 cells in" in out
    assert cli.main([*argv, "--write", "--output", str(tmp_path / "m.json")]) == 2
    assert "refusing to --write a partial matrix" in capsys.readouterr().err
    assert not (tmp_path / "m.json").exists()


def test_a_whole_batch_per_step_is_split_by_the_state_rank() -> None:
    records = [(np.array(1), np.array([[1.0], [5.0]])), (np.array(2), np.array([2.0]))]
    assert [k for k, _ in checks.split(records, state_ndim=1)] == [1, 1, 2]
    assert _check(checks.split(records, state_ndim=1))["verdict"] == "exact"
    assert len(checks.split(records)) == 2


def test_a_variant_may_limit_its_transforms_but_must_say_why() -> None:
    impls = {"sin_scale": lambda x, y: x}
    unsupported = {c.name: "-" for c in CATALOG if c.name != "sin_scale"}
    with pytest.raises(ValueError, match="limits its transforms without saying why"):
        from_dict(
            _variant_dict(implementations=impls, unsupported=unsupported, transforms=["vmap"])
        )
    v = from_dict(
        _variant_dict(
            implementations=impls, unsupported=unsupported, transforms=["vmap"], scope="only vmap"
        )
    )
    cell = run_cell(v, by_name("sin_scale"), by_id("jit"))
    assert (cell.status, cell.reason) == ("n/a", "only vmap")


def test_a_mapping_probe_must_name_host_functions_that_exist() -> None:
    module = types.SimpleNamespace(on_host=print, __name__="m")
    impls = {"sin_scale": lambda x, y: x}
    unsupported = {c.name: "-" for c in CATALOG if c.name != "sin_scale"}
    base: dict[str, Any] = {
        "implementations": impls,
        "unsupported": unsupported,
        "modules": {"sin_scale": module},
    }
    with pytest.raises(ValueError, match="m has no host function 'on_host_vjp'"):
        from_dict(_variant_dict(**base, probe={"sin_scale": ("on_host", "on_host_vjp")}))
    with pytest.raises(ValueError, match=r"the probe names no host function for \['sin_scale'\]"):
        from_dict(_variant_dict(**base, probe={}))
    with pytest.raises(ValueError, match="probe must be None"):
        from_dict(_variant_dict(**base, probe="on_host"))


def test_a_registry_key_nobody_reads_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"unknown keys \['modles'\]"):
        from_dict(_variant_dict(modles={}))
