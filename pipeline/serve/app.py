"""The FastAPI application of ``pokertables serve``: the JSON API (each endpoint the CLI's
``--json`` answer of one command, from :mod:`pipeline.answers`), the batch and jobs endpoints, the
page (``static/``) and the OpenAPI description with its ``/docs`` page, whose swagger-ui assets are
served from the ``swagger-ui-bundle`` package (no CDN) and which reads the description as OpenAPI
3.0 (:mod:`pipeline.serve.openapi30`).

:func:`create_app` opens the artifacts once (a :class:`pipeline.answers.Context` shared by every
request) and, unless told not to, asks one small question of each kind so the numba kernels are
compiled or loaded before the first client arrives.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from pipeline.answers import Context
from pipeline.core.cancel import Stopped, checkpoint
from pipeline.errors import ArtifactError, InputError, PokertablesError
from pipeline.serve import models as m
from pipeline.serve.casino_api import casino_router
from pipeline.serve.jobs import Jobs
from pipeline.serve.openapi30 import openapi_30
from pipeline.serve.proof import ArtifactWatch, ProvenArtifacts
from pipeline.serve.security import (
    BAD_REQUEST,
    BUSY,
    Busy,
    HeavyLane,
    Limits,
    LocalOnly,
    allowed_hosts,
    check_samples,
)

log = logging.getLogger("pokertables.serve")

STATIC = Path(__file__).resolve().parent / "static"
#: the files every question needs; the server refuses to start without them
REQUIRED = ("eval_tables.h5", "seven.h5")
#: HTTP status of a request body that fails its model, and of an internal fault
UNPROCESSABLE = 422
INTERNAL = 500
#: the kinds answered in the event loop's thread pool at once: table reads, no parallel kernels
#: (unless :func:`is_light` sees a body that makes them solve: see there)
LIGHT = frozenset({"eval", "showdown", "range", "preflop", "vp/hold", "vp/grade", "vp/deal"})
#: characters of a bad value quoted back in an error
SHOWN = 60


def safe_game(name: str) -> str:
    """A paytable name from HTTP: a known game's slug or common name, never a file path (a path
    would let a web client make the server read any TOML file it can see)."""
    from pipeline.registry import PAYTABLES, entries
    from pipeline.videopoker.catalog.games import resolve_paytable

    text = name.strip()
    refused = InputError(f"paytable {name[:SHOWN]!r}: not a known game (the server takes names "
                         "from `vp list` or common names, not file paths)")
    if not text or text.lower().endswith(".toml") or text[0] in "/.~\\" or "\\" in text or "\0" in text:
        raise refused
    try:
        path = resolve_paytable(text)
    except InputError as exc:
        if "/" in text:  # a path-like text: say nothing about what exists on this machine
            raise refused from None
        raise exc from None
    if Path(path).resolve() not in {Path(p).resolve() for p in entries(PAYTABLES).values()}:
        raise refused
    return text


def safe_rules(name: str) -> str:
    """A rule set named from HTTP: one of the known names, never a file path."""
    from pipeline.registry import rule_set_names

    known = rule_set_names()
    if name not in known:
        raise InputError(f"rules {name[:SHOWN]!r}: not a known rule set; known: {', '.join(known)}")
    return name


def is_light(kind: str, body: m.Body) -> bool:
    """Whether a question is a table read (the thread pool) rather than heavy work (the heavy
    lane): classified by the work its body can ask, not by its endpoint's name. A pay edit makes
    ``vp/hold`` and ``vp/grade`` solve the edited game's deal categories (a second of both cores);
    an Omaha game makes ``range`` build the range's hands (up to 50 MB and a second)."""
    b: Any = body
    if kind not in LIGHT:
        return False
    if kind in ("vp/hold", "vp/grade") and b.pay:
        return False
    return not (kind == "range" and b.game is not None)


def answer(ctx: Context, kind: str, body: m.Body, limits: Limits,
           progress: Callable[[float, str], None] | None = None) -> Any:
    """The answer of one question (its body already validated by its model): the CLI's
    ``--json`` dict. Names from HTTP are checked here (no paths); Monte Carlo is capped. The
    caller's work token (:mod:`pipeline.core.cancel`) stops it; ``progress`` hears Monte Carlo's
    progress (default: the token's checkpoint)."""
    from pipeline.answers import equity as eq
    from pipeline.answers import hands, vp

    b: Any = body
    if kind == "equity":
        check_samples(b.samples, limits)
        if b.time is not None and b.time > limits.answer_seconds:
            raise InputError(f"time {b.time:g}: at most {limits.answer_seconds:g} s on this server")
        return eq.equity(ctx, b.question(), progress=progress or checkpoint)
    if kind == "preflop":
        return eq.preflop(ctx, b.question())
    if kind == "range":
        return eq.range_answer(ctx, b.range, board=b.board, dead=b.dead, game=b.game)
    if kind == "hits":
        return eq.hits(ctx, b.question())
    if kind == "eval":
        return hands.eval_hand(ctx, b.cards, safe_rules(b.rules))
    if kind == "showdown":
        return hands.showdown(ctx, b.lines, safe_rules(b.rules))
    if kind == "bucket":
        from pipeline.answers import bucket

        return bucket.bucket(ctx, hole=b.hole, board=b.board)
    if kind == "vp/deal":
        return vp.deal(ctx, safe_game(b.paytable), seed=b.seed, count=b.count)
    if kind == "vp/compare":
        return vp.compare(ctx, [safe_game(g) for g in b.paytables], pay=b.pay)
    game = safe_game(b.paytable)
    if kind == "vp/analyze":
        return vp.analyze(ctx, game, strategy=safe_game(b.strategy) if b.strategy else "",
                          chart=b.chart, pay=b.pay)
    if kind == "vp/hold":
        return vp.hold(ctx, b.deal, game, pay=b.pay)
    if kind == "vp/grade":
        return vp.grade(ctx, b.deal, b.hold, game, pay=b.pay)
    if kind == "vp/chart":
        return vp.chart(ctx, game, max_lines=b.max_lines, derive=b.derive, pay=b.pay)
    if kind == "vp/breakeven":
        return vp.breakeven(ctx, game, line=b.line, target=b.target, step=b.step, max_pay=b.max_pay,
                            bet=b.bet, table=b.table, start=b.start, stop=b.stop, pay=b.pay)
    raise InputError(f"unknown kind {kind[:SHOWN]!r}")  # pragma: no cover  (the models list them)


def _validation_message(exc: RequestValidationError | Any) -> str:
    """One line naming the first bad field and its value."""
    errors = exc.errors()
    if not errors:
        return "bad request body"
    e = errors[0]
    where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
    if e.get("type") == "json_invalid":
        return f"malformed JSON: {e.get('ctx', {}).get('error', e.get('msg'))}"
    value = e.get("input")
    shown = repr(value)
    if len(shown) > SHOWN:
        shown = shown[:SHOWN] + f"... ({len(shown):,} characters)"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {e.get('msg')}; got {shown}{more}"


def check_artifacts(folder: Path) -> None:
    """:class:`ArtifactError` (exit 2 at start) when the folder lacks what every answer needs."""
    missing = [f for f in REQUIRED if not (folder / f).is_file()]
    if not folder.is_dir() or missing:
        what = f"{folder} does not exist" if not folder.is_dir() else \
            f"{folder} lacks {', '.join(missing)}"
        raise ArtifactError(f"artifacts folder {what}; build it with `pokertables -a {folder} build` "
                            "(or `make tables` for ./artifacts)")


def warm(ctx: Context) -> None:
    """Ask one small question of each heavy kind so its kernels are compiled (or their cache
    loaded) before the first request: the first client waits no longer than the others."""
    from pipeline.answers import equity as eq
    from pipeline.answers import hands, vp
    from pipeline.equity.question import Ask, Question
    from pipeline.equity.warm import game_questions, parsed

    eq.equity(ctx, Question.parse("AsKs", ["QhQd"]))
    for q in game_questions():  # each game's exact and Monte Carlo kernels (about 1 s)
        eq.equity(ctx, parsed(q))
    eq.equity(ctx, Question.parse("AK,QQ", [], board="Ks 9d 4c"))
    eq.equity(ctx, Question.parse("AsKs", ["QhQd"], board="2c 7d 9h", samples=1_000, seed=1))
    eq.hits(ctx, Question.parse("QQ+,AKs", board="Ks 9d 4c", ask=Ask.HITS))
    hands.eval_hand(ctx, "As Ks Qs Js Ts")
    if (ctx.artifacts / "five.h5").is_file():
        hands.showdown(ctx, ["2H 3D 5S 9C KD 2C 3H 4S 8C AH"])  # maps five.h5 (2 s the first time)
    if (ctx.artifacts / "preflop.h5").is_file():
        eq.range_answer(ctx, "15%")  # reads the preflop ordering
    if (ctx.artifacts / "vp_classes.h5").is_file():
        vp.grade(ctx, "Js Jd 5h 8c Qs", "Js Jd")


def create_app(artifacts: Path, limits: Limits | None = None, bind: str = "127.0.0.1",
               warm_up: bool = True) -> FastAPI:
    """The application over ``artifacts`` (checked now: :class:`ArtifactError` when unusable)."""
    from pipeline.version import __version__

    lim = limits or Limits()
    check_artifacts(Path(artifacts))
    ctx = Context(Path(artifacts))
    ctx.tables().eval_tables()  # open (and integrity-check) the evaluator now, not at the first request
    if warm_up:
        warm(ctx)
    watch = ArtifactWatch(ctx)
    watch.prove(sorted(ctx.opened_files()))  # the signatures the served files are proven at
    lane = HeavyLane(lim.heavy_slots, lim.heavy_queue, lim.queue_seconds)
    jobs = Jobs(lim, lambda kind, body, progress: answer(ctx, kind, body, lim, progress))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        lane.close()
        jobs.close()

    app = FastAPI(title="pokertables", version=__version__, docs_url=None, redoc_url=None, lifespan=lifespan,
                  description="The pokertables CLI's `--json` answers over HTTP (docs/serve.md).")
    app.state.ctx, app.state.lane, app.state.jobs, app.state.limits = ctx, lane, jobs, lim

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _validation_message(exc)}, status_code=UNPROCESSABLE)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(PokertablesError)
    async def _user(_request: Request, exc: PokertablesError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=BAD_REQUEST)

    @app.exception_handler(Busy)
    @app.exception_handler(Stopped)
    async def _busy(_request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=BUSY)

    @app.exception_handler(Exception)
    async def _bug(_request: Request, exc: Exception) -> JSONResponse:
        log.error("internal error: %s: %s", type(exc).__name__, exc)
        return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=INTERNAL)

    async def ask(kind: str, body: m.Body) -> Any:
        work = functools.partial(answer, ctx, kind, body, lim)
        if is_light(kind, body):
            return await run_in_threadpool(work)
        return await lane.run(work, lim.answer_seconds)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """Whether the server is up, its version and its artifacts folder."""
        return {"ok": True, "version": __version__, "artifacts": str(ctx.named)}

    @app.post("/api/equity")
    async def equity(body: m.EquityBody) -> Any:
        """`equity --json`: win/tie/lose and equity of every seat (`breakdown`: a seat's classes)."""
        return await ask("equity", body)

    @app.post("/api/preflop")
    async def preflop(body: m.PreflopBody) -> Any:
        """`preflop --json`: from the preflop tables."""
        return await ask("preflop", body)

    @app.post("/api/range")
    async def range_(body: m.RangeBody) -> Any:
        """`range --json`: the 13x13 grid with weights and live combos."""
        return await ask("range", body)

    @app.post("/api/hits")
    async def hits(body: m.HitsBody) -> Any:
        """`hits --json`: made hands and draws of a range on a board."""
        return await ask("hits", body)

    @app.post("/api/eval")
    async def eval_(body: m.EvalBody) -> Any:
        """`eval --json`: a hand's score and name."""
        return await ask("eval", body)

    @app.post("/api/showdown")
    async def showdown(body: m.ShowdownBody) -> Any:
        """`showdown --json`: judge lines of ten cards."""
        return await ask("showdown", body)

    @app.post("/api/bucket")
    async def bucket(body: m.BucketBody) -> Any:
        """`bucket --json`: card-abstraction class and buckets."""
        return await ask("bucket", body)

    @app.get("/api/vp/games")
    async def vp_games(q: str | None = None) -> Any:
        """`vp list --json` rows; `q` keeps the games whose name or slug has every word of it."""
        from pipeline.answers import vp

        if q is not None and len(q) > m.MAX_TEXT:
            raise InputError(f"q: longer than {m.MAX_TEXT} characters")
        return await run_in_threadpool(vp.games, ctx, q)

    @app.post("/api/vp/analyze")
    async def vp_analyze(body: m.AnalyzeBody) -> Any:
        """`vp analyze --json`."""
        return await ask("vp/analyze", body)

    @app.post("/api/vp/hold")
    async def vp_hold(body: m.HoldBody) -> Any:
        """`vp hold --json`: all 32 holds of a deal."""
        return await ask("vp/hold", body)

    @app.post("/api/vp/grade")
    async def vp_grade(body: m.GradeBody) -> Any:
        """`vp grade --json`: what a hold costs."""
        return await ask("vp/grade", body)

    @app.post("/api/vp/chart")
    async def vp_chart(body: m.ChartBody) -> Any:
        """`vp chart --json`: a strategy chart judged exactly."""
        return await ask("vp/chart", body)

    @app.post("/api/vp/breakeven")
    async def vp_breakeven(body: m.BreakevenBody) -> Any:
        """`vp breakeven --json`."""
        return await ask("vp/breakeven", body)

    @app.post("/api/vp/compare")
    async def vp_compare(body: m.CompareBody) -> Any:
        """`vp compare --json`."""
        return await ask("vp/compare", body)

    @app.post("/api/vp/deal")
    async def vp_deal(body: m.DealBody) -> Any:
        """`vp deal --json`: seeded, repeatable deals."""
        return await ask("vp/deal", body)

    @app.post("/api/batch")
    async def batch(body: m.BatchBody) -> dict[str, Any]:
        """Many questions in one request: an answer or `{"error": ...}` for each, in order. They
        share the batch's one deadline (its work token): past it the whole batch is a 503."""
        def run_all() -> list[Any]:
            out: list[Any] = []
            for q in body.requests:
                checkpoint()
                try:
                    parsed = m.MODELS[q.kind].model_validate(q.body)
                    out.append(answer(ctx, q.kind, parsed, lim))
                except PokertablesError as exc:
                    out.append({"error": str(exc)})
                except ValidationError as exc:
                    out.append({"error": _validation_message(exc)})
            return out
        return {"answers": await lane.run(run_all, lim.answer_seconds)}

    @app.post("/api/jobs")
    async def start_job(body: m.Question) -> Any:
        """Start long work (an edited paytable's solve) in the background: its id."""
        try:
            parsed = m.MODELS[body.kind].model_validate(body.body)
        except ValidationError as exc:
            return JSONResponse({"error": _validation_message(exc)}, status_code=UNPROCESSABLE)
        return {"id": jobs.start(body.kind, parsed)}

    @app.get("/api/jobs/{job_id}")
    async def job(job_id: str) -> dict[str, Any]:
        """A job's state, progress (0..1), result or error."""
        return jobs.status(job_id)

    @app.get("/openapi-3.0.json", include_in_schema=False)
    async def openapi_for_docs() -> dict[str, Any]:
        """The description as OpenAPI 3.0, which the shipped swagger-ui renders (3.1 it cannot)."""
        return openapi_30(app.openapi())

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url="/openapi-3.0.json", title="pokertables API",
                                   swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs-assets/swagger-ui.css",
                                   swagger_favicon_url="/docs-assets/favicon-32x32.png")

    from pipeline.serve.page_api import page_router

    app.include_router(page_router(ctx, lim, lane, safe_game))
    app.include_router(casino_router(ctx, lim, lane))
    import swagger_ui_bundle

    app.mount("/docs-assets", StaticFiles(directory=swagger_ui_bundle.swagger_ui_path), name="docs-assets")
    if STATIC.is_dir():
        app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    app.add_middleware(ProvenArtifacts, watch=watch)
    app.add_middleware(LocalOnly, limits=lim, hosts=allowed_hosts(bind))
    return app
