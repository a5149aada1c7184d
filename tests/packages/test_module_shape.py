"""A pattern module is the lesson: its code is mostly the pattern, not argument checks.

Counted from the source, without importing it: code lines are the lines that hold code
(not blank, not a comment, a docstring or an import). A line is an argument check when it
lies in a module-level function whose name starts with ``_check`` or in a call of one of
those or of the package's ``_checks`` module; every other code line is the pattern (the
host function, the native code, the call, the derivative rule, the constants). The
project's aim (CONTRIBUTING.md): at least two thirds of every pattern module is pattern.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

PACKAGES = Path(__file__).resolve().parents[2] / "packages"
#: the packages of patterns (not the harness, jaxcb-core, nor the checker, jaxcb-check)
MODULES = sorted(
    p
    for p in PACKAGES.glob("jaxcb-*/src/jaxcb_*/*.py")
    if not p.name.startswith("_") and p.parent.name not in ("jaxcb_core", "jaxcb_check")
)
PATTERN_SHARE = 2 / 3

_SKIPPED = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)


def _lines(node: ast.AST) -> set[int]:
    return set(range(node.lineno, (node.end_lineno or node.lineno) + 1))  # type: ignore[attr-defined]


def _code_lines(source: str, tree: ast.Module) -> set[int]:
    """Lines with a token of code, less docstrings and imports."""
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in _SKIPPED and tok.type != tokenize.ENDMARKER:
            lines.update(range(tok.start[0], tok.end[0] + 1))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            lines -= _lines(node)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines -= _lines(first)
    return lines


def _is_check_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f.value.id == "_checks"
    return isinstance(f, ast.Name) and f.id.startswith("_check")


def shares(path: Path) -> tuple[int, int]:
    """(pattern lines, argument-check lines) of one module."""
    source = path.read_text()
    tree = ast.parse(source)
    code = _code_lines(source, tree)
    checks: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("_check"):
            checks |= _lines(node)
    for node in ast.walk(tree):
        if _is_check_call(node):
            checks |= _lines(node)
    return len(code - checks), len(code & checks)


def test_the_count_sees_checks_and_pattern(tmp_path: Path) -> None:
    source = '''"""doc"""
import jax


def _check(x):
    """checks"""
    if x is None:
        raise TypeError("x")
    return x


def f(x):
    x = _check(x)  # a comment
    y = x + 1
    return y
'''
    path = tmp_path / "module.py"
    path.write_text(source)
    assert shares(path) == (3, 5)


def test_there_are_pattern_modules() -> None:
    assert len(MODULES) > 40


@pytest.mark.parametrize("path", MODULES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_pattern_code_is_at_least_two_thirds(path: Path) -> None:
    pattern, checks = shares(path)
    share = pattern / (pattern + checks)
    assert share >= PATTERN_SHARE, (
        f"{path.parent.name}/{path.name}: {pattern} lines of pattern, {checks} of argument "
        f"checks ({share:.0%} pattern, below two thirds): move the checks that teach "
        "nothing into the package's _checks.py"
    )
