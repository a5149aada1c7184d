"""What a computation added to a package reaches without another edit, and what it does not.

- A registry finds the package's pattern modules by their source files (``<name>.py`` beside
  it): not its private modules, not the libraries that ``jaxcb_ffi`` builds beside them.
- The README (what PyPI shows) keeps a row per computation by hand (host code,
  ``vmap_method``, derivative rule: what a reader reads before installing); a module added
  without its row fails here, not in review.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pytest

from jaxcb_core.catalog import CATALOG

ROOT = Path(__file__).resolve().parents[2]
REGISTRIES = sorted(ROOT.glob("packages/*/src/*/_registry.py"))
PACKAGES = [p.parent.name for p in REGISTRIES]
# the registries that find a module per computation (the others read one module's __all__)
DISCOVERING = [p.parent.name for p in REGISTRIES if "def _patterns(" in p.read_text()]


@pytest.mark.parametrize("package", DISCOVERING)
def test_the_registry_finds_the_pattern_modules_by_their_source(
    package: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if importlib.util.find_spec(package) is None:
        pytest.skip(f"{package} is not installed in this environment")
    registry = importlib.import_module(f"{package}._registry")
    for name in ("softplus.py", "_probe.py", "__init__.py", "libsoftplus.so", "softplus.cc"):
        (tmp_path / name).touch()
    monkeypatch.setattr(registry, "__file__", str(tmp_path / "_registry.py"))
    assert registry._patterns() == ("softplus",)


@pytest.mark.parametrize("package", PACKAGES)
def test_the_readme_names_every_computation_the_package_exports(package: str) -> None:
    if importlib.util.find_spec(package) is None:
        pytest.skip(f"{package} is not installed in this environment")
    exported = set(getattr(importlib.import_module(package), "__all__", ()))
    names = [c.name for c in CATALOG if c.name in exported]
    readme = ROOT / "packages" / package.replace("_", "-") / "README.md"
    text = readme.read_text(encoding="utf-8")
    missing = [n for n in names if f"`{n}(" not in text and f"`{n}`" not in text]
    assert missing == [], f"{readme.relative_to(ROOT)} has no row for {missing}"
