"""Shell completion (koloda.completion, argcomplete): the scripts, and the completions a shell gets."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from koloda.cli import main

# What each shell's script must hold to register the completion of `koloda` in that shell.
MARKERS = {
    "bash": [
        "complete -o nospace -o default -o bashdefault -F _python_argcomplete koloda",
        "#compdef koloda",
    ],
    "zsh": ["#compdef koloda", "compdef _python_argcomplete koloda"],
    "fish": ["complete --command koloda", "__fish_koloda_complete"],
    "powershell": ["Register-ArgumentCompleter -Native -CommandName koloda"],
}


@pytest.mark.parametrize("shell", MARKERS)
def test_the_script_of_each_shell(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    for marker in MARKERS[shell]:
        assert marker in script, (shell, marker)


def test_an_unknown_shell_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["completion", "tcsh"])
    assert exit_.value.code == 2 and "invalid choice: 'tcsh'" in capsys.readouterr().err


def completions(line: str, tmp_path: Path) -> list[str]:
    """What koloda answers a shell asking to complete ``line`` (argcomplete's protocol, as bash calls it)."""
    out = tmp_path / "completions"
    env = {
        **os.environ,
        "_ARGCOMPLETE": "1",
        "_ARGCOMPLETE_SHELL": "bash",
        "_ARGCOMPLETE_IFS": "\n",
        "_ARGCOMPLETE_STDOUT_FILENAME": str(out),
        "COMP_LINE": line,
        "COMP_POINT": str(len(line)),
        "COMP_TYPE": "9",
    }
    result = subprocess.run(
        [sys.executable, "-m", "koloda"], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return sorted(out.read_text(encoding="utf-8").split())


def test_commands_options_and_choices_complete(tmp_path: Path) -> None:
    assert completions("koloda ba", tmp_path) == ["bank", "banki"]
    assert {"simulate", "replay", "play", "score", "sheet"} <= set(completions("koloda thousand ", tmp_path))
    assert completions("koloda bank play --level ", tmp_path) == ["easy", "hard", "medium"]
    assert completions("koloda completion f", tmp_path) == ["fish"]
    assert "--deals" in completions("koloda tournament --", tmp_path)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_with_the_script(tmp_path: Path) -> None:
    """The script loaded in a real bash: its function asks koloda (on PATH) and fills COMPREPLY."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "koloda").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m koloda "$@"\n', encoding="utf-8")
    (bin_dir / "koloda").chmod(0o755)
    script = subprocess.run(
        [sys.executable, "-m", "koloda", "completion", "bash"], capture_output=True, text=True, check=True
    ).stdout
    (tmp_path / "koloda.bash").write_text(script, encoding="utf-8")
    session = (
        f'source "{tmp_path / "koloda.bash"}"\n'
        'COMP_LINE="koloda thousand sc"; COMP_POINT=${#COMP_LINE}\n'
        "COMP_WORDS=(koloda thousand sc); COMP_CWORD=2\n"
        '_python_argcomplete koloda\necho "${COMPREPLY[@]}"\n'
    )
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(
        ["bash", "--norc", "-c", session], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.stdout.split() == ["score"], result.stderr
