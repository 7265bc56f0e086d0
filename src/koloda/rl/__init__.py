"""Research interfaces: PettingZoo (``bank_v0``, ``thousand_v0``), Gymnasium (``koloda/Bank-v0``,
``koloda/Thousand-v0``, registered on import) and OpenSpiel (``import koloda.rl.openspiel``). docs/rl.md.

Needs the optional extra ``koloda[rl]``.
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError as exc:  # the research interfaces are an optional extra; players need none of it
    raise ImportError("koloda.rl needs the optional extra: pip install 'koloda[rl]'") from exc

for _name, _entry in (("Bank", "BankEnv"), ("Thousand", "ThousandEnv")):
    if f"koloda/{_name}-v0" not in gymnasium.registry:
        gymnasium.register(id=f"koloda/{_name}-v0", entry_point=f"koloda.rl.gym_env:{_entry}")
