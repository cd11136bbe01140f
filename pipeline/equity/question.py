"""The one equity question: a frozen :class:`Question` (game, seats, board, dead cards, what the
answer may cost) made by one validator, whatever the door: :meth:`Question.parse` from text (the
command line, the HTTP API, ``equity_seats``), :meth:`Question.from_cards` for typed callers
(``pipeline.hand_equity``). Every rule a question must keep is checked here and only here: the
board's size, a card named twice, the player cap, a deck too small for the deal, the Monte
Carlo stopping rules and the seed. Errors name the question's field at fault
(:class:`pipeline.errors.InputError`), which each door writes its own way (``opponents`` over
HTTP, ``-n`` on the command line).

>>> q = Question.parse("AsKs", ["QQ"], board="Kd 9s 4c")
>>> [s.label for s in q.seats], q.board, q.budget.limit
(['As Ks', 'QQ'], (45, 31, 8), 2.0)
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Union

from pipeline.core.cards import card_text, format_cards, parse_cards
from pipeline.core.constants import BOARD_CARDS, DECK_SIZE, MAX_PLAYERS, MAX_SAMPLES
from pipeline.equity.spots.seats import RANDOM_SEAT, Seat
from pipeline.errors import MAX_QUOTE, InputError, clip

if TYPE_CHECKING:
    from pipeline.equity.games.spec import Game
    from pipeline.equity.ranges.parse import Range

#: Cards as text (``"As Kd"``), ids or card names.
CardsInput = Union[str, Sequence[int], Sequence[str]]

#: Exact methods are chosen by themselves when their estimated time is at most this (s) ...
EXACT_SECONDS = 2.0
#: ... and an exact answer asked for (``exact``, the preflop command) may cost up to this (s).
EXACT_HARD_SECONDS = 600.0
#: Bounds of the stopping rules: a target standard error below MIN_STDERR would need more than
#: MAX_SAMPLES deals for any seat near 50 %; MAX_SECONDS is one hour.
MIN_STDERR = 1e-5
MAX_STDERR = 0.5
MAX_SECONDS = 3600.0
#: Seeds are below this: a seed is a non-negative int64 in the kernels.
SEED_LIMIT = 2 ** 63
#: Parsed seat and card texts kept per process (small spots are asked again and again).
PARSE_CACHE = 512
#: The game of a question that names none (and whose hero is not four cards).
HOLDEM = "holdem"
#: Board sizes of a flop game: preflop, flop, turn, river.
BOARD_SIZES = (0, 3, 4, 5)
#: Board sizes of a question about the cards a range makes (``hits``).
MADE_BOARD_SIZES = (3, 4, 5)
#: Hole cards of a hold'em hand and of an Omaha hand.
HOLDEM_HOLE, OMAHA_HOLE = 2, 4
#: Seat texts meaning a random hand.
RANDOM_WORDS = ("random", "any", "anytwo", "anyhand")
#: A seat given as bare cards: card names only (a range token always has a rank pattern).
_ONLY_CARDS = re.compile(r"(?:(?:10|[2-9tjqka])[cdhs])+", re.IGNORECASE)


class Ask(Enum):
    """What is asked: every seat's equity, the preflop tables' answer, or of one range (one
    seat, no opponents, read by its own command with its top-% order) the hands it makes on a
    board or its grid of classes."""

    EQUITY = "equity"
    PREFLOP = "preflop"
    HITS = "hits"
    RANGE = "range"

    @property
    def one_range(self) -> bool:
        """A question about one range alone."""
        return self in (Ask.HITS, Ask.RANGE)


@dataclass(frozen=True, slots=True)
class Budget:
    """What an answer may cost: ``exact`` insists on an exact method; one Monte Carlo stopping
    rule at most (``samples`` deals, a target ``stderr``, ``time`` seconds); ``seed`` makes
    Monte Carlo repeatable. Checked when made (InputError naming the field)."""

    exact: bool = False
    samples: int | None = None
    stderr: float | None = None
    time: float | None = None
    seed: int | None = None

    def __post_init__(self) -> None:
        given = [k for k, v in (("samples", self.samples), ("stderr", self.stderr),
                                ("time", self.time)) if v is not None]
        if len(given) > 1:
            raise InputError("choose one of {samples}, {stderr} and {time}", field=given[1])
        s, e, t = self.samples, self.stderr, self.time
        if s is not None and (isinstance(s, bool) or not 1 <= s <= MAX_SAMPLES):
            raise InputError("{samples} must be 1 .. {top}, got {got}", field="samples",
                             top=f"{MAX_SAMPLES:,}", got=clip(str(s)))
        if e is not None and not (math.isfinite(e) and MIN_STDERR <= e <= MAX_STDERR):
            raise InputError("{stderr} must be a number from {lo} to {hi}, got {got} (below {lo} "
                             "needs over {top} deals)", field="stderr", lo=f"{MIN_STDERR:g}",
                             hi=f"{MAX_STDERR:g}", got=clip(str(e)), top=f"{MAX_SAMPLES:,}")
        if t is not None and not (math.isfinite(t) and 0 < t <= MAX_SECONDS):
            raise InputError("{time} must be more than 0 and at most {hi} seconds, got {got}",
                             field="time", hi=f"{MAX_SECONDS:g}", got=clip(str(t)))
        if self.seed is not None and (isinstance(self.seed, bool) or not 0 <= self.seed < SEED_LIMIT):
            raise InputError("{seed} must be 0 .. 2^63-1, got {got}", field="seed",
                             got=clip(str(self.seed)))
        if self.exact and given:
            raise InputError("choose either {exact} or Monte Carlo ({samples}/{stderr}/{time})",
                             field="exact")

    @property
    def monte_carlo(self) -> bool:
        """Whether a Monte Carlo stopping rule was given."""
        return self.samples is not None or self.stderr is not None or self.time is not None

    @property
    def limit(self) -> float:
        """Longest estimated time an exact method may take (s)."""
        return EXACT_HARD_SECONDS if self.exact else EXACT_SECONDS

    def draw_seed(self) -> int:
        """The seed Monte Carlo uses: the one given, else a fresh one (reported in the answer)."""
        return self.seed if self.seed is not None else int.from_bytes(os.urandom(4), "little")


@dataclass(frozen=True, slots=True)
class Question:
    """A checked equity question (see the module docstring). ``seats``: the hero, the named
    opponents in order, then the random ones. ``breakdown``: the seat whose range is split by
    combo, if asked."""

    seats: tuple[Seat, ...]
    board: tuple[int, ...] = ()
    dead: tuple[int, ...] = ()
    game: str = HOLDEM
    budget: Budget = field(default_factory=Budget)
    ask: Ask = Ask.EQUITY
    breakdown: int | None = None

    @classmethod
    def parse(cls, hero: str, vs: Sequence[str] = (), opponents: int | None = None,
              board: str = "", dead: str = "", *, game: str | None = None, exact: bool = False,
              samples: int | None = None, stderr: float | None = None, time: float | None = None,
              seed: int | None = None, ask: Ask = Ask.EQUITY,
              breakdown: int | None = None) -> Question:
        """The question from text: the hero and each ``vs`` seat a hand, range or ``random``;
        ``opponents`` random hands more (default 1 without ``vs``); cards as text."""
        if not isinstance(hero, str) or not all(isinstance(v, str) for v in vs):
            raise InputError("seats are text: a hand, a range or random", field="hero")
        args = (hero, tuple(vs), opponents, board, dead, game, bool(exact), samples, stderr, time,
                seed, ask, breakdown)
        try:
            hash(args)
        except TypeError:  # a value of a type no door sends: checked, not cached
            return _from_text(*args)
        return _parsed_question(*args)

    @classmethod
    def from_cards(cls, hero: CardsInput, board: CardsInput = (), opponents: int | None = None,
                   vs: Sequence[CardsInput] = (), dead: CardsInput = (), *,
                   game: str | None = None, exact: bool = False, samples: int | None = None,
                   stderr: float | None = None, time: float | None = None,
                   seed: int | None = None, ask: Ask = Ask.EQUITY,
                   breakdown: int | None = None) -> Question:
        """The question from typed cards (ids or card names; text is read as by :meth:`parse`,
        so a seat may still be a range). Four hole cards are an Omaha hand."""
        budget = Budget(bool(exact), samples, stderr, time, seed)
        rules = None if ask.one_range else _game_of(hero, game, ask)
        b = _cards(board, "board")
        d = _cards(dead, "dead")
        _check_board(b, rules, ask)
        n_random = _check_players(opponents, len(vs), ask)
        seats = tuple(_seat(s, rules, i, ask) for i, s in enumerate([hero, *vs]))
        seats += (RANDOM_SEAT,) * n_random
        _check_distinct(b, d, seats, rules)
        _check_deck(len(b), len(d), len(seats), rules)
        q = cls(seats, b, d, rules.name if rules is not None else HOLDEM, budget, ask, breakdown)
        if breakdown is not None:
            _check_breakdown(q, game)
        return q

    @property
    def limit(self) -> float:
        """Longest estimated time an exact method may take (s): longer when an exact answer is
        asked for (``exact``, or the preflop tables' question, which never samples)."""
        return EXACT_HARD_SECONDS if self.ask is Ask.PREFLOP else self.budget.limit

    @property
    def heads_up(self) -> bool:
        """Two seats."""
        return len(self.seats) == 2

    @property
    def n_random(self) -> int:
        """Seats holding a random hand."""
        return sum(s.random for s in self.seats)

    def with_first(self, seat: int) -> Question:
        """The same deal with ``seat`` moved first (its combos split as the hero's would be)."""
        order = [self.seats[seat], *self.seats[:seat], *self.seats[seat + 1:]]
        return Question(tuple(order), self.board, self.dead, self.game, self.budget, self.ask)


def _from_text(hero: str, vs: tuple[str, ...], opponents: int | None, board: str, dead: str,
               game: str | None, exact: bool, samples: int | None, stderr: float | None,
               time: float | None, seed: int | None, ask: Ask, breakdown: int | None) -> Question:
    return Question.from_cards(hero, board, opponents, vs, dead, game=game, exact=exact,
                               samples=samples, stderr=stderr, time=time, seed=seed, ask=ask,
                               breakdown=breakdown)


#: :meth:`Question.parse` once per distinct question text (a small spot is asked again and again:
#: its checks cost more than its answer); typed, so ``samples=True`` is never ``samples=1``.
_parsed_question = functools.lru_cache(maxsize=PARSE_CACHE, typed=True)(_from_text)


# --------------------------------------------------------------------------- the parts
def _game_of(hero: CardsInput, game: str | None, ask: Ask) -> Game | None:
    """The question's game (None: hold'em): the one named, else Omaha for four bare cards."""
    if game is None:
        try:
            n = _bare_cards(hero)
        except InputError as exc:
            raise _blame(exc, "hero") from None
        if n is None or n == HOLDEM_HOLE:
            return None
        if n != OMAHA_HOLE:
            raise InputError("expected 2 hole cards (hold'em) or 4 (Omaha), got {n}: {got}; other "
                             "games: {game} omaha5, omaha6, stud, stud-hi-lo, razz, ...",
                             field="hero", n=n, got=clip(hero))
        game = "omaha"
    from pipeline.equity.games.spec import get_game

    try:
        rules = get_game(game)
    except InputError as exc:
        raise _blame(exc, "game") from None
    if rules is not None and ask is Ask.PREFLOP:
        raise InputError("the preflop tables are hold'em tables: give 2 hole cards", field="hero")
    return rules


def _bare_cards(seat: CardsInput) -> int | None:
    """How many cards a seat names when it is bare cards (text of card names, or ids), else None."""
    return _bare_text(seat) if isinstance(seat, str) else len(parse_cards(seat))


@functools.lru_cache(maxsize=PARSE_CACHE)
def _bare_text(seat: str) -> int | None:
    text = "".join(seat.split())
    return len(parse_cards(text)) if _ONLY_CARDS.fullmatch(text) else None


@functools.lru_cache(maxsize=PARSE_CACHE)
def _card_text(text: str) -> tuple[int, ...]:
    """Board or dead cards parsed once per text (an InputError is not cached)."""
    return tuple(parse_cards(text)) if text.strip() else ()


def _cards(cards: CardsInput, name: str) -> tuple[int, ...]:
    try:
        if isinstance(cards, str):
            return _card_text(cards)
        return tuple(parse_cards(cards)) if len(cards) else ()
    except InputError as exc:
        raise _blame(exc, name) from None


def _blame(exc: InputError, name: str) -> InputError:
    """``exc`` naming ``name`` as its field, unless it names one already."""
    if exc.field is None:
        exc.field = name
    return exc


def _check_board(board: tuple[int, ...], rules: Game | None, ask: Ask) -> None:
    """The one board-size rule: 0, 3, 4 or 5 cards in a flop game (3 to 5 to ask what a range
    makes), none in stud."""
    if rules is not None and rules.stud:
        if board:
            raise InputError("{name} has no board: give each seat's known cards (down and up) "
                             "and folded up cards as {dead}", field="board", name=rules.name)
        return
    check_board_size(board, MADE_BOARD_SIZES if ask is Ask.HITS else BOARD_SIZES)


def check_board_size(board: Sequence[int], sizes: Sequence[int]) -> None:
    """The board has one of ``sizes`` cards (InputError naming the field ``board``)."""
    if len(board) not in sizes:
        want = ", ".join(str(s) for s in sizes[:-1]) + f" or {sizes[-1]}"
        raise InputError("the board must have {want} cards, got {n}: {cards}", field="board",
                         want=want, n=len(board), cards=format_cards(board) or "(none)")


def board_and_dead(board: str, dead: str, sizes: Sequence[int]) -> tuple[list[int], list[int]]:
    """Board and dead cards of a view of one range (the page's grid, whose board is picked card
    by card): read, the board's size one of ``sizes``, no card in both (the question's rules)."""
    b, d = _cards(board, "board"), _cards(dead, "dead")
    check_board_size(b, sizes)
    _check_distinct(b, d, (), None)
    return list(b), list(d)


def _check_players(opponents: int | None, named: int, ask: Ask) -> int:
    """The one player cap (:data:`MAX_PLAYERS` seats, the hero included): the random seats."""
    if ask.one_range:
        return 0
    if ask is Ask.PREFLOP and named and opponents not in (None, 1):
        raise InputError("{vs} RANGE is heads-up: the matchup table holds one opponent", field="vs")
    if opponents is None:
        opponents = 0 if named else 1
    if isinstance(opponents, bool) or not isinstance(opponents, int):
        raise InputError("{opponents} must be a whole number, got {got}", field="opponents",
                         got=clip(str(opponents)))
    if ask is Ask.PREFLOP and named:
        opponents = 0  # the --vs range is the one opponent
    if opponents < 0:
        raise InputError("{opponents} must be 0 or more random opponents, got {got}",
                         field="opponents", got=clip(str(opponents)))
    if opponents + named > MAX_PLAYERS - 1:
        # checked before any seat is made: 10**20 opponents must not build 10**20 seats
        raise InputError("at most {most} opponents in all ({players} players), got {n} random "
                         "({opponents}) and {k} named ({vs})",
                         field="opponents" if opponents else "vs", most=MAX_PLAYERS - 1,
                         players=MAX_PLAYERS, n=_count(opponents), k=named)
    if opponents + named == 0:
        raise InputError("need at least one opponent ({opponents} K or {vs} RANGE)",
                         field="opponents")
    return opponents


def _count(n: int) -> str:
    """A count from the user as a message shows it (a 10**20 is cut, not echoed whole)."""
    text = str(n)
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE] + "…"


def _seat(seat: CardsInput, rules: Game | None, i: int, ask: Ask) -> Seat:
    """One named seat, checked by its game's rules."""
    name = "hero" if i == 0 else "vs"
    try:
        if not isinstance(seat, str):
            cards = tuple(parse_cards(seat))
            return _hand_seat(cards, rules, i)
        if ask.one_range:
            return Seat(seat, " ".join(seat.split()))  # read by its command, with its top-% order
        if rules is None:
            return _holdem_seat(seat)
        return _game_seat(seat, rules, i)
    except InputError as exc:
        raise _blame(exc, name) from None


def _hand_seat(cards: tuple[int, ...], rules: Game | None, i: int) -> Seat:
    """A seat given as card ids: one hand of its game."""
    if rules is None:
        if len(cards) != HOLDEM_HOLE:
            raise InputError(f"hold'em hands have 2 hole cards, got {len(cards)}: "
                             f"{format_cards(cards) or '(none)'}")
        return Seat("", format_cards(cards), cards)
    return _game_seat(format_cards(cards), rules, i)


@functools.lru_cache(maxsize=PARSE_CACHE)
def _holdem_seat(text: str) -> Seat:
    """A hold'em seat from its text (a range of one combo is a hand). A top-% range is read
    when the question is answered (its order comes from the preflop table)."""
    if "%" in text:
        return Seat(text, " ".join(text.split()))
    r = parsed_range(text)
    random = r.is_random and "".join(text.split()).lower() in RANDOM_WORDS
    if random:
        return Seat(text, "random", (), True)
    return Seat(text, r.label(), tuple(r.cards()) if r.is_single else ())


@functools.lru_cache(maxsize=PARSE_CACHE)
def parsed_range(text: str) -> Range:
    """A range without ``N%`` tokens, parsed once per process (small spots are asked again and
    again; their parse cost more than their enumeration). Read-only, since it is shared."""
    from pipeline.equity.ranges.parse import parse_range

    r = parse_range(text)
    r.hands.flags.writeable = False
    r.weights.flags.writeable = False
    return r


def _game_seat(text: str, rules: Game, i: int) -> Seat:
    """A seat of another game: its known cards, a range of the game's hands, or random."""
    from pipeline.equity.games.equity import game_range

    t = "".join(text.split())
    if t.lower() in RANDOM_WORDS:
        return Seat(text, "random", (), True)
    who = "the hero" if i == 0 else f"seat {i + 1}"
    if _ONLY_CARDS.fullmatch(t):
        cards = tuple(parse_cards(t))
        _check_in_deck(cards, rules, who, "hero" if i == 0 else "vs")
        if rules.stud and not 1 <= len(cards) <= rules.hole:
            raise InputError(f"{rules.name}: {who} has 1 to {rules.hole} known cards, got "
                             f"{len(cards)}: {clip(text)}")
        if not rules.stud and len(cards) != rules.hole:
            raise InputError(f"{rules.name} hands have {rules.hole} hole cards; {who} has "
                             f"{len(cards)}: {clip(text)}")
        return Seat(text, format_cards(cards), cards)
    rows, _ = game_range(text, rules, who)
    if len(rows) == 1:
        return Seat(text, format_cards(rows[0]), tuple(int(c) for c in rows[0]))
    return Seat(text, text.strip())


def _check_in_deck(cards: Sequence[int], rules: Game | None, what: str, field: str) -> None:
    """Cards a short deck lacks are refused."""
    if rules is None or not rules.lowest_rank:
        return
    for c in cards:
        if c >> 2 < rules.lowest_rank:
            raise InputError("card {card} in {what} is not in the {name} deck (ranks 6 to A)",
                             field, card=card_text(c), what=what, name=rules.name)


def _check_distinct(board: tuple[int, ...], dead: tuple[int, ...], seats: tuple[Seat, ...],
                    rules: Game | None) -> None:
    """The one rule that no card is dealt twice: board, dead cards and one-hand seats."""
    _check_in_deck(board, rules, "the board", "board")
    _check_in_deck(dead, rules, "the dead cards", "dead")
    owner: dict[int, str] = {}
    groups = [("the board", "board", board), ("dead", "dead", dead)] + [
        (f"the hero's {s.label}" if i == 0 else f"vs{i}'s {s.label}", "hero" if i == 0 else "vs",
         s.hand)
        for i, s in enumerate(seats) if s.hand]
    for name, where, cards in groups:
        for c in cards:
            if c in owner:
                raise InputError("card {card} appears twice (in {first} and {second})",
                                 field=where, card=card_text(c), first=owner[c], second=name)
            owner[c] = name


def _check_deck(n_board: int, n_dead: int, n_seats: int, rules: Game | None) -> None:
    """The one deck-size rule: the board still to come and every seat's cards fit in the
    cards nobody holds."""
    if rules is None:
        hole, deck, to_come = HOLDEM_HOLE, DECK_SIZE, BOARD_CARDS - n_board
    else:
        hole, deck, to_come = rules.hole, rules.deck_size, rules.board - n_board
    need = to_come + hole * n_seats
    have = deck - n_board - n_dead
    if need > have:
        raise InputError("deck exhausted: {seats} seats and {to_come} board cards need {need} "
                         "cards but only {have} are left", field="opponents", seats=n_seats,
                         to_come=to_come, need=need, have=have)


def _check_breakdown(q: Question, game: str | None) -> None:
    """A breakdown splits a hold'em range seat by combo, one answer per combo."""
    if q.game != HOLDEM:
        if game is None:
            raise InputError("{breakdown} splits a hold'em range by combo; an Omaha hand is one "
                             "combo", field="breakdown")
        raise InputError("{breakdown} splits a hold'em range by combo; not for {game} {name}",
                         field="breakdown", name=game[:MAX_QUOTE])
    if q.budget.time is not None:
        raise InputError("{breakdown} runs one answer per combo: give {samples} or {stderr}, "
                         "not {time}", field="time")
    seat = q.breakdown
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(q.seats):
        raise InputError("{breakdown} seat {got}: give 0 (the hero) to {last} (the last of the "
                         "{n} seats)", field="breakdown",
                         got=seat if isinstance(seat, int) else clip(str(seat)),
                         last=len(q.seats) - 1, n=len(q.seats))


__all__ = ["Ask", "Budget", "CardsInput", "EXACT_HARD_SECONDS", "EXACT_SECONDS", "HOLDEM",
           "Question", "RANDOM_SEAT", "Seat", "board_and_dead", "check_board_size", "parsed_range"]
