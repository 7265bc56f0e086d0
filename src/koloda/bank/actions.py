"""Bank's action space and its notation (docs/api.md, "Bank's action space").

Actions are ints: 0-35 one card, then four of a kind by its top card, runs, ``draw``, ``pass`` and the
four trump choices of rule 3.2 (the ids are in :mod:`koloda.bank.tables`). The canonical text of an
action parses back to the same id.

>>> action_text(parse_action("в♠ 9♠ 8♠ 7♠"))
'JS+9S+8S+7S'
"""

from __future__ import annotations

from dataclasses import dataclass

from koloda.bank import tables as T
from koloda.cards import DECK_36, CardsShown, Suit, card_reason, clip, parse_cards
from koloda.errors import NotationError
from koloda.i18n import Lang, Msg, Shown, say

_DRAW_WORDS = {"draw", "взять", "беру", "брать"}
_TRUMP_WORDS = {"trump", "козырь"}
_PASS_WORDS = {"pass", "пас", "stop", "хватит"}


def cards_of_action(action: int) -> tuple[int, ...]:
    """The cards an action lays, in the order laid (the last on top); none for draw, pass, a trump choice.

    >>> [str(DECK_36[c]) for c in cards_of_action(T.FOUR0 + 35)]
    ['AS', 'AC', 'AD', 'AH']
    """
    if action < T.FOUR0:
        return (action,)
    if action < T.RUN0:
        top = action - T.FOUR0
        return (*T.cards_of(T.RANK_MASK[top % 9] & ~(1 << top)), top)
    if action < T.DRAW:
        return T.RUN_CARDS[action - T.RUN0]
    return ()


def action_text(action: int) -> str:
    """The canonical text of an action id.

    >>> action_text(0), action_text(T.FOUR0 + 35), action_text(T.DRAW), action_text(T.PASS)
    ('6S', 'AS+AC+AD+AH', 'draw', 'pass')
    >>> action_text(T.run_id(0, (3, 3, 3, 3), True))
    '9H+8H+7H+6H'
    """
    if type(action) is not int or not 0 <= action < T.NUM_ACTIONS:
        raise NotationError(Msg("bank.notation.bad_id", action=repr(action), last=T.NUM_ACTIONS - 1))
    text = _TEXTS.get(action)
    if text is None:  # each text made once: every observation spells the deal's history
        if action < T.DRAW:
            text = "+".join(str(DECK_36[c]) for c in cards_of_action(action))
        elif action >= T.CHOOSE0:
            text = f"trump {Suit(action - T.CHOOSE0).letter}"
        else:
            text = "draw" if action == T.DRAW else "pass"
        _TEXTS[action] = text
    return text


_TEXTS: dict[int, str] = {}


def action_words(action: int, lang: Lang) -> str:
    """An action as the player types it in ``lang``: cards with suit symbols (Russian ranks in Russian)
    joined by ``+``, ``взять``/``draw``, ``пас``/``pass``, ``козырь ♥``/``trump ♥``; it parses back.

    >>> action_words(T.DRAW, "ru"), action_words(T.CHOOSE0 + 3, "en"), action_words(T.FOUR0 + 33, "ru")
    ('взять', 'trump ♥', 'Д♠+Д♣+Д♦+Д♥')
    """
    if action == T.DRAW:
        return say(lang, "bank.move.draw")
    if action == T.PASS:
        return say(lang, "bank.move.pass")
    if action >= T.CHOOSE0:
        return say(lang, "bank.move.trump", suit=Suit(action - T.CHOOSE0).symbol)
    cards = tuple(DECK_36[c] for c in cards_of_action(action))
    return CardsShown(cards, symbols=True, joined="+").text(lang)


@dataclass(frozen=True)
class ActionShown(Shown):
    """An action in a message (a refusal): its canonical text in English, as typed in Russian (no Latin
    card codes: ``Д♥``, ``взять``)."""

    action: int

    def text(self, lang: Lang) -> str:
        return action_text(self.action) if lang == "en" else action_words(self.action, lang)


def parse_action(text: str) -> int:
    """Read an action: a card (``7H``, ``7♥``, ``7Ч``), four of a kind or a run as cards joined by ``+``
    or spaces in the order laid (the last on top), ``draw``/``взять``, ``pass``/``пас``, ``trump S``.

    >>> parse_action("7♥") == parse_action("7Ч") == parse_action("7H")
    True
    >>> parse_action("ПАС") == T.PASS
    True
    """
    if not isinstance(text, str):
        raise NotationError(Msg("bank.notation.not_text", text=repr(text)))
    word = text.strip().lower()
    if word in _DRAW_WORDS:
        return T.DRAW
    if word in _PASS_WORDS:
        return T.PASS
    head, _, rest = word.partition(" ")
    if head in _TRUMP_WORDS:
        try:
            return T.CHOOSE0 + Suit.parse(rest)
        except NotationError as exc:
            raise NotationError(Msg("bank.notation.bad", text=clip(text), reason=exc.detail)) from None
    try:
        cards = [c.index for c in parse_cards(word.replace("+", " "))]
    except NotationError as exc:
        reason = card_reason(exc.detail, text)  # the entry is quoted once
        raise NotationError(Msg("bank.notation.bad", text=clip(text), reason=reason)) from None
    if len(cards) == 1:
        return cards[0]
    if len(cards) == 4 and len(set(cards)) == 4:
        faces = {c % 9 for c in cards}
        if len(faces) == 1:
            return T.FOUR0 + cards[3]
        ords = [T.FACE_ORD[c % 9] for c in cards]
        high = ords[0] > ords[1]
        if high:
            cards, ords = cards[::-1], ords[::-1]
        if ords == list(range(ords[0], ords[0] + 4)):
            s = [c // 9 for c in cards]
            return T.run_id(ords[0], (s[0], s[1], s[2], s[3]), high)
    raise NotationError(Msg("bank.notation.shape", text=clip(text)))
