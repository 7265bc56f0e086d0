"""koloda games registered with OpenSpiel on import: ``python_koloda_bank`` and ``python_koloda_thousand``.

>>> import pyspiel
>>> import koloda.rl.openspiel
>>> game = pyspiel.load_game("python_koloda_bank", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 2)

A game is one deal. The deal is made of chance nodes (the first dealer by lot if the options do not fix
it, the trump suits drawn at random, then every card in dealing order: the hands round by round, the
open card or the talon, the stock from the top), so a history of actions replays the whole game and
serialises. Player actions are the engine's fixed action ids. Parameters are ``players``, ``preset`` and
every option of the game (-1 for an option's null: ``first_dealer`` by lot, ``bolts`` off...;
``trump_suits`` as letters like "CD"); an option parameter equal to the default leaves the preset's
value. Utilities are the deal's points (Bank) or score changes (Thousand).

Information state strings and tensors have perfect recall of what the player saw (its dealt cards, its
draws, every public action); observation strings and tensors are the current view (docs/rl.md).
``resample_from_infostate`` draws a deal consistent with everything the player has seen
(:mod:`koloda.bank.worlds`, :mod:`koloda.thousand.worlds`) and replays the history on it.

Needs the extra ``koloda[openspiel]`` (OpenSpiel and ``koloda[rl]``); without it the import raises an
ImportError that says so.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

try:
    import pyspiel
except ImportError as exc:  # OpenSpiel is an extra of its own: it has wheels for fewer platforms
    raise ImportError(
        f"koloda.rl.openspiel needs OpenSpiel, and 'import pyspiel' failed ({exc}): pip install"
        " 'koloda[openspiel]' (where OpenSpiel has no wheel for the platform, pip builds it from source:"
        " https://openspiel.readthedocs.io/en/latest/install.html)",
        name="pyspiel",
    ) from exc

from koloda.errors import KolodaError, OptionsError
from koloda.options import Options


class Spec(Protocol):
    """What the OpenSpiel front end needs of a game (one per game, for one set of options)."""

    players: int
    num_actions: int
    chance_outcomes_max: int
    obs_size: int
    info_size: int

    def chance_outcomes(self, chance: Sequence[int]) -> list[int]:
        """The possible outcomes of the next chance node after ``chance``; [] when the deal is complete."""
        ...

    def chance_text(self, chance: Sequence[int], outcome: int) -> str: ...

    def start(self, chance: Sequence[int]) -> Any:
        """The deal tracker (``.state``: the engine's state, ``.actions``) of a complete deal."""
        ...

    def action_text(self, action: int) -> str: ...

    def encode(self, tracker: Any, seat: int, out: npt.NDArray[np.float32], perfect_recall: bool) -> None:
        """Fill the observation (or, with ``perfect_recall``, information state) tensor of ``seat``."""
        ...

    def encode_dealing(self, chance: Sequence[int], seat: int, out: npt.NDArray[np.float32]) -> None:
        """The tensor while the deal is still being dealt: the seat's own cards so far."""
        ...

    def view_text(self, tracker: Any, seat: int, perfect_recall: bool) -> str: ...

    def dealing_text(self, chance: Sequence[int], seat: int) -> str: ...

    def resample(self, tracker: Any, seat: int, rng: random.Random) -> tuple[list[int], list[int]]:
        """Chance outcomes of a deal consistent with what ``seat`` saw, and the player actions on it (the
        same ids, except cards the seat never saw, such as another seat's gift in Thousand)."""
        ...


def option_params(options: type[Options]) -> dict[str, Any]:
    """OpenSpiel parameters for every option of a game (ints, floats, bools and strings only)."""
    params: dict[str, Any] = {}
    for name, value in options().to_dict().items():
        if value is None:
            params[name] = -1
        elif isinstance(value, list):
            params[name] = "".join(str(v) for v in value)
        else:
            params[name] = value
    return params


def options_from_params(options: type[Options], params: dict[str, Any]) -> Options:
    """The preset named by ``params["preset"]`` with every option parameter that differs from the default."""
    defaults = option_params(options)
    base = options.preset(str(params.get("preset", "default"))).to_dict()
    for name, default in defaults.items():
        if name not in params or params[name] == default:
            continue
        value = params[name]
        if value == -1 and "None" in str(options.__dataclass_fields__[name].type):
            value = None  # -1 stands for null (by lot, no limit, off)
        elif isinstance(base.get(name), list) or name.endswith("suits"):
            value = list(str(value))
        base[name] = value
    return options.from_mapping(base)


class KolodaSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A koloda game as an OpenSpiel game (see the module docstring)."""

    def __init__(
        self, game_type: Any, spec: Spec, params: dict[str, Any], utility: tuple[float, float]
    ) -> None:
        self.spec = spec
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_actions,
            max_chance_outcomes=spec.chance_outcomes_max,
            num_players=spec.players,
            min_utility=utility[0],
            max_utility=utility[1],
            utility_sum=None,
            max_game_length=MAX_LENGTH[game_type.short_name],
        )
        super().__init__(game_type, info, params)

    def __deepcopy__(self, memo: dict[int, Any]) -> KolodaSpielGame:
        # state.clone() deep-copies the state's attributes; pyspiel.Game's own copy rebuilds only the C++
        # game, without __init__, so the copy had no ``spec``. A game never changes: share it.
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        """Pickled as its name and parameters, so that unpickling runs ``__init__`` (and sets ``spec``)."""
        return pyspiel.load_game, (self.get_type().short_name, self.get_parameters())

    def new_initial_state(self) -> KolodaSpielState:
        return KolodaSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KolodaObserver:
        if params:
            raise ValueError(f"observer parameters are not supported, got {params!r}")
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only the observer of one player's view (private_info=SINGLE_PLAYER) is offered")
        return KolodaObserver(self.spec, perfect)


class KolodaSpielState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress: chance outcomes until the deal is complete, then the engine's state."""

    def __init__(self, game: KolodaSpielGame) -> None:
        super().__init__(game)
        self.spec = game.spec
        self._game = game
        self.chance: list[int] = []
        self.tracker: Any = None
        self._outcomes = self.spec.chance_outcomes(self.chance)

    def current_player(self) -> int:
        if self.tracker is None:
            return int(pyspiel.PlayerId.CHANCE)
        player = self.tracker.state.current_player
        return int(pyspiel.PlayerId.TERMINAL) if player is None else int(player)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.tracker.state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / len(self._outcomes)
        return [(o, p) for o in self._outcomes]

    def _apply_action(self, action: int) -> None:
        if self.tracker is None:
            if action not in self._outcomes:
                raise ValueError(f"chance outcome {action} is not possible here")
            self.chance.append(action)
            self._outcomes = self.spec.chance_outcomes(self.chance)
            if not self._outcomes:
                self.tracker = self.spec.start(self.chance)
        else:
            self.tracker.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.spec.chance_text(self.chance, action)
        return self.spec.action_text(action)

    def is_terminal(self) -> bool:
        return self.tracker is not None and bool(self.tracker.state.is_over())

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.spec.players
        return [float(x) for x in self.tracker.state.returns()]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> KolodaSpielState:
        """A state ``player_id`` cannot tell from this one: same history of player actions and of what that
        player saw, hidden cards redrawn (the deal's constraints respected)."""
        if self.tracker is None:
            raise ValueError("resample_from_infostate is offered once the deal is complete")
        rng = random.Random(int(probability_sampler() * 2**52))
        try:
            chance, actions = self.spec.resample(self.tracker, player_id, rng)
        except KolodaError:
            # the sampler gave up (it tries a bounded number of deals): the true deal is always one
            # the player cannot tell apart, so a search goes on instead of failing
            same: KolodaSpielState = self.clone()
            return same
        state = self._game.new_initial_state()
        for a in chance:
            state.apply_action(a)
        for a in actions:
            state.apply_action(a)
        return state

    def __str__(self) -> str:
        if self.tracker is None:
            return "dealing: " + " ".join(
                self.spec.chance_text(self.chance[:k], c) for k, c in enumerate(self.chance)
            )
        return repr(self.tracker.state) + " " + str(self.tracker.state.record().actions)


class KolodaObserver:
    """OpenSpiel's PyObserver: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, spec: Spec, perfect_recall: bool) -> None:
        self.spec = spec
        self.perfect_recall = perfect_recall
        size = spec.info_size if perfect_recall else spec.obs_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KolodaSpielState, player: int) -> None:
        self.tensor.fill(0)
        if state.tracker is None:
            self.spec.encode_dealing(state.chance, player, self.tensor)
        else:
            self.spec.encode(state.tracker, player, self.tensor, self.perfect_recall)

    def string_from(self, state: KolodaSpielState, player: int) -> str:
        if state.tracker is None:
            return self.spec.dealing_text(state.chance, player)
        return self.spec.view_text(state.tracker, player, self.perfect_recall)


#: Upper bounds of player actions in one deal (docs/rl.md derives them).
MAX_LENGTH = {"python_koloda_bank": 400, "python_koloda_thousand": 130}


def _game_type(short: str, long: str, low: int, high: int, params: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _check_players(params: dict[str, Any], low: int, high: int, game: str) -> int:
    players = params.get("players", 3)
    if type(players) is not int or not low <= players <= high:
        raise OptionsError(f"{game} is for {low}-{high} players, not {players!r}")
    return players


# -- Bank ------------------------------------------------------------------------------------------------


def _bank_params() -> dict[str, Any]:
    from koloda.bank.options import BankOptions

    return {"players": 3, "preset": "default", **option_params(BankOptions)}


BANK_TYPE = _game_type("python_koloda_bank", "koloda Bank (one deal)", 2, 4, _bank_params())


class KolodaBankGame(KolodaSpielGame):
    """``python_koloda_bank``: one deal of Bank."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        from koloda.bank.options import BankOptions
        from koloda.rl.bank_spiel import BankSpec

        params = dict(params or {})
        players = _check_players(params, 2, 4, "Bank")
        options = options_from_params(BankOptions, params)
        assert isinstance(options, BankOptions)
        spec = BankSpec(options, players)
        super().__init__(BANK_TYPE, spec, params, spec.utility_bounds())


pyspiel.register_game(BANK_TYPE, KolodaBankGame)


# -- Thousand --------------------------------------------------------------------------------------------


def _thousand_params() -> dict[str, Any]:
    from koloda.thousand.options import ThousandOptions

    return {"players": 3, "preset": "home", **option_params(ThousandOptions)}


THOUSAND_TYPE = _game_type("python_koloda_thousand", "koloda Thousand (one deal)", 3, 4, _thousand_params())


class KolodaThousandGame(KolodaSpielGame):
    """``python_koloda_thousand``: one deal of Thousand, seat 0 dealing."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        from koloda.rl.thousand_spiel import ThousandSpec
        from koloda.thousand.options import ThousandOptions

        params = dict(params or {})
        players = _check_players(params, 3, 4, "Thousand")
        options = options_from_params(ThousandOptions, params)
        assert isinstance(options, ThousandOptions)
        spec = ThousandSpec(options, players)
        super().__init__(THOUSAND_TYPE, spec, params, spec.utility_bounds())


pyspiel.register_game(THOUSAND_TYPE, KolodaThousandGame)
