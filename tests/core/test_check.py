"""`jaxcb check`: every rule on small sources, the output formats, exit statuses, bad input,
the seed texts' code and the repository's own packages. Nothing here needs JAX."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jaxcb_check import checker as check
from jaxcb_check.checker import RULE, RULES, Finding, check_paths, check_source
from jaxcb_core.cli import main

ROOT = Path(__file__).resolve().parents[2]
SEEDS = Path(__file__).with_name("seeds")
CHECK_PY = ROOT / "packages" / "jaxcb-check" / "src" / "jaxcb_check" / "checker.py"


def found(source: str) -> list[tuple[str, int, int]]:
    return [(f.rule, f.line, f.col) for f in check_source(textwrap.dedent(source))]


def one(source: str) -> Finding:
    (f,) = check_source(textwrap.dedent(source))
    return f


# ---------------------------------------------------------------------------- host_callback


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            """\
            from jax.experimental import host_callback as hcb
            hcb.id_tap(tap, x)
            """,
            [("JXC005", 1, 30), ("JXC001", 2, 1)],
            id="from-import-as",
        ),
        pytest.param(
            """\
            import jax.experimental.host_callback
            y = jax.experimental.host_callback.id_print(x)
            """,
            [("JXC005", 1, 8), ("JXC002", 2, 5)],
            id="import-dotted",
        ),
        pytest.param(
            """\
            def f(x):
                import jax.experimental.host_callback as hcb
                return hcb.call(g, x, result_shape=x)
            """,
            [("JXC005", 2, 12), ("JXC003", 3, 12)],
            id="import-in-function",
        ),
        pytest.param(
            """\
            from jax.experimental.host_callback import barrier_wait as wait
            wait()
            """,
            [("JXC005", 1, 44), ("JXC004", 2, 1)],
            id="from-module-import-function",
        ),
        pytest.param(
            """\
            from jax.experimental import host_callback
            host_callback.stop_outfeed_receiver()
            """,
            [("JXC005", 1, 30), ("JXC005", 2, 1)],
            id="other-attribute",
        ),
        pytest.param(
            """\
            try:
                import jax.experimental.host_callback as hcb
            except (ImportError, AttributeError):
                hcb = None
            """,
            [],
            id="guarded-import-is-a-probe",
        ),
        pytest.param(
            """\
            import jax
            def id_tap(f, x):
                return x
            id_tap(print, 1)
            jax.debug.callback(print, 1)
            """,
            [],
            id="same-names-elsewhere",
        ),
    ],
)
def test_host_callback_rules(source: str, expected: list[tuple[str, int, int]]) -> None:
    assert found(source) == expected


def test_host_callback_messages() -> None:
    src = """\
        from jax.experimental import host_callback as hcb
        hcb.id_tap(tap, x)
        hcb.id_print(x)
        hcb.call(f, x, result_shape=x)
        hcb.barrier_wait()
        hcb.outfeed_receiver
        """
    got = {(f.rule, f.message, f.replacement) for f in check_source(textwrap.dedent(src))}
    assert got == {
        ("JXC005", "jax.experimental.host_callback no longer exists", RULE["JXC005"].replacement),
        ("JXC001", "host_callback.id_tap was removed from JAX", RULE["JXC001"].replacement),
        ("JXC002", "host_callback.id_print was removed from JAX", RULE["JXC002"].replacement),
        ("JXC003", "host_callback.call was removed from JAX", RULE["JXC003"].replacement),
        ("JXC004", "host_callback.barrier_wait was removed from JAX", "jax.effects_barrier()"),
        (
            "JXC005",
            "jax.experimental.host_callback.outfeed_receiver no longer exists",
            RULE["JXC005"].replacement,
        ),
    }
    assert "io_callback" in RULE["JXC001"].replacement
    assert "jax.debug.callback" in RULE["JXC001"].replacement
    assert RULE["JXC002"].replacement.startswith('jax.debug.print("{x}", x=x)')
    assert RULE["JXC003"].replacement.startswith("jax.pure_callback(")


# ---------------------------------------------------------------------------- vectorized, vmap_method


def test_vectorized_true() -> None:
    f = one("import jax\ny = jax.pure_callback(f, r, x, vectorized=True)\n")
    assert (f.rule, f.line, f.col) == ("JXC006", 2, 32)
    assert f.message == "pure_callback(vectorized=...) was removed from JAX"
    assert f.replacement.startswith('vmap_method="expand_dims" if fn broadcasts')


def test_vectorized_false_and_ffi_call() -> None:
    src = """\
        from jax import pure_callback
        from jax.extend import ffi
        a = pure_callback(f, r, x, vectorized=False)
        b = ffi.ffi_call("target", r, vectorized=v)(x)
        """
    fs = check_source(textwrap.dedent(src))
    assert [(f.rule, f.line, f.col) for f in fs] == [
        ("JXC013", 2, 24),  # the import of jax.extend.ffi itself
        ("JXC006", 3, 28),
        ("JXC006", 4, 31),
    ]
    assert fs[1].replacement == 'vmap_method="sequential"'
    assert fs[2].message == "ffi_call(vectorized=...) was removed from JAX"
    assert fs[2].replacement == RULE["JXC006"].replacement  # not a literal: both cases named


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("import jax\njax.pure_callback(f, r, x)\n", [("JXC007", 2, 1)], id="jax."),
        pytest.param(
            "from jax import pure_callback as pc\ny = pc(f, r, x)\n", [("JXC007", 2, 5)], id="alias"
        ),
        pytest.param(
            "import jax\ncall = jax.ffi.ffi_call('t', r)\n", [("JXC007", 2, 8)], id="ffi_call"
        ),
        pytest.param(
            "import jax.extend as jex\njex.ffi.ffi_call('t', r)(x)\n",
            [("JXC007", 2, 1), ("JXC013", 2, 1)],
            id="jax.extend.ffi",
        ),
        pytest.param(
            "import jax\njax.pure_callback(f, r, x, vmap_method='sequential')\n", [], id="given"
        ),
        pytest.param("import jax\njax.pure_callback(f, r, x, **options)\n", [], id="kwargs"),
        pytest.param("pure_callback(f, r, x)\n", [], id="not-jax"),
        pytest.param(
            "import jax\nbuffer = jax.pure_callback\n", [], id="a-reference-is-not-a-call"
        ),
    ],
)
def test_missing_vmap_method(source: str, expected: list[tuple[str, int, int]]) -> None:
    assert found(source) == expected


def test_missing_vmap_method_messages() -> None:
    plain = one("import jax\njax.pure_callback(f, r, x)\n")
    assert plain.message == (
        "pure_callback without vmap_method may raise NotImplementedError: it does if jax.vmap "
        "batches x (to tell: is this code run under jax.vmap, here or by a caller, with x "
        "mapped?)"
    )
    assert plain.replacement.startswith('vmap_method="sequential", the old default')
    unknown = one("import jax\ncall = jax.ffi.ffi_call('t', r)\n")
    assert unknown.message == (
        "ffi_call without vmap_method may raise NotImplementedError: the function it returns "
        "does if jax.vmap batches an operand it is called with (to tell: is that call run "
        "under jax.vmap with an operand mapped?)"
    )
    vmapped = one(
        """\
        import jax
        def g(x):
            return jax.pure_callback(f, r, x)
        batched = jax.vmap(g)
        """
    )
    assert vmapped.message == (
        "pure_callback without vmap_method under jax.vmap (g, vmapped on line 4): "
        "that raises NotImplementedError"
    )


# ---------------------------------------------------------------------------- jax.experimental.export


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("from jax.experimental import export\n", [("JXC008", 1, 30)], id="from"),
        pytest.param("import jax.experimental.export as ex\n", [("JXC008", 1, 8)], id="import"),
        pytest.param(
            "from jax.experimental.export import export, symbolic_shape\n",
            [("JXC008", 1, 37), ("JXC008", 1, 45)],
            id="from-module",
        ),
        pytest.param("from jax import export\nimport jax.export\n", [], id="new-module"),
        pytest.param(
            """\
            try:
                from jax import export
            except ImportError:
                from jax.experimental import export
            """,
            [],
            id="fallback",
        ),
    ],
)
def test_experimental_export(source: str, expected: list[tuple[str, int, int]]) -> None:
    assert found(source) == expected


def test_experimental_export_message() -> None:
    f = one("from jax.experimental import export\n")
    assert f.message == "jax.experimental.export was removed from JAX"
    assert f.replacement.startswith("from jax import export")


# ---------------------------------------------------------------------------- debug.print


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param('import jax\njax.debug.print(f"x = {x}")\n', [("JXC009", 2, 17)], id="fstr"),
        pytest.param(
            'from jax import debug\ndebug.print(fmt=f"{x!r:>4}")\n', [("JXC009", 2, 17)], id="kw"
        ),
        pytest.param('import jax\njax.debug.print("x = {x}", x=x)\n', [], id="format-string"),
        pytest.param('import jax\njax.debug.print(f"no placeholder")\n', [], id="constant"),
        pytest.param('print(f"{x}")\n', [], id="builtin-print"),
    ],
)
def test_fstring_in_debug_print(source: str, expected: list[tuple[str, int, int]]) -> None:
    assert found(source) == expected


def test_fstring_message() -> None:
    f = one('import jax\njax.debug.print(f"x = {x}")\n')
    assert f.message == (
        "f-string in jax.debug.print: it is formatted once, at trace time, with tracers"
    )
    assert f.replacement.startswith('jax.debug.print("x = {x}", x=x)')


# ---------------------------------------------------------------------------- raise / assert


def test_raise_in_pure_callback_function() -> None:
    # the example of JAX's "pure_callback and exceptions" section
    f = one(
        """\
        import jax

        def raise_via_callback(x):
          def _raise(x):
            raise ValueError(f"value of x is {x}")
          return jax.pure_callback(_raise, x, x, vmap_method="sequential")
        """
    )
    assert (f.rule, f.line, f.col) == ("JXC010", 5, 5)
    assert f.message == (
        "raise in _raise, which is passed to pure_callback on line 6: the behaviour is undefined"
    )
    assert "checkify" in f.replacement


def test_raise_and_assert_through_partial_and_keyword() -> None:
    src = """\
        import functools
        import jax

        def host(scale, x):
            assert x.ndim == 1
            if scale < 0:
                raise ValueError("negative scale")
            def inner():
                raise RuntimeError("not this one: inner is not the callback")
            return x * scale

        def f(x):
            cb = functools.partial(host, 2.0)
            return jax.pure_callback(cb, x, x, vmap_method="sequential")

        def g(x):
            return jax.pure_callback(callback=functools.partial(host, 1.0),
                                     result_shape_dtypes=x, vmap_method="sequential")
        """
    # `cb` is a variable, not a function: only the partial passed inline is resolved
    fs = check_source(textwrap.dedent(src))
    assert [(f.rule, f.line, f.col) for f in fs] == [("JXC011", 5, 5), ("JXC010", 7, 9)]
    assert fs[0].message == (
        "assert in host, which is passed to pure_callback on line 17: "
        "if it fails, the behaviour is undefined"
    )


def test_raise_elsewhere_is_fine() -> None:
    src = """\
        import jax
        from jax.experimental import io_callback

        def host(x):
            raise ValueError("io_callback may fail")

        io_callback(host, None, 1)
        jax.pure_callback(lambda x: x, 1, 1, vmap_method="sequential")
        jax.pure_callback(undefined_here, 1, 1, vmap_method="sequential")
        """
    assert found(src) == []


# ---------------------------------------------------------------------------- ordered io_callback under vmap


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            """\
            import jax
            from jax.experimental import io_callback

            @jax.vmap
            def f(x):
                return io_callback(log, x, x, ordered=True)
            """,
            [("JXC012", 6, 12)],
            id="decorator",
        ),
        pytest.param(
            """\
            from functools import partial
            import jax
            import jax.experimental as jexp

            @partial(jax.vmap, in_axes=(0, None))
            def f(x, y):
                return jexp.io_callback(log, x, x, ordered=True)
            """,
            [("JXC012", 7, 12)],
            id="partial-decorator",
        ),
        pytest.param(
            """\
            import jax
            from jax import lax
            from jax.experimental import io_callback

            def log_step(c, x):
                io_callback(print, None, x, ordered=True)
                return c, x

            def f(xs):
                return lax.scan(log_step, 0, xs)

            def g(xs):
                return f(xs)

            run = jax.jit(jax.vmap(jax.jit(g)))
            """,
            [("JXC012", 6, 5)],
            id="through-calls",
        ),
        pytest.param(
            """\
            import jax
            from jax.experimental import io_callback
            out = jax.vmap(lambda x: io_callback(log, x, x, ordered=True))(xs)
            """,
            [("JXC012", 3, 26)],
            id="lambda",
        ),
        pytest.param(
            """\
            import jax
            from jax.experimental import io_callback

            @jax.vmap
            def f(x):
                return io_callback(log, x, x, ordered=False)

            def g(x):
                return io_callback(log, x, x, ordered=True)
            """,
            [],
            id="unordered-or-not-vmapped",
        ),
    ],
)
def test_ordered_io_callback_under_vmap(source: str, expected: list[tuple[str, int, int]]) -> None:
    assert found(source) == expected


def test_ordered_io_callback_message() -> None:
    f = one(
        """\
        import jax
        from jax.experimental import io_callback

        def f(x):
            return io_callback(log, x, x, ordered=True)

        batched = jax.vmap(f)
        """
    )
    assert f.message == (
        "io_callback(ordered=True) under jax.vmap (f, vmapped on line 7) raises ValueError"
    )
    assert f.replacement.startswith("ordered=False")


# ---------------------------------------------------------------------------- noqa, columns


def test_noqa_silences_only_the_named_rule() -> None:
    src = """\
        import jax
        a = jax.pure_callback(f, r, x)  # noqa: JXC007 (never vmapped)
        b = jax.pure_callback(f, r, x)  # noqa: E501
        c = jax.pure_callback(f, r, x, vectorized=True)  # noqa: JXC007, JXC009
        """
    assert found(src) == [("JXC007", 3, 5), ("JXC006", 4, 32)]


def test_columns_count_characters_not_bytes() -> None:
    f = one('import jax\ns = "纯回调"; jax.pure_callback(f, r, x)\n')
    assert (f.line, f.col) == (2, 12)  # as ruff counts: 1-based characters


# ---------------------------------------------------------------------------- the rule table


def test_rule_table() -> None:
    assert [r.id for r in RULES] == [f"JXC{i:03d}" for i in range(1, len(RULES) + 1)]
    assert {r.id for r in RULES if r.heuristic} == {
        "JXC007",
        "JXC009",
        "JXC011",
        "JXC012",
        "JXC017",
    }
    for r in RULES:
        assert r.title
        assert r.message
        assert r.replacement
        assert r.facts, f"{r.id} cites no JAX fact"
        assert all(f.text and f.source and f.url.startswith("https://") for f in r.facts)
        assert "\n" not in r.message + r.replacement
        if r.heuristic:
            assert r.note, f"{r.id}: a heuristic says what it may get wrong"
        # the JAX versions a finding is about: "JAX 0.6.0 and later", "any JAX version"
        assert re.fullmatch(r"JAX \d+\.\d+\.\d+ and later(, .+)?|any JAX version", r.versions)


def test_the_check_page_names_each_rules_versions() -> None:
    """docs/check.md's "Which JAX versions" table is the rule table's `versions`."""
    page = (ROOT / "docs" / "check.md").read_text(encoding="utf-8")
    section = page.split("### Which JAX versions", 1)[1].split("\n### ", 1)[0]
    rows = dict(re.findall(r"^\| `(JXC\d{3})` \| (.+?) \|$", section, re.M))
    assert rows == {r.id: r.versions for r in RULES}


# ---------------------------------------------------------------------------- formats, exit status


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


def test_text_format_and_status_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "a.py", "import jax\njax.pure_callback(f, r, x)\n")
    assert main(["check", str(p)]) == 1
    out, err = capsys.readouterr()
    assert out == (
        f"{p}:2:1: JXC007 pure_callback without vmap_method may raise NotImplementedError: it "
        "does if jax.vmap batches x (to tell: is this code run under jax.vmap, here or by a "
        f"caller, with x mapped?) (JAX 0.6.0 and later; use: {RULE['JXC007'].replacement})\n"
    )
    assert err == "jaxcb check: 1 finding in 1 file\n"


def test_json_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "a.py", 'import jax\njax.debug.print(f"{x}")\n')
    q = write(tmp_path, "b.py", "x = 1\n")
    assert main(["check", "--format", "json", str(p), str(q)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data == {
        "findings": [
            {
                "path": str(p),
                "line": 2,
                "col": 17,
                "rule": "JXC009",
                "message": RULE["JXC009"].message,
                "replacement": RULE["JXC009"].replacement,
                "heuristic": True,
                "versions": "any JAX version",
            }
        ],
        "errors": [],
        "files_checked": 2,
    }


def test_json_format_nothing_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "a.py", "import jax\n")
    assert main(["check", "--format", "json", str(p)]) == 0
    assert json.loads(capsys.readouterr().out) == {"findings": [], "errors": [], "files_checked": 1}


def test_status_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(
        tmp_path, "a.py", "import jax\njax.pure_callback(f, r, x, vmap_method='expand_dims')\n"
    )
    assert main(["check", str(p)]) == 0
    assert capsys.readouterr() == ("", "")


def test_status_2_when_nothing_could_be_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(tmp_path / "missing.py")]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'missing.py'}: cannot read: No such file or directory" in err
    assert err.endswith("jaxcb check: no file could be read\n")


def test_directories_are_walked_skipping_tool_folders(tmp_path: Path) -> None:
    bad = "import jax\njax.pure_callback(f, r, x)\n"
    write(tmp_path, "pkg/mod.py", bad)
    write(tmp_path, "pkg/sub/deep.py", bad)
    write(tmp_path, "pkg/notes.txt", bad)
    for skipped in (".git", ".tox", ".venv", "node_modules", "__pycache__"):
        write(tmp_path, f"pkg/{skipped}/x.py", bad)
    report = check_paths([str(tmp_path / "pkg")])
    assert [Path(f.path).relative_to(tmp_path).as_posix() for f in report.findings] == [
        "pkg/mod.py",
        "pkg/sub/deep.py",
    ]
    assert report.files_read == 2
    assert report.errors == []


# ---------------------------------------------------------------------------- bad input


@pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0,
    reason="running as root: chmod 000 does not stop root from reading the file "
    "(test_unreadable_path covers the read failure another way)",
)
def test_unreadable_file(tmp_path: Path) -> None:
    p = write(tmp_path, "secret.py", "x = 1\n")
    p.chmod(0)
    try:
        report = check_paths([str(p)])
    finally:
        p.chmod(0o600)
    assert report.errors == [f"{p}: cannot read: Permission denied; not checked"]
    assert report.status == 2


def test_unreadable_path(tmp_path: Path) -> None:
    # a path below a file: open() fails with ENOTDIR, whoever runs the test
    f = write(tmp_path, "plain.py", "x = 1\n")
    report = check_paths([str(f / "inside.py")])
    assert report.errors == [f"{f / 'inside.py'}: cannot read: Not a directory; not checked"]
    assert report.status == 2


def test_dangling_symlink(tmp_path: Path) -> None:
    link = tmp_path / "link.py"
    link.symlink_to(tmp_path / "gone.py")
    report = check_paths([str(link)])
    assert report.errors == [f"{link}: broken symbolic link; not checked"]


def test_syntax_error_names_path_and_line(tmp_path: Path) -> None:
    p = write(tmp_path, "broken.py", "import jax\n\ndef f(:\n    pass\n")
    report = check_paths([str(p)])
    assert len(report.errors) == 1
    assert report.errors[0].startswith(f"{p}:3:")
    assert "syntax error" in report.errors[0]
    assert report.errors[0].endswith("not checked")


def test_binary_file(tmp_path: Path) -> None:
    p = tmp_path / "blob.py"
    p.write_bytes(b"\x7fELF\x00\x01\x02\x03")
    report = check_paths([str(p)])
    assert report.errors == [f"{p}: binary file, not Python source; not checked"]


def test_empty_directory(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    write(tmp_path, "empty/readme.txt", "no Python here\n")
    report = check_paths([str(tmp_path / "empty")])
    assert report.errors == [f"{tmp_path / 'empty'}: no Python files in this directory"]
    assert report.status == 2


def test_goes_on_after_bad_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = write(tmp_path, "broken.py", "def f(:\n")
    blob = tmp_path / "blob.py"
    blob.write_bytes(b"\x00\x00")
    good = write(tmp_path, "good.py", "from jax.experimental import export\n")
    (tmp_path / "empty").mkdir()
    args = [str(broken), str(blob), str(tmp_path / "empty"), str(good)]
    assert main(["check", *args]) == 2  # findings, but three paths went unchecked
    out, err = capsys.readouterr()
    assert out.startswith(f"{good}:1:30: JXC008 ")
    for bad in (broken, blob, tmp_path / "empty"):
        assert str(bad) in err
    assert err.endswith("jaxcb check: 3 paths not checked\n")


def test_an_unparsable_file_beside_a_clean_one_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """pre-commit passes several files at once: one that cannot be parsed is never a pass."""
    broken = write(tmp_path, "broken.py", "def f(:\n")
    clean = write(tmp_path, "clean.py", "x = 1\n")
    assert main(["check", "--format", "json", str(broken), str(clean)]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["findings"] == []
    assert data["files_checked"] == 1
    assert data["errors"] == [
        {"path": str(broken), "message": f"{broken}:1:7: syntax error: invalid syntax; not checked"}
    ]


def test_fifo_is_not_read(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no os.mkfifo on this platform")
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    report = check_paths([str(fifo)])  # opening it would block until a writer came
    assert report.errors == [f"{fifo}: not a regular file; not checked"]


# ---------------------------------------------------------------------------- never runs the code


def test_never_executes_the_checked_code(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    p = write(
        tmp_path,
        "trap.py",
        f"""\
        import pathlib
        pathlib.Path({str(marker)!r}).write_text("imported")
        raise SystemExit("executed!")
        import jax
        jax.pure_callback(f, r, x)
        """,
    )
    report = check_paths([str(p)])
    assert not marker.exists()
    assert [(f.rule, f.line) for f in report.findings] == [("JXC007", 5)]


def test_check_imports_no_jax(tmp_path: Path) -> None:
    p = write(tmp_path, "a.py", "import jax\njax.pure_callback(f, r, x)\n")
    code = (
        "import sys\n"
        "from jaxcb_core.cli import main\n"
        f"status = main(['check', {str(p)!r}])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('jax', 'jaxlib', 'numpy', 'scipy', 'pydantic'))\n"
        "assert status == 1 and not heavy, (status, heavy)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, timeout=60)


def test_runs_as_a_script_like_the_pre_commit_hook(tmp_path: Path) -> None:
    p = write(tmp_path, "a.py", "import jax\njax.pure_callback(f, r, x, vectorized=True)\n")
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "- id: jaxcb-check" in hooks
    assert "entry: packages/jaxcb-check/src/jaxcb_check/checker.py" in hooks
    assert "language: script" in hooks
    assert "types: [python]" in hooks
    assert CHECK_PY.read_text(encoding="utf-8").startswith("#!/usr/bin/env python3\n")
    assert os.access(CHECK_PY, os.X_OK), "pre-commit runs the file itself: keep it executable"
    run = subprocess.run(
        [str(CHECK_PY), str(p)], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert run.returncode == 1
    assert run.stdout.startswith(f"{p}:2:28: JXC006 ")


def test_cli_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "jaxcb check src/" in capsys.readouterr().out


# ---------------------------------------------------------------------------- the seed texts


def test_seed_000_chinese_pure_callback_tutorial() -> None:
    path = SEEDS / "seed_000.py"
    got = [(f.rule, f.line, f.col, f.message) for f in check_paths([str(path)]).findings]
    assert got == [
        (
            "JXC007",
            29,
            12,
            "pure_callback without vmap_method under jax.vmap (jax_function_using_callback, "
            "vmapped on line 58): that raises NotImplementedError",
        ),
        (
            "JXC007",
            81,
            25,
            "pure_callback without vmap_method may raise NotImplementedError: it does if "
            "jax.vmap batches arr (to tell: is this code run under jax.vmap, here or by a "
            "caller, with arr mapped?)",
        ),
    ]


def test_seed_004_early_external_callbacks_guide() -> None:
    path = SEEDS / "seed_004.py"
    got = [(f.rule, f.line, f.col, f.replacement) for f in check_paths([str(path)]).findings]
    assert got == [
        (
            "JXC006",
            27,
            65,
            'vmap_method="expand_dims" if fn broadcasts, "broadcast_all" if it needs equal shapes',
        )
    ]


# ---------------------------------------------------------------------------- the repository's packages

# jaxcb-legacy measures the removed APIs on purpose: host_callback (JXC001–JXC005),
# vectorized= (JXC006) and the old implicit vmap default (JXC007, its `sequential` form).
LEGACY_RULES = {"JXC001", "JXC002", "JXC003", "JXC004", "JXC005", "JXC006", "JXC007"}


def test_every_package_pattern() -> None:
    files = sorted(str(p) for p in ROOT.glob("packages/*/src/**/*.py"))
    assert len(files) > 40
    report = check_paths(files)
    assert report.errors == []
    assert report.files_read == len(files)
    legacy, other = [], set()
    for f in report.findings:
        rel = Path(f.path).relative_to(ROOT).as_posix()
        if rel.startswith("packages/jaxcb-legacy/"):
            legacy.append(f)
        else:
            other.add((rel, f.rule))
    assert other == set()  # every pattern outside jaxcb-legacy is clean
    assert legacy, "jaxcb-legacy uses host_callback and vectorized= on purpose"
    assert {f.rule for f in legacy} <= LEGACY_RULES
    assert {f.rule for f in legacy} >= {"JXC001", "JXC003", "JXC005", "JXC006"}
    jxc007 = [f for f in legacy if f.rule == "JXC007"]
    assert sorted(Path(f.path).name for f in jxc007) == [
        "bessel_jv.py",
        "cubic_root.py",
        "expm.py",
        "sin_scale.py",
        "sum_mean.py",
    ]


def test_module_is_standard_library_only() -> None:
    tree_imports = {
        line.split()[1].split(".")[0]
        for line in CHECK_PY.read_text(encoding="utf-8").splitlines()
        if line.startswith(("import ", "from "))
    }
    assert tree_imports <= set(sys.stdlib_module_names) | {"__future__"}
    assert check.__all__


# ---------------------------------------------------------------------------- deep trees


@pytest.mark.parametrize("terms", [500, 2000])
def test_a_deep_expression_is_checked_not_skipped(terms: int) -> None:
    """A long sum that Python compiles parses into a tree as deep as it is long: the walk
    has no recursion limit (the recursive walk it replaced stopped between 400 and 500
    terms)."""
    total = " + ".join(f"x{i}" for i in range(terms))
    src = f"import jax\ny = {total} + jax.pure_callback(f, r, x)\n"
    assert [(r, line) for r, line, _ in found(src)] == [("JXC007", 2)]


@pytest.mark.parametrize("terms", [2000])
def test_a_deep_operand_and_test_are_checked(terms: int) -> None:
    total = " + ".join(f"x{i}" for i in range(terms))
    src = (
        "import jax\n"
        f"def f(x0):\n    return jax.pure_callback(f, r, {total})\n"
        f"if {total} == 1:\n    jax.pure_callback(f, r, y, vectorized=True)\n"
    )
    got = [(r, line) for r, line, _ in found(src)]
    assert got == [("JXC007", 3), ("JXC006", 5)]


# ---------------------------------------------------------------------------- the FFI migration


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("import jax.extend.ffi\n", [("JXC013", 1, 8)], id="import"),
        pytest.param("from jax.extend import ffi\n", [("JXC013", 1, 24)], id="from-import"),
        pytest.param(
            "from jax.extend.ffi import register_ffi_target\n", [("JXC013", 1, 28)], id="name"
        ),
        pytest.param(
            "import jax\njax.extend.ffi.register_ffi_target('t', c)\n",
            [("JXC013", 2, 1)],
            id="spelled-out",
        ),
        pytest.param(
            "try:\n    from jax import ffi\nexcept ImportError:\n    from jax.extend import ffi\n",
            [],
            id="version-probe",
        ),
        pytest.param("import jax\njax.ffi.register_ffi_target('t', c)\n", [], id="jax.ffi"),
    ],
)
def test_jax_extend_ffi(source: str, expected: list[tuple[str, int, int]]) -> None:
    assert found(source) == expected


def test_ffi_call_with_inline_operands() -> None:
    f = one("import jax\ny = jax.ffi.ffi_call('t', out, x, y, vmap_method='broadcast_all')\n")
    assert (f.rule, f.line, f.col) == ("JXC014", 2, 5)
    assert (
        f.replacement == "jax.ffi.ffi_call(name, result_shape_dtypes, vmap_method=...)(*operands)"
    )
    assert found("import jax\ny = jax.ffi.ffi_call('t', out, vmap_method='sequential')(x)\n") == []


@pytest.mark.parametrize("method", ["expand_dim", "vectorized", "Sequential"])
def test_unknown_vmap_method(method: str) -> None:
    f = one(f"import jax\njax.pure_callback(f, r, x, vmap_method={method!r})\n")
    assert (f.rule, f.col) == ("JXC015", 28)
    assert f.message == (
        f"vmap_method={method!r} is not one of the values JAX accepts: the call raises ValueError"
    )


@pytest.mark.parametrize(
    "method",
    ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all", "legacy_vectorized"],
)
def test_known_vmap_method(method: str) -> None:
    assert found(f"import jax\njax.ffi.ffi_call('t', r, vmap_method={method!r})(x)\n") == []


# ---------------------------------------------------------------------------- strings formatted in Python


@pytest.mark.parametrize(
    ("fmt", "how"),
    [
        pytest.param('f"x = {x}"', "f-string", id="f-string"),
        pytest.param('"x = {}".format(x)', "str.format", id="format"),
        pytest.param('"x = %s" % x', "%-formatting", id="percent"),
        pytest.param('"x = " + str(x)', "string concatenation", id="plus"),
        pytest.param('"a" + name + "b"', "string concatenation", id="plus-chain"),
    ],
)
def test_debug_print_of_a_string_python_formats(fmt: str, how: str) -> None:
    f = one(f"import jax\njax.debug.print({fmt})\n")
    assert f.rule == "JXC009"
    assert f.message == (
        f"{how} in jax.debug.print: it is formatted once, at trace time, with tracers"
    )


@pytest.mark.parametrize(
    "fmt",
    [
        pytest.param('f"{name}: {{x}}", x=x', id="static-text-around-a-placeholder"),
        pytest.param('"a" "b {x}", x=x', id="implicit-concatenation"),
        pytest.param('"a" + "b {x}", x=x', id="constants-only"),
        pytest.param('"x = {x}", x=x', id="plain"),
    ],
)
def test_debug_print_that_jax_formats(fmt: str) -> None:
    assert found(f"import jax\njax.debug.print({fmt})\n") == []


# ---------------------------------------------------------------------------- partial(io_callback)


def test_partial_ordered_io_callback_under_vmap() -> None:
    src = """\
        import functools
        import jax
        from jax.experimental import io_callback

        log = functools.partial(io_callback, ordered=True)

        def step(x):
            log(print, None, x)
            functools.partial(io_callback, ordered=True)(print, None, x)
            return x

        jax.vmap(step)(xs)
        """
    assert [(r, line) for r, line, _ in found(src)] == [("JXC012", 8), ("JXC012", 9)]
    unordered = src.replace("ordered=True", "ordered=False")
    assert found(unordered) == []


# ---------------------------------------------------------------------------- choosing rules


def test_select_and_ignore(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(
        tmp_path,
        "a.py",
        'import jax\njax.pure_callback(f, r, x)\njax.debug.print(f"{x}")\n',
    )
    assert main(["check", "--ignore", "JXC007", str(p)]) == 1
    assert [line.split()[1] for line in capsys.readouterr().out.splitlines()] == ["JXC009"]
    assert main(["check", "--select", "JXC00", "--ignore", "JXC009", str(p)]) == 1
    assert [line.split()[1] for line in capsys.readouterr().out.splitlines()] == ["JXC007"]
    assert main(["check", "--ignore", "JXC007,JXC009", str(p)]) == 0


def test_pyproject_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.jaxcb-check]\nignore = ["JXC007"]\n')
    sub = tmp_path / "src"
    p = write(sub, "a.py", 'import jax\njax.pure_callback(f, r, x)\njax.debug.print(f"{x}")\n')
    monkeypatch.chdir(sub)  # the nearest pyproject.toml above the working directory
    assert check.load_config() == check.Config(
        ignore=("JXC007",), source=f"{tmp_path / 'pyproject.toml'} [tool.jaxcb-check]"
    )
    assert main(["check", str(p)]) == 1
    assert [line.split()[1] for line in capsys.readouterr().out.splitlines()] == ["JXC009"]
    assert main(["check", "--ignore", "JXC009", str(p)]) == 1  # the command line replaces it
    assert [line.split()[1] for line in capsys.readouterr().out.splitlines()] == ["JXC007"]


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('select = ["JXC999"]', "select: unknown rule 'JXC999' (rules: JXC001 to JXC017)"),
        ('ignore = "JXC007"', "ignore must be a list of rule ids"),
        ('exclude = ["x"]', "unknown key 'exclude' (known: select, ignore)"),
    ],
)
def test_bad_configuration_is_status_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    table: str,
    message: str,
) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.jaxcb-check]\n{table}\n")
    p = write(tmp_path, "a.py", "x = 1\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", str(p)]) == 2
    err = capsys.readouterr().err
    assert err == f"jaxcb check: {tmp_path / 'pyproject.toml'} [tool.jaxcb-check]: {message}\n"


def test_unknown_rule_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = write(tmp_path, "a.py", "x = 1\n")
    assert main(["check", "--select", "JXD", str(p)]) == 2
    assert capsys.readouterr().err == (
        "jaxcb check: --select/--ignore: select: unknown rule 'JXD' (rules: JXC001 to JXC017)\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(
            ["--select", ""],
            "select is empty, so no rule would run: name rule ids or prefixes, or leave "
            "select out to run every rule",
            id="select-empty",
        ),
        pytest.param(
            ["--select", " , "],
            "select is empty, so no rule would run: name rule ids or prefixes, or leave "
            "select out to run every rule",
            id="select-commas",
        ),
        pytest.param(
            ["--select", "JXC007", "--ignore", "JXC00"],
            "ignore JXC00 leaves no rule to run: ignore fewer rules",
            id="ignore-everything-selected",
        ),
        pytest.param(
            ["--ignore", "JXC"],
            "ignore JXC leaves no rule to run: ignore fewer rules",
            id="ignore-all",
        ),
    ],
)
def test_no_rule_left_is_status_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    """A selection that turns every rule off would pass any file: it is an error, one line,
    from both commands."""
    monkeypatch.chdir(tmp_path)  # no pyproject.toml above it
    p = write(tmp_path, "a.py", "import jax\njax.pure_callback(f, r, x, vectorized=True)\n")
    assert main(["check", *args, str(p)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"jaxcb check: --select/--ignore: {message}\n")
    assert check.main([*args, str(p)]) == 2
    assert capsys.readouterr().err == f"jaxcb-check: --select/--ignore: {message}\n"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        pytest.param(
            "select = []",
            "select is empty, so no rule would run: name rule ids or prefixes, or leave "
            "select out to run every rule",
            id="select-empty",
        ),
        pytest.param(
            'ignore = ["JXC0"]',
            "ignore JXC0 leaves no rule to run: ignore fewer rules",
            id="ignore-all",
        ),
    ],
)
def test_no_rule_left_in_pyproject_is_status_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    table: str,
    message: str,
) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.jaxcb-check]\n{table}\n")
    p = write(tmp_path, "a.py", "from jax.experimental import host_callback as hcb\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", str(p)]) == 2
    out, err = capsys.readouterr()
    where = f"{tmp_path / 'pyproject.toml'} [tool.jaxcb-check]"
    assert (out, err) == ("", f"jaxcb check: {where}: {message}\n")


# ---------------------------------------------------------------------------- operands vmap cannot batch


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("pure_callback(h, r, unvmap_max(index))", id="unvmap-helper"),
        pytest.param("pure_callback(h, r, eqxi.unvmap_any(pred))", id="unvmap-attribute"),
        pytest.param("pure_callback(h, r, lax.pmax(index, 'batch'))", id="pmax-over-axis"),
        pytest.param("pure_callback(h, r, lax.psum(x, axis_name='b'))", id="psum-over-axis"),
        pytest.param("pure_callback(h, r, np.arange(3))", id="numpy"),
        pytest.param("pure_callback(h, r, jnp.zeros(x.shape))", id="shape"),
        pytest.param("pure_callback(h, r, jnp.arange(len(x)) + 1)", id="len"),
        pytest.param("pure_callback(h, r, TABLE, 2.0)", id="module-constants"),
        pytest.param("pure_callback(h, r)", id="no-operands"),
        pytest.param("pure_callback(h, r, x.shape[0])", id="static-attribute"),
        pytest.param("ffi.ffi_call('t', r)(TABLE, scale=x)", id="ffi-attributes-are-static"),
    ],
)
def test_unbatched_operands_are_not_reported(body: str) -> None:
    src = f"""\
        import equinox.internal as eqxi
        import jax.numpy as jnp
        import numpy as np
        from jax import ffi, lax, pure_callback
        TABLE = np.linspace(0, 1, 8)

        def f(x, index, pred):
            index = index if False else index
            return {body}
        """
    assert found(src) == []


@pytest.mark.parametrize(
    ("body", "names"),
    [
        pytest.param("pure_callback(h, r, x)", "x", id="parameter"),
        pytest.param("pure_callback(h, r, lax.stop_gradient(x))", "x", id="stop-gradient"),
        pytest.param("pure_callback(h, r, jnp.max(x))", "x", id="max-inside"),
        pytest.param("pure_callback(h, r, y, TABLE)", "y", id="local-from-parameter"),
        pytest.param("pure_callback(h, r, *args)", "args", id="starred"),
        pytest.param("pure_callback(h, r, helper(TABLE))", "helper(TABLE)", id="unknown-call"),
        pytest.param("pure_callback(h, r, x, y)", "x or y", id="two"),
    ],
)
def test_operands_that_may_be_batched(body: str, names: str) -> None:
    src = f"""\
        import jax.numpy as jnp
        import numpy as np
        from jax import lax, pure_callback
        TABLE = np.linspace(0, 1, 8)

        def f(x, *args):
            y = x + 1
            return {body}
        """
    f = one(src)
    assert (f.rule, f.line) == ("JXC007", 8)
    assert f.message.startswith(
        f"pure_callback without vmap_method may raise NotImplementedError: it does if jax.vmap "
        f"batches {names} (to tell:"
    )


def test_reassigned_parameter_is_judged_by_its_new_value() -> None:
    src = """\
        import jax
        from equinox.internal import unvmap_max

        def f(x, index):
            early = jax.pure_callback(h, r, index)
            index = unvmap_max(index)

            def handle():
                return jax.pure_callback(h, r, index)

            return handle, early
        """
    assert [(r, line) for r, line, _ in found(src)] == [("JXC007", 5)]


def test_unbatched_operand_under_vmap_is_not_reported() -> None:
    src = """\
        import jax
        import jax.numpy as jnp

        def f(x):
            return x + jax.pure_callback(h, r, jnp.arange(3.0))

        def g(x):
            return jax.pure_callback(h, r, x)

        jax.vmap(f)(xs)
        jax.vmap(g)(xs)
        """
    f = one(src)
    assert (f.rule, f.line) == ("JXC007", 8)
    assert "under jax.vmap (g, vmapped on line 11): that raises" in f.message


def test_primitive_impl_is_never_batched() -> None:
    src = """\
        import jax
        from jax.extend.core import Primitive
        from jax.interpreters import mlir

        def _impl(pred, index, x):
            return jax.lax.cond(pred, lambda: jax.pure_callback(h, r, index), lambda: x)

        def _lowered(index, x):
            return jax.pure_callback(h, r, index)

        def _plain(index):
            return jax.pure_callback(h, r, index)

        p = Primitive("p")
        p.def_impl(_impl)
        mlir.register_lowering(p, mlir.lower_fun(_lowered, multiple_results=False))
        """
    assert [(r, line) for r, line, _ in found(src)] == [("JXC007", 12)]


# ---------------------------------------------------------------------------- version shims


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            """\
            import jax
            try:
                ffi = jax.ffi
            except AttributeError:
                import jax.extend.ffi as ffi
            ffi.register_ffi_target("t", ffi.pycapsule(fn))
            """,
            id="attribute-error-probe",
        ),
        pytest.param(
            """\
            import jax
            try:
                ffi = jax.ffi
            except AttributeError:
                ffi = jax.extend.ffi
            """,
            id="attribute-error-spelled-out",
        ),
        pytest.param(
            """\
            import jax
            if hasattr(jax, "ffi"):
                from jax import ffi
            else:
                from jax.extend import ffi
            """,
            id="hasattr",
        ),
        pytest.param(
            """\
            import jax
            if not hasattr(jax.extend, "ffi"):
                from jax import ffi
            else:
                from jax.extend import ffi
            """,
            id="hasattr-of-the-old-module",
        ),
        pytest.param(
            """\
            import jax
            ffi = jax.ffi if hasattr(jax, "ffi") else jax.extend.ffi
            """,
            id="conditional-expression",
        ),
        pytest.param(
            """\
            import jax
            if jax.__version_info__ < (0, 4, 35):
                from jax.experimental import host_callback as hcb
                hcb.id_tap(log, x)
                jax.pure_callback(f, r, x, vectorized=True)
            """,
            id="old-branch-of-a-version-compare",
        ),
        pytest.param(
            """\
            import jax
            JAX_VERSION = tuple(int(v) for v in jax.__version__.split(".")[:3])
            HAS_NEW_FFI = JAX_VERSION >= (0, 4, 38)
            if HAS_NEW_FFI:
                from jax import ffi
            else:
                from jax.extend import ffi
            """,
            id="module-flag",
        ),
        pytest.param(
            """\
            try:
                from jax.experimental.host_callback import call as host_call
            except ImportError:
                host_call = None
            if host_call is None:
                host_call = functools.partial(jax.pure_callback, vmap_method="sequential")
            host_call(f, r, x)
            """,
            id="old-import-and-new-assignment",
        ),
        pytest.param(
            """\
            import jax
            try:
                from jax.extend import ffi
            except ImportError:
                pass
            ffi = jax.ffi
            ffi.ffi_call("t", r, vmap_method="sequential")(x)
            """,
            id="name-rebound-to-the-new-module",
        ),
    ],
)
def test_version_shims_are_not_reported(source: str) -> None:
    assert found(source) == []


def test_new_branch_of_a_version_check_is_checked() -> None:
    """The branch the newest JAX takes is not a fallback: an API removed later still breaks."""
    src = """\
        import jax
        if jax.__version_info__ >= (0, 4, 35):
            import jax.extend as jex
            register = jex.ffi.register_ffi_target
        else:
            from jax.lib import xla_client
            register = xla_client.register_custom_call_target
        """
    assert found(src) == [("JXC013", 4, 16)]


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            """\
            def f(x):
                if USE_LEGACY:
                    return jax.pure_callback(h, r, x, vectorized=False)
                else:
                    return jax.pure_callback(h, r, x, vmap_method="sequential")
            """,
            id="if-else",
        ),
        pytest.param(
            """\
            def f(x):
                if config.legacy_ffi:
                    return jax.ffi.ffi_call("t", r)(x)
                return jax.ffi.ffi_call("t", r, vmap_method="broadcast_all")(x)
            """,
            id="early-return",
        ),
        pytest.param(
            """\
            if not NEW:
                def f(x):
                    return jax.pure_callback(h, r, x)
            else:
                def f(x):
                    return jax.pure_callback(h, r, x, vmap_method="sequential")
            """,
            id="defs-in-branches",
        ),
        pytest.param(
            """\
            def f(x):
                try:
                    return jax.pure_callback(h, r, x, vmap_method="expand_dims")
                except TypeError:
                    return jax.pure_callback(h, r, x, vectorized=True)
            """,
            id="try-new-first",
        ),
    ],
)
def test_fallback_beside_a_branch_with_vmap_method(source: str) -> None:
    assert found("import jax\n" + textwrap.dedent(source)) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            """\
            def f(x):
                try:
                    return jax.pure_callback(h, r, x, vectorized=True)
                except TypeError:
                    return jax.pure_callback(h, r, x, vmap_method="expand_dims")
            """,
            [("JXC006", 4, 43)],
            id="try-old-first-never-falls-back",
        ),
        pytest.param(
            """\
            def f(x, on_error):
                if on_error == "raise":
                    return jax.pure_callback(h, r, x, vmap_method="broadcast_all")
                elif on_error == "print":
                    return jax.pure_callback(h, r, x)
            """,
            [("JXC007", 6, 16)],
            id="a-mode-is-no-flag",
        ),
        pytest.param(
            """\
            def f(x):
                if DEBUG:
                    return jax.pure_callback(h, r, x, vmap_method="sequential")
                return jax.pure_callback(other, r, x)
            """,
            [("JXC007", 5, 12)],
            id="another-host-function-is-no-twin",
        ),
        pytest.param(
            """\
            def f(x):
                if USE_LEGACY:
                    return jax.pure_callback(h, r, x, vectorized=True)
                return jax.pure_callback(h, r, x)
            """,
            [("JXC006", 4, 43), ("JXC007", 5, 12)],
            id="no-branch-passes-vmap-method",
        ),
    ],
)
def test_not_a_fallback(source: str, expected: list[tuple[str, int, int]]) -> None:
    assert found("import jax\n" + textwrap.dedent(source)) == expected


# ---------------------------------------------------------------------------- jax.lib.xla_client


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("from jax.lib import xla_client\n", [("JXC016", 1, 21)], id="from"),
        pytest.param("import jax.lib.xla_client as xc\n", [("JXC016", 1, 8)], id="import"),
        pytest.param(
            "from jax.lib.xla_client import register_custom_call_target\n",
            [("JXC016", 1, 32)],
            id="from-module",
        ),
        pytest.param(
            "import jax\njax.lib.xla_client.register_custom_call_target('t', c)\n",
            [("JXC016", 2, 1)],
            id="spelled-out",
        ),
        pytest.param(
            "try:\n    from jax.lib import xla_client\nexcept ImportError:\n    xla_client = None\n",
            [],
            id="version-probe",
        ),
        pytest.param("from jaxlib import xla_client\n", [], id="jaxlib-still-has-it"),
    ],
)
def test_xla_client(source: str, expected: list[tuple[str, int, int]]) -> None:
    assert found(source) == expected


def test_xla_client_message() -> None:
    f = one("from jax.lib import xla_client\n")
    assert f.message == (
        "jax.lib.xla_client no longer exists: importing it raises ImportError, and its "
        "register_custom_call_target is gone"
    )
    assert "jax.ffi.register_ffi_target(name, jax.ffi.pycapsule(fn)" in f.replacement
    assert "api_version=0" in f.replacement


# ---------------------------------------------------------------------------- complex results


@pytest.mark.parametrize(
    ("host", "dtype", "what"),
    [
        pytest.param("return np.fft.rfft(x)", "jnp.float32", "np.fft.rfft", id="rfft"),
        pytest.param("return np.exp(1j * x)", "np.float64", "1j", id="complex-literal"),
        pytest.param(
            "z = scipy.fft.fft(x)\n            return z * 2",
            "'float32'",
            "scipy.fft.fft",
            id="local",
        ),
        pytest.param("return x.astype(np.complex64)", "float", "astype(np.complex64)", id="astype"),
        pytest.param(
            "return np.zeros(3, dtype=complex)", "jnp.int32", "np.zeros(…, complex)", id="zeros"
        ),
        pytest.param("return complex(1, 2)", "jnp.float32", "complex(...)", id="builtin"),
    ],
)
def test_complex_values_for_a_real_result(host: str, dtype: str, what: str) -> None:
    src = f"""\
        import jax
        import jax.numpy as jnp
        import numpy as np
        import scipy.fft

        def host(x):
            {host}

        def f(x):
            out = jax.ShapeDtypeStruct(x.shape, {dtype})
            return jax.pure_callback(host, out, x, vmap_method="sequential")
        """
    f = one(src)
    assert f.rule == "JXC017"
    assert f.message.startswith(
        f"host returns complex values ({what}, line 7) for a result that pure_callback declares "
        f"{dtype}: the call fails when it runs (“Incorrect output dtype … Actual: complex64”"
    )


@pytest.mark.parametrize(
    ("host", "dtype"),
    [
        pytest.param("return np.abs(np.fft.fft(x)) ** 2", "jnp.float32", id="abs"),
        pytest.param("return np.fft.fft(x).real", "jnp.float32", id="real"),
        pytest.param("return np.fft.irfft(np.fft.rfft(x), n=3)", "jnp.float32", id="irfft"),
        pytest.param("return np.fft.fft(x).astype(np.float32)", "jnp.float32", id="astype"),
        pytest.param("return np.asarray(np.fft.fft(x), np.float32)", "jnp.float32", id="cast"),
        pytest.param("return np.fft.fft(x)", "jnp.complex64", id="declared-complex"),
        pytest.param("return np.fft.fft(x)", "x.dtype", id="dtype-not-visible"),
        pytest.param("return helper(x)", "jnp.float32", id="unknown-helper"),
    ],
)
def test_real_or_unknown_results_are_not_reported(host: str, dtype: str) -> None:
    src = f"""\
        import jax
        import jax.numpy as jnp
        import numpy as np

        def host(x):
            {host}

        def f(x):
            out = jax.ShapeDtypeStruct(x.shape, {dtype})
            return jax.pure_callback(host, out, x, vmap_method="sequential")
        """
    assert found(src) == []


def test_complex_result_through_lambda_tuple_and_io_callback() -> None:
    src = """\
        import jax
        import jax.numpy as jnp
        import numpy as np
        from jax.experimental import io_callback

        def pair(x):
            z = np.fft.fft(x)
            return np.abs(z), z

        def host(x):
            return np.fft.fft(x)

        def f(x):
            r = jax.ShapeDtypeStruct(x.shape, jnp.float32)
            a = jax.pure_callback(pair, (r, r), x, vmap_method="sequential")
            b = jax.pure_callback(lambda v: host(v), r, x, vmap_method="sequential")
            c = io_callback(host, r, x)
            d = jax.pure_callback(lambda v: np.fft.fft(v), r, x, vmap_method="sequential")
            return a, b, c, d
        """
    fs = check_source(textwrap.dedent(src))
    assert [(f.rule, f.line) for f in fs] == [
        ("JXC017", 15),
        ("JXC017", 16),
        ("JXC017", 17),
        ("JXC017", 18),
    ]
    assert "for result 1 that pure_callback declares jnp.float32" in fs[0].message
    assert "that io_callback declares" in fs[2].message
    assert fs[3].message.startswith("the lambda returns complex values (np.fft.fft, line 18)")


# ---------------------------------------------------------------------------- the corpus

CORPUS = Path(__file__).resolve().parent / "check_corpus"
EXPECT = re.compile(r"#\s*expect:\s*(JXC\d{3}(?:\s*,\s*JXC\d{3})*)\s*$")


def _expected(path: Path) -> set[tuple[str, int, str]]:
    out = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        m = EXPECT.search(line)
        if m:
            out |= {(path.name, n, rule.strip()) for rule in m.group(1).split(",")}
    return out


def test_corpus_precision_and_recall() -> None:
    """Realistic files (written for this project) with the findings a reviewer expects, line
    by line. Prints the checker's precision and recall on them; both must be 1."""
    files = sorted(CORPUS.glob("*.py"))
    assert len(files) >= 12
    report = check_paths([str(p) for p in files])
    assert report.errors == []
    assert report.files_read == len(files)
    got = {(Path(f.path).name, f.line, f.rule) for f in report.findings}
    want = set().union(*(_expected(p) for p in files))
    true = got & want
    precision, recall = len(true) / len(got), len(true) / len(want)
    print(
        f"\njaxcb check on {len(files)} corpus files: {len(got)} findings, {len(want)} expected, "
        f"precision {precision:.0%}, recall {recall:.0%}"
    )
    assert sorted(got - want) == [], "reported but not expected"
    assert sorted(want - got) == [], "expected but not reported"
    assert {r for _, _, r in want} >= {r.id for r in RULES}, "a rule without a corpus case"
