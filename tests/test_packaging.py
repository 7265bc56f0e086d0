"""The package's promises: ranges in pyproject.toml that admit the locked versions, one version, a licence.

The wheel itself (what is in it, every command run from it in a fresh environment) is checked by
scripts/smoke.py, which scripts/test.sh runs after the suite.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

import koloda

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]


def lock(name: str) -> dict[str, Version]:
    """The exact versions of a requirements file (and the files it includes with ``-r``), by name."""
    pins: dict[str, Version] = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r "):
            pins |= lock(line[3:].strip())
            continue
        requirement = Requirement(line)
        specifiers = list(requirement.specifier)
        assert len(specifiers) == 1 and specifiers[0].operator == "==", f"{name}: {line} is not a pin"
        pins[canonicalize_name(requirement.name)] = Version(specifiers[0].version)
    return pins


RUNTIME = lock("requirements.txt")
DEV = lock("requirements-dev.txt")
BUILD = lock("requirements-build.txt")


def requirements(group: str) -> list[Requirement]:
    if group == "dependencies":
        texts = PROJECT["dependencies"]
    elif group == "build-system":
        texts = PYPROJECT["build-system"]["requires"]
    else:
        texts = PROJECT["optional-dependencies"][group]
    return [Requirement(text) for text in texts]


GROUPS = ["dependencies", "build-system", *PROJECT["optional-dependencies"]]


@pytest.mark.parametrize("group", GROUPS)
def test_pyproject_gives_ranges_that_admit_the_locked_versions(group: str) -> None:
    locked = {"dependencies": RUNTIME, "build-system": BUILD}.get(group, DEV)
    for requirement in requirements(group):
        name = canonicalize_name(requirement.name)
        if name == "koloda":  # an extra that includes others (koloda[rl])
            assert requirement.extras <= set(PROJECT["optional-dependencies"]), requirement
            continue
        assert not any(spec.operator in ("==", "===") for spec in requirement.specifier), (
            f"{group}: {requirement} is a pin; pyproject.toml gives ranges, the lock files the versions"
        )
        assert requirement.specifier, f"{group}: {requirement} has no range"
        assert name in locked, f"{group}: {requirement.name} is not in its lock file"
        assert requirement.specifier.contains(locked[name], prereleases=True), (
            f"{group}: {requirement} does not admit the locked {locked[name]}"
        )


def test_the_runtime_lock_is_what_the_dependencies_need_and_no_research_extra() -> None:
    # requirements.txt installs what `koloda` needs to run; NumPy and the research toolkits are extras
    names = {canonicalize_name(r.name) for r in requirements("dependencies")}
    assert names <= set(RUNTIME)
    assert not {"numpy", "gymnasium", "pettingzoo", "open-spiel", "ray"} & set(RUNTIME)


def test_the_research_extra_does_not_need_openspiel() -> None:
    # pip install koloda[rl] must work where OpenSpiel has no wheel
    rl = {canonicalize_name(r.name) for r in requirements("rl")}
    assert "open-spiel" not in rl and {"gymnasium", "pettingzoo", "numpy"} <= rl
    openspiel = requirements("openspiel")
    assert {canonicalize_name(r.name) for r in openspiel} == {"koloda", "open-spiel"}
    assert any(r.extras == {"rl"} for r in openspiel)


def test_the_locks_agree_where_they_meet() -> None:
    # the dev lock includes the runtime lock; the build lock's NumPy is the one the research extra runs
    assert all(DEV[name] == version for name, version in RUNTIME.items())
    assert BUILD["numpy"] == DEV["numpy"]


def test_the_environment_is_the_dev_lock() -> None:
    """The tests run in what requirements-dev.txt says (scripts/test.sh installs it): every package at
    its locked version."""
    wrong = {}
    for name, version in DEV.items():
        try:
            installed = Version(metadata.version(name))
        except metadata.PackageNotFoundError:
            wrong[name] = "missing"
            continue
        if installed != version:
            wrong[name] = f"{installed}, locked {version}"
    assert not wrong, wrong


def test_one_version() -> None:
    assert PROJECT["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "koloda.__version__"}
    assert Version(koloda.__version__) == Version(metadata.version("koloda"))
    out = subprocess.run(
        [sys.executable, "-m", "koloda", "--version"], capture_output=True, text=True, check=True
    ).stdout
    assert out == f"koloda {koloda.__version__}\n"


def test_the_changelog_has_the_version() -> None:
    headings = re.findall(r"^## (.+)$", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.MULTILINE)
    assert koloda.__version__ in headings[0], headings[0]  # the newest section is this version
    assert any(heading.startswith("0.1.0") for heading in headings)


def test_the_licence_is_the_one_pyproject_names() -> None:
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in text


def test_python_m_koloda_is_the_command() -> None:
    result = subprocess.run([sys.executable, "-m", "koloda", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("usage: koloda ")
    assert "completion" in result.stdout
