"""Shell completion of ``koloda`` by argcomplete: commands, options, their choices and file names.

``koloda completion SHELL`` prints the script that a shell's start-up file loads:

- bash: ``eval "$(koloda completion bash)"`` in ``~/.bashrc``;
- zsh: ``eval "$(koloda completion zsh)"`` in ``~/.zshrc``, after ``compinit``;
- fish: ``koloda completion fish | source`` in ``~/.config/fish/config.fish``;
- PowerShell: ``koloda completion powershell | Out-String | Invoke-Expression`` in ``$PROFILE``.

When the shell asks for completions it runs ``koloda`` with argcomplete's variables set (``_ARGCOMPLETE``,
``COMP_LINE``...): :func:`complete` answers from the same parser as the command itself, so the completions
are never out of date, and returns without importing argcomplete on any other run.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

SHELLS = ("bash", "zsh", "fish", "powershell")


def register(subparsers: Any) -> None:
    """``koloda completion SHELL``."""
    parser = subparsers.add_parser(
        "completion",
        help="print the shell completion script (bash, zsh, fish, powershell)",
        description="Print the script that makes the shell complete koloda's commands and options. "
        'bash and zsh: eval "$(koloda completion bash)" in ~/.bashrc (zsh: in ~/.zshrc, after compinit); '
        "fish: koloda completion fish | source in ~/.config/fish/config.fish.",
    )
    parser.add_argument("shell", choices=SHELLS, help="the shell")
    parser.set_defaults(func=_print_script)


def complete(parser: argparse.ArgumentParser) -> None:
    """Answer the shell's completion request and exit, if this run is one; else return at once."""
    if "_ARGCOMPLETE" not in os.environ:
        return
    import argcomplete

    argcomplete.autocomplete(parser)


def script(shell: str) -> str:
    """The completion script of ``shell`` (one of :data:`SHELLS`)."""
    from argcomplete.shell_integration import shellcode

    return shellcode(["koloda"], shell=shell)


def _print_script(args: argparse.Namespace) -> int:
    print(script(args.shell))
    return 0
