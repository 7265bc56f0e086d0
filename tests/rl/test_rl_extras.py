"""The research extras: koloda[rl] without OpenSpiel, and a clear message for what is missing.

scripts/smoke.py installs the wheel with the extra 'rl' alone into a fresh environment and checks the same
from there; these tests hide the module in a fresh interpreter.
"""

from __future__ import annotations

import subprocess
import sys

import pytest


def import_without(hidden: str, module: str) -> subprocess.CompletedProcess[str]:
    code = f"import sys\nsys.modules[{hidden!r}] = None  # as if it were not installed\nimport {module}\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_openspiel_missing_says_which_extra_to_install() -> None:
    result = import_without("pyspiel", "koloda.rl.openspiel")
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: koloda.rl.openspiel needs OpenSpiel")
    assert "pip install 'koloda[openspiel]'" in last


@pytest.mark.parametrize("module", ["koloda.rl.bank_v0", "koloda.rl.thousand_v0", "koloda.rl.gym_env"])
def test_the_other_interfaces_need_no_openspiel(module: str) -> None:
    result = import_without("pyspiel", module)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("hidden", ["gymnasium", "pettingzoo", "numpy"])
def test_the_rl_extra_missing_says_so(hidden: str) -> None:
    result = import_without(hidden, "koloda.rl.bank_v0")
    last = result.stderr.strip().splitlines()[-1]
    need = f"koloda.rl needs the optional extra 'rl' ({hidden} not installed): pip install 'koloda[rl]'"
    assert last == f"ImportError: {need}"


def test_players_need_no_research_extra() -> None:
    code = (
        "import sys\n"
        "for name in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel'):\n"
        "    sys.modules[name] = None\n"
        "from koloda.cli import main\n"
        "raise SystemExit(main(['bank', 'simulate', '--deals', '3', '--json']))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("{")
