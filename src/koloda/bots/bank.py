"""Bank bots: the heuristic player, the world sampler and the search bot.

Everything starts from a :class:`koloda.bank.BankObservation`: the bank and all captured cards lie face
up, so the unseen cards are the other hands and the stock; the public history says who laid what, who
drew and who failed.

>>> from koloda.bank import new_game, observe
>>> state = new_game(players=3, seed=2, scope="deal")
>>> bot = BankHeuristicBot(seed=0)
>>> while not state.is_over():
...     seat = state.current_player
...     state.apply(bot.choose(observe(state, seat), state.legal_actions()))
>>> len(state.results)
1
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from koloda.bank import tables as T
from koloda.bank.observe import BankObservation
from koloda.bank.options import BankOptions
from koloda.bank.state import BankState, parse_action
from koloda.bank.worlds import deal_state
from koloda.bots.levels import BotSpec
from koloda.bots.search import SearchBot
from koloda.cards import Card, Suit
from koloda.errors import KolodaError

_TEXT_CARDS: dict[str, tuple[int, ...]] = {}


def laid_cards(text: str) -> tuple[int, ...]:
    """The card indices an action text lays, in the order laid (empty for draw, pass, trump choice).

    >>> laid_cards("KH+QH+JH+9H"), laid_cards("draw")
    ((34, 33, 32, 30), ())
    """
    cards = _TEXT_CARDS.get(text)
    if cards is None:
        if text in ("draw", "pass") or text.startswith("trump"):
            cards = ()
        else:
            cards = tuple(Card.parse(part).index for part in text.split("+"))
        _TEXT_CARDS[text] = cards
    return cards


_TEXT_ACTIONS: dict[str, int] = {}


def _action_of(text: str) -> int:
    action = _TEXT_ACTIONS.get(text)
    if action is None:
        action = _TEXT_ACTIONS[text] = parse_action(text)
    return action


_CARD_BITS: dict[str, int] = {str(T.card(c)): 1 << c for c in range(36)}


def _mask(cards: Sequence[str]) -> int:
    m = 0
    for text in cards:
        m |= _CARD_BITS[text]
    return m


def seat_classes(obs: BankObservation, seat: int) -> tuple[int, int, int, int]:
    """Rule 3: the trump class of each suit as ``seat`` sees it (0 plain, 1 trump, 2 senior trump)."""
    classes = [0, 0, 0, 0]
    suits = [Suit.parse(s) if s != "-" else None for s in obs.trump_suits]
    if obs.trumps == "own":
        own = suits[seat] if seat < len(suits) else None
        if own is not None:
            classes[own] = 1
    elif obs.trumps == "senior-junior" and len(suits) == 2:
        senior, junior = suits
        if senior is not None and junior is not None:
            classes[senior], classes[junior] = 2, 1
    elif obs.trumps in ("one", "two"):
        for s in suits:
            if s is not None:
                classes[s] = 1
    return classes[0], classes[1], classes[2], classes[3]


class BankHeuristicBot:
    """A hand-written player. It goes out when it can (and with four of a kind or a run for the bonus),
    keeps its 8s, 6s and combinations for the moment they pay, lays its high-point cards before they cost
    a penalty, and prefers the move whose top card the next player is least likely to cover when the bank
    is rich, counting the cards he could hold among those not yet seen. ``noise`` is the share of random
    moves (the ``easy`` level)."""

    def __init__(self, seed: int = 0, *, noise: float = 0.0, options: BankOptions | None = None) -> None:
        self._rng = random.Random(seed)
        self._noise = noise
        self._options = options or BankOptions()

    def choose(self, observation: object, legal_actions: Sequence[int]) -> int:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        if self._noise and self._rng.random() < self._noise:
            return legal_actions[self._rng.randrange(len(legal_actions))]
        assert isinstance(observation, BankObservation)
        if legal_actions[0] >= T.CHOOSE0:  # rule 3.2: choosing one's trump before the deal; any suit
            return legal_actions[self._rng.randrange(len(legal_actions))]
        return self.ranked(observation, legal_actions)[0]

    def ranked(self, obs: BankObservation, legal_actions: Sequence[int]) -> list[int]:
        """The legal moves from the heuristic's best to its worst (ties: the lower id first)."""
        hand = _mask(obs.hand)
        seen = hand | _mask(obs.bank)
        for pile in obs.captured_cards:
            seen |= _mask(pile)
        unseen = T.FULL_DECK & ~seen
        nxt = self._next_seat(obs)
        table = T.cover_table(seat_classes(obs, nxt), self._options.two_trumps_cover == "free")
        bank_points = T.points_of(_mask(obs.bank))
        bank_size = len(obs.bank)
        fours = _fours(hand)
        runs = _runs(hand)

        def score(action: int) -> float:
            if action in (T.DRAW, T.PASS):
                return -1000.0 if action == T.DRAW else 0.0
            cards = laid_cards(obs_text(action))
            laid = sum(1 << c for c in cards)
            left = hand & ~laid
            value = 0.0
            if not left:  # going out: a place (rule 7.2) and no penalty; four of a kind or a run pays more
                value += 100 + (75 if len(cards) == 4 and cards[0] % 9 == cards[-1] % 9 else 0)
                value += 30 if len(cards) == 4 and cards[0] % 9 != cards[-1] % 9 else 0
                value += 20 if cards[-1] % 9 == T.KING else 0
                return value
            value += 0.4 * T.points_of(laid)  # points laid cannot be a penalty at the end (rule 7.6)
            for c in cards:
                face = c % 9
                if face == T.EIGHT:
                    value -= 6  # an 8 goes on anything: worth keeping for a stuck moment (rule 4.5)
                elif face == T.SIX:
                    value -= 3  # the 6 covers its whole suit (rule 4.4)
                if laid >> c & 1 and (fours & (1 << c) or runs & (1 << c)) and len(cards) == 1:
                    value -= 8  # breaks a four or a run kept to go out with
            if len(cards) == 4 and len(cards) < hand.bit_count():
                value -= 25  # a combination laid early wastes its bonus
            top = cards[-1]
            pot = bank_points + T.points_of(laid)
            if bank_size + len(cards) >= 2 and nxt != obs.seat:  # a one-card bank is never taken (5.2)
                covering = (table[top] | T.EIGHTS) & unseen
                value += pot * _fail_chance(covering.bit_count(), unseen.bit_count(), obs, nxt)
            return value

        def obs_text(action: int) -> str:
            from koloda.bank.state import action_text

            return action_text(action)

        return sorted(legal_actions, key=lambda a: (-score(a), a))

    @staticmethod
    def _next_seat(obs: BankObservation) -> int:
        n = obs.players
        for k in range(1, n + 1):
            p = (obs.seat + k) % n
            if not obs.out[p]:
                return p
        return obs.seat


def _fail_chance(covering: int, unseen: int, obs: BankObservation, seat: int) -> float:
    """The chance that ``seat`` holds none of ``covering`` cards among ``unseen`` (and draws none)."""
    if unseen <= 0:
        return 0.0
    held = obs.hand_counts[seat] + (1 if obs.stock_size else 0)
    p = 1.0
    for k in range(min(held, unseen)):
        p *= max(0.0, (unseen - covering - k) / (unseen - k))
    return p


def _fours(hand: int) -> int:
    out = 0
    for f in range(9):
        if hand & T.RANK_MASK[f] == T.RANK_MASK[f]:
            out |= T.RANK_MASK[f]
    return out


def _runs(hand: int) -> int:
    out = 0
    for s in range(4):
        suit = hand >> (9 * s) & 511
        for start in T.RUN_STARTS9[suit]:
            for k in range(4):
                out |= 1 << (9 * s + T.ORD_FACE[start + k])
    return out


# --- sampled worlds -------------------------------------------------------------------------------------


class WorldSampler:
    """Draws full deal states consistent with a seat's observation. The unseen cards are dealt at random
    to the other hands and the stock; the deal's start is rebuilt (a card drawn and laid at once is the
    card laid; a card drawn before a failure is one the player still held) and the public history is
    replayed through the engine, which rejects any world where a recorded move would have been illegal:
    so every world agrees with who moved first (rule 4.1), with every draw and every failure (rule 4.9).
    The automatic draws of rule 4.8 (``seven=draw-and-move`` / ``skip-and-draw``) are not in the history:
    such positions are not sampled and the bot plays its heuristic move."""

    def __init__(self, options: BankOptions, attempts: int = 40) -> None:
        self._options = (
            options.replace(trump_choice="random") if options.trump_choice == "in-turn" else options
        )
        self._attempts = attempts
        self._auto_draws = options.seven in ("draw-and-move", "skip-and-draw")

    def __call__(self, obs: BankObservation, rng: random.Random) -> BankState | None:
        if obs.phase == "choose-trump" or obs.current_player != obs.seat:
            return None
        for _ in range(self._attempts):
            world = self._try(obs, rng)
            if world is not None:
                return world
        return None

    def _try(self, obs: BankObservation, rng: random.Random) -> BankState | None:
        n, me = obs.players, obs.seat
        hand = _mask(obs.hand)
        public = _mask(obs.bank)
        for pile in obs.captured_cards:
            public |= _mask(pile)
        laid = [0] * n
        events: list[tuple[int, str]] = list(obs.history)
        for seat, text in events:
            for c in laid_cards(text):
                laid[seat] |= 1 << c
        all_laid = 0
        for m in laid:
            all_laid |= m
        open_mask = public & ~all_laid
        if open_mask.bit_count() != 1:
            return None
        active = [p for p in range(n) if obs.hand_counts[p] or laid[p] or p == me]
        if self._auto_draws and any(c % 9 == T.SEVEN for m in laid for c in T.cards_of(m)):
            return None  # rule 4.8 drew cards that are not in the history: not sampled
        forbidden = self._forbidden(obs, events, open_mask.bit_length() - 1)
        pool = T.cards_of(T.FULL_DECK & ~hand & ~public)
        rng.shuffle(pool)
        hands = [0] * n
        hands[me] = hand
        room = {p: obs.hand_counts[p] for p in range(n) if p != me and obs.hand_counts[p]}
        stock: list[int] = []
        # an explicit deal may leave cards out of play (from_deal); a shuffled deal uses all 36
        spare = len(pool) - sum(room.values()) - obs.stock_size
        for c in pool:
            seats = [p for p, r in room.items() if r and not forbidden[p] >> c & 1]
            free = len(stock) < obs.stock_size
            k = rng.randrange(len(seats) + free) if seats or free else -1
            if k < 0:
                if spare <= 0:
                    return None
                spare -= 1
                continue
            if k == len(seats):
                stock.append(c)
            else:
                hands[seats[k]] |= 1 << c
                room[seats[k]] -= 1
        if len(stock) != obs.stock_size or any(room.values()):
            return None
        # rebuild the start: which card each draw brought; a draw followed at once by a single card laid
        # brought that card (the player could not move before drawing, so his move uses the drawn card)
        forced: dict[int, int] = {}
        taken = [0] * n
        for k, (seat, text) in enumerate(events):
            if text == "draw" and k + 1 < len(events) and events[k + 1][0] == seat:
                cards = laid_cards(events[k + 1][1])
                if len(cards) == 1:
                    forced[k] = cards[0]
                    taken[seat] |= 1 << cards[0]
        drawn: list[int] = []
        for k, (seat, text) in enumerate(events):
            if text != "draw":
                continue
            after = events[k + 1][1] if k + 1 < len(events) and events[k + 1][0] == seat else None
            cards = laid_cards(after) if after is not None else ()
            if k in forced:
                drawn.append(forced[k])
                continue
            else:
                later = 0
                for s, t in events[k + 1 :]:
                    if s == seat:
                        for c in laid_cards(t):
                            later |= 1 << c
                options = T.cards_of((hands[seat] | later) & ~taken[seat])
                if cards:
                    options = [c for c in cards if not taken[seat] >> c & 1]
                if not options:
                    return None
                card = options[rng.randrange(len(options))]
            taken[seat] |= 1 << card
            drawn.append(card)
        initial = [(hands[p] | laid[p]) & ~taken[p] for p in range(n)]
        if any(initial[p].bit_count() != 4 for p in active):
            return None
        if "-" in obs.trump_suits:
            return None
        hands_list = [T.cards_of(initial[p]) for p in range(n)]
        if any(not h for h in hands_list):
            return None  # a seat sitting out a tie deal (rule 8.2): not sampled
        suits = [int(Suit.parse(letter)) for letter in obs.trump_suits]
        open_card = open_mask.bit_length() - 1
        state = deal_state(self._options, obs.dealer, suits, hands_list, open_card, drawn + stock, obs.totals)
        try:
            for seat, text in events:
                if state.current_player != seat:
                    return None
                state.apply(_action_of(text))
        except KolodaError:
            return None
        if state.current_player != me or tuple(state.legal_actions()) != tuple(obs.legal_actions):
            return None
        return state

    def _forbidden(self, obs: BankObservation, events: list[tuple[int, str]], open_card: int) -> list[int]:
        """Per seat, the cards it cannot hold now: every card in a hand was already held at that seat's
        last failure (rule 4.9: a card drawn since then was laid at once), so none of them covers the card
        it failed against, and none is an 8 (rule 4.5)."""
        n = obs.players
        out = [0] * n
        top = open_card
        opening = True
        free = self._options.two_trumps_cover == "free"
        previous: tuple[int, str] | None = None
        for seat, text in events:
            cards = laid_cards(text)
            if cards:
                top, opening = cards[-1], False
            elif text == "pass" and not (
                previous is not None and previous[0] == seat and previous[1] != "draw"
            ):
                cover = T.cover_table(seat_classes(obs, seat), free)[top] | T.EIGHTS
                if opening and self._options.opening == "free":
                    cover |= T.SUIT_MASK[top // 9]
                out[seat] = cover
            previous = (seat, text)
        return out


def utility(state: BankState, seat: int) -> float:
    """A finished deal's value for ``seat``: its score minus the mean score of the others."""
    scores = state.results[-1].scores
    others = [s for p, s in enumerate(scores) if p != seat]
    return scores[seat] - sum(others) / len(others)


def make_search_bot(spec: BotSpec, seed: int, options: BankOptions | None) -> SearchBot:
    """The ``search`` bot of Bank: PIMC over sampled worlds with random playouts to the end of the deal,
    over the heuristic's two best moves, each tried in the same worlds with the same playout randomness
    (paired: Bank's deal luck dwarfs the difference one move makes; docs/performance.md "Bots")."""
    opts = options or BankOptions()
    heuristic = BankHeuristicBot(seed, options=opts)
    return SearchBot(
        seed,
        sampler=WorldSampler(opts),
        utility=utility,
        fallback=heuristic,
        shortlist=heuristic.ranked,
        width=2,
        paired=True,
        searchable=lambda obs, legal: legal[0] < T.DRAW,
        scale=40.0,
        worlds=10,
        margin=0.0 if spec.margin is None else spec.margin,
        iters=spec.iters,
        ms=spec.ms,
    )
