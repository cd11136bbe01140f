"""The typed request bodies of the JSON API: one model per endpoint, fields named as the CLI names
its arguments and options (``hero``, ``vs``, ``board``, ``samples``, ``paytable``, ``pay`` ...),
every text and list capped (:mod:`pipeline.serve.security`), unknown fields refused."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from pipeline.serve.security import MAX_BATCH, MAX_LINES, MAX_LIST, MAX_TEXT

if TYPE_CHECKING:
    from pipeline.equity.question import Question as EquityQuestion

#: a text field (cards, a range, a game's name ...)
Text = Annotated[str, Field(max_length=MAX_TEXT)]
#: a seed: a whole number that fits the generators' 64 bits
Seed = Annotated[int, Field(ge=0, le=2**63 - 1)]
#: one showdown line is ten cards (~30 characters)
LINE_TEXT = 200
#: the most deals one ``vp deal`` request gives (as ``vp deal --count``)
MAX_DEALS = 10_000
#: longest chart a client may ask for (the default is 40 lines)
MAX_CHART_LINES = 200
#: most games compared side by side
MAX_COMPARE = 8
DEFAULT_GAME = "jacks-or-better-9-6"


class Body(BaseModel):
    """A request body: unknown fields are an error, not silently dropped; values are taken by
    their JSON type (strict): ``"samples": true`` or ``"5"`` is not a count and ``"exact": "yes"``
    not a boolean (a lax model would read them as 1, 5 and true)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class EquityBody(Body):
    """``equity``: the hero and each opponent seat (hand, range or random). Numbers are checked
    by the question (:meth:`question`), with the command line's messages naming these fields."""

    hero: Text
    vs: Annotated[list[Text], Field(max_length=MAX_LIST)] = []
    opponents: Optional[int] = None
    board: Text = ""
    dead: Text = ""
    exact: bool = False
    samples: Optional[int] = None
    stderr: Optional[float] = None
    time: Optional[float] = None
    seed: Optional[int] = None
    breakdown: Optional[int] = None
    #: holdem (default), omaha, omaha5, omaha6, omaha-hi-lo, short-deck, stud, stud-hi-lo, razz
    game: Optional[Text] = None

    def question(self) -> EquityQuestion:
        """The one equity question of this body (InputError naming the bad field)."""
        from pipeline.equity.question import Question as EquityQuestion

        return EquityQuestion.parse(self.hero, self.vs, self.opponents, self.board, self.dead,
                              game=self.game, exact=self.exact, samples=self.samples,
                              stderr=self.stderr, time=self.time, seed=self.seed,
                              breakdown=self.breakdown)


class PreflopBody(Body):
    """``preflop``: a hand or range vs random hands or heads-up vs a range, from the tables."""

    hand: Text
    vs: Optional[Text] = None
    opponents: Optional[int] = None

    def question(self) -> EquityQuestion:
        """The preflop tables' question of this body."""
        from pipeline.equity.question import Ask
        from pipeline.equity.question import Question as EquityQuestion

        return EquityQuestion.parse(self.hand, [self.vs] if self.vs is not None else [], self.opponents,
                              ask=Ask.PREFLOP)


class RangeBody(Body):
    """``range``: a range with the board and dead cards it must avoid."""

    range: Text
    board: Text = ""
    dead: Text = ""
    #: holdem (default), short-deck, or an Omaha game (the range's hands as a list)
    game: Optional[Text] = None


class HitsBody(Body):
    """``hits``: a range on a flop, turn or river."""

    range: Text
    board: Text
    dead: Text = ""

    def question(self) -> EquityQuestion:
        """The question of the hands this range makes on this board."""
        from pipeline.equity.question import Ask
        from pipeline.equity.question import Question as EquityQuestion

        return EquityQuestion.parse(self.range, board=self.board, dead=self.dead, ask=Ask.HITS)


class EvalBody(Body):
    """``eval``: 5, 6 or 7 cards under a rule set."""

    cards: Text
    rules: Text = "standard"


class ShowdownBody(Body):
    """``showdown``: lines of ten cards (Black's five, then White's five)."""

    lines: Annotated[list[Annotated[str, Field(max_length=LINE_TEXT)]], Field(max_length=MAX_LINES)]
    rules: Text = "standard"


class Pays(Body):
    """A game and, optionally, pays edited in place (``["full house=8"]``)."""

    pay: Annotated[list[Text], Field(max_length=MAX_LIST)] = []


class AnalyzeBody(Pays):
    """``vp analyze``."""

    paytable: Text
    strategy: Text = ""
    chart: bool = False


class HoldBody(Pays):
    """``vp hold``: the EV of all 32 holds of a deal."""

    deal: Text
    paytable: Text


class GradeBody(Pays):
    """``vp grade``: a deal and the hold played."""

    deal: Text
    hold: Text
    paytable: Text = DEFAULT_GAME


class ChartBody(Pays):
    """``vp chart``."""

    paytable: Text
    max_lines: Annotated[Optional[int], Field(ge=2, le=MAX_CHART_LINES)] = None
    derive: bool = False


class BreakevenBody(Pays):
    """``vp breakeven``: the pay of ``line`` at which the optimal return reaches ``target``."""

    paytable: Text
    line: Text = "royal flush"
    target: Text = "1"
    step: Text = ""
    max_pay: Text = "100000"
    bet: Annotated[list[Text], Field(max_length=MAX_LIST)] = []
    table: bool = False
    start: Text = ""
    stop: Text = ""


class CompareBody(Pays):
    """``vp compare``: games side by side (``pay``: the first game also as edited)."""

    paytables: Annotated[list[Text], Field(min_length=1, max_length=MAX_COMPARE)]


class DealBody(Body):
    """``vp deal``: seeded, repeatable deals of a game."""

    paytable: Text = DEFAULT_GAME
    seed: Optional[Seed] = None
    count: Annotated[int, Field(ge=1, le=MAX_DEALS)] = 1


class BucketBody(Body):
    """``bucket``: a hole and board's card-abstraction class and buckets."""

    hole: Text
    board: Text = ""


#: the kinds of question a batch or a job may hold, each with its body model
Kind = Literal["equity", "preflop", "range", "hits", "eval", "showdown", "bucket", "vp/analyze",
               "vp/hold", "vp/grade", "vp/chart", "vp/breakeven", "vp/compare", "vp/deal"]


class Question(Body):
    """One question of a batch, or a job: its kind (the endpoint's path after ``/api/``) and body."""

    kind: Kind
    body: dict[str, Any]


class BatchBody(Body):
    """Many questions in one request, answered in order."""

    requests: Annotated[list[Question], Field(max_length=MAX_BATCH)]


MODELS: dict[str, type[Body]] = {
    "equity": EquityBody, "preflop": PreflopBody, "range": RangeBody, "hits": HitsBody,
    "eval": EvalBody, "showdown": ShowdownBody, "bucket": BucketBody, "vp/analyze": AnalyzeBody,
    "vp/hold": HoldBody, "vp/grade": GradeBody, "vp/chart": ChartBody,
    "vp/breakeven": BreakevenBody, "vp/compare": CompareBody, "vp/deal": DealBody,
}
