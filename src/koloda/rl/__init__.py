"""Research interfaces: PettingZoo (``bank_v0``, ``thousand_v0``), Gymnasium (``koloda/Bank-v0``,
``koloda/Thousand-v0``, registered on import) and OpenSpiel (``import koloda.rl.openspiel``). docs/rl.md.

Needs the optional extra ``koloda[rl]`` (PettingZoo, Gymnasium, NumPy); OpenSpiel is the extra
``koloda[openspiel]``, which :mod:`koloda.rl.openspiel` asks for when it is missing.
"""

from __future__ import annotations

import importlib.util

# The research interfaces are an optional extra; players need none of it. Say what to install, rather
# than fail later inside whichever module first imports the missing one.
_MISSING = [name for name in ("gymnasium", "numpy", "pettingzoo") if importlib.util.find_spec(name) is None]
if _MISSING:
    raise ImportError(
        f"koloda.rl needs the optional extra 'rl' ({', '.join(_MISSING)} not installed):"
        " pip install 'koloda[rl]'",
        name=_MISSING[0],
    )

import gymnasium  # noqa: E402  (after the check above)

for _name, _entry in (("Bank", "BankEnv"), ("Thousand", "ThousandEnv")):
    if f"koloda/{_name}-v0" not in gymnasium.registry:
        gymnasium.register(id=f"koloda/{_name}-v0", entry_point=f"koloda.rl.gym_env:{_entry}")
