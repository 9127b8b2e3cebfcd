"""``cardtable play GAME``: a match against the Rust bots.

At a terminal (standard input and output both terminals) ``play`` opens
the card table, one Textual app for every game (:mod:`cardtable.cli.app`):
the table, the help, levels, new games. Otherwise, or with ``--plain``, a
turn-based game is played in the stdin mode: lines in, lines out, for
pipes, scripts and tests (each game's presenter ``table``); a live game
(Spit, Speed) refuses in one line (exit 2), as it needs the keyboard.

One command per registered game, made from its presenter and the engine's
option schema (the rule flags). Opponents are chosen by level (``--level``,
the ladder of ``Game.bot_levels()``) or by bot spec (``--bots``). The human
sits at seat 0 and sees only what ``state.view(0)`` shows; every count,
value and legal move comes from the engine. Every game finished is kept in
the history database (:mod:`cardtable.cli.finished`) unless
``--no-history``; ``--record`` appends each game to a file. In the stdin
mode ``q`` quits (after a y/n) at any prompt and keeps the record; Ctrl-C
or the end of the input shows the standings and exits 130.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import click

from cardtable.cli.app.settings import DEFAULT_LEVEL, Opponent, Settings, levels
from cardtable.cli.finished import History, new_match_id
from cardtable.cli.game_options import (
    bot_grammar,
    bots_callback,
    build_game,
    describe_options,
    players_range,
    pop_rule_options,
    rule_options,
)
from cardtable.cli.io import EXIT_INTERRUPTED, EXIT_USAGE, StreamError, guarded
from cardtable.cli.presenters import PRESENTERS, Presenter, command_name
from cardtable.cli.terminal import HUMAN, TTY_DELAY, QuitGameError, Table, colour_setting
from cardtable.deck import new_seed
from cardtable.games import Bot, Match, State, game_names, load_game


def play_one(table: Table[Any], state: State, bots: Sequence[Bot | None]) -> None:
    """Plays one game to its end; raises QuitGameError when the user quits.
    The game goes on from ``table.state``: a take-back (``u``) while seat 0
    decides puts an earlier copy of the state there."""
    table.start(state)
    while True:
        seat = state.current_player()
        if seat is None:
            return
        if seat == HUMAN:
            action = table.decide(state)
            state = table.state
        else:
            bot = bots[seat]
            assert bot is not None
            action = bot.act(state)
        info = state.describe_action(action)
        before = state.view(HUMAN)
        state.apply_action(action)
        table.after_action(seat, action, info, before, state.view(HUMAN))


def _opponents(
    name: str,
    title: str,
    bots: list[str] | None,
    level: list[str] | None,
    players: int | None,
) -> list[str]:
    """The specs of the seats after yours: ``--bots``, else ``--level``
    (one level for every opponent, or one per seat), else the default
    level; their number checked against ``--players`` and the engine's
    range of seats."""
    if bots is not None and level is not None:
        raise click.UsageError("--bots and --level both choose the opponents: give one of them")
    low, high = players_range(name)
    if bots is None:
        words = level or [DEFAULT_LEVEL]
        if len(words) == 1:
            n = low if players is None else players
            words = words * (n - 1)
        bots = words
    if players is not None and players != len(bots) + 1:
        flag = "--bots" if level is None else "--level"
        raise click.UsageError(
            f"--players {players} needs {players - 1} opponent{'s' * (players != 2)} in {flag}"
            f" (one per seat besides yours), got {len(bots)}: {','.join(bots)}"
        )
    if not low - 1 <= len(bots) <= high - 1:
        takes = f"{low - 1}" if low == high else f"{low - 1} to {high - 1}"
        raise click.UsageError(
            f"{title} takes {takes} opponent{'s' * (high != 2)} besides you, got {len(bots)}"
        )
    return bots


def levels_callback(
    name: str,
) -> Callable[[click.Context, click.Parameter, str | None], list[str] | None]:
    """``--level hard`` or ``--level easy,hard``: levels of the game's ladder."""
    ladder = levels(load_game(name))

    def parse(ctx: click.Context, param: click.Parameter, value: str | None) -> list[str] | None:
        if value is None:
            return None
        words = [w.strip().lower() for w in value.split(",")]
        for w in words:
            if w not in ladder:
                raise click.BadParameter(f"{w!r} is not a level: choose from {', '.join(ladder)}")
        return words

    return parse


def at_a_terminal() -> bool:
    """Standard input and output are both terminals: the card table opens."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _append(path: str | None, line: str | None) -> None:
    """Appends one record line to ``path``. ``None`` only checks that the file
    can be opened: a usage error (2) if not; a later failure is a write error (3)."""
    if path is None:
        return
    try:
        with open(path, "a", encoding="utf-8") as f:
            if line is not None:
                f.write(line + "\n")
    except OSError as e:
        if line is None:
            raise click.BadParameter(
                f"cannot open {path!r} for writing: {e.strerror or e}", param_hint="'--record'"
            ) from e
        raise StreamError(f"cannot write {path!r}", e) from e


@click.group("play")
def play_group() -> None:
    """Play a card game against the bots: at a terminal, the card table."""


def run_match(
    name: str,
    presenter: Presenter,
    settings: Settings,
    record: str | None,
    no_color: bool,
    history: History,
    extra: dict[str, Any],
) -> None:
    """A match of game ``name`` in the stdin mode: games until the user
    stops, the deal passing left."""
    game = build_game(name, dict(settings.rule_options()))
    seed = new_seed() if settings.seed is None else settings.seed
    bot_names = settings.names(game)
    players = len(bot_names) + 1
    names = ["you", *bot_names]
    assert presenter.make_table is not None  # play_command is made only for such games
    table = presenter.make_table(game, names, colour_setting(no_color), settings.delay, extra)
    players_bots = settings.bots(game, seed)
    record_names = ["human", *bot_names]
    match = Match(game, seed)
    match_id = new_match_id()
    unit = presenter.unit
    against = ", ".join(f"Player {i} ({b})" for i, b in enumerate(bot_names, 1))
    seats = ", ".join(f"{p} {table.seat_label(p)}" for p in range(players))
    table.header = [
        f"{presenter.title}: you against {against}; seed {seed}",
        f"Seats: {seats}",
        f"Rules: {describe_options(game)}",
        "Type ? at any prompt for help on the commands and the rules in play.",
    ]
    table.show_header()
    number = 0
    while True:
        number += 1
        state = match.next_game()
        started = time.time()
        table.echo()
        table.echo(
            f"=== {unit.capitalize()} {number}: {table.who(state.dealer)} "
            f"deal{'s' * (state.dealer != 0)} ==="
        )
        try:
            play_one(table, state, players_bots)
        except QuitGameError:
            state = table.state  # the live state (u may have replaced it)
            _append(record, state.to_record(record_names))
            table.show_standings(match, unfinished=not state.is_terminal())
            table.echo("Bye.")
            return
        except (click.Abort, KeyboardInterrupt):
            # Ctrl-C, or the end of the input: keep the game, show where the
            # match stands, and exit as every command does when interrupted.
            state = table.state
            _append(record, state.to_record(record_names))
            table.echo()
            table.show_standings(match, unfinished=not state.is_terminal())
            table.echo("Interrupted.")
            raise SystemExit(EXIT_INTERRUPTED) from None
        state = table.state
        match.record(state)
        line = state.to_record(record_names)
        _append(record, line)
        levels_ = settings.levels(game)
        message = history.keep(game, state, line, bot_names, levels_, seed, match_id, started)
        if message is not None:
            click.echo(message, err=True)
        table.show_end(state, number)
        table.show_ledger(match)
        while True:
            answer = click.prompt(f"Another {unit}? [Y/n]", default="y", show_default=False)
            word = answer.strip().lower()
            if word in {"", "y", "yes"}:
                break
            if word in {"n", "no", "q", "quit", "exit"}:
                table.echo()
                table.show_standings(match)
                table.echo("Bye.")
                return
            table.echo("  answer y or n (q quits)")


def run_table(settings: Settings, record: str | None, no_color: bool, history: History) -> None:
    """The card table (a terminal): its standings are printed once it closes."""
    # Textual loads only here: it would add a third of a second to every
    # other command's start.
    from cardtable.cli.app.shell import CardTable

    app = CardTable(
        settings,
        record=(lambda line: _append(record, line)) if record is not None else None,
        history=history,
        color=colour_setting(no_color),
    )
    try:
        app.run()
    except KeyboardInterrupt:
        app.interrupted = True  # a SIGINT before the screen took Ctrl-C over
    board = app.board
    if board is not None:
        board.abandon()  # however the screen closed, --record keeps the game under way
    # The screen is gone: where the match stands stays below the command
    # line, with the seed to play it again.
    if board is not None:
        seed = getattr(board, "seed", None)
        click.echo(f"{app.settings.title}: you against {board.against()}; seed {seed}")
    for line in app.standings():
        click.echo(line)
    if app.interrupted:
        click.echo("Interrupted.")
        raise SystemExit(EXIT_INTERRUPTED)
    if app.return_code:  # Textual reported a crash of the screen
        raise SystemExit(app.return_code)
    click.echo("Bye.")


def play_command(name: str, presenter: Presenter) -> click.Command:
    """``play GAME``: the common flags, the game's own flags and its rule flags."""
    live = presenter.live is not None

    def command(
        bots: list[str] | None,
        level: list[str] | None,
        seed: int | None,
        record: str | None,
        no_color: bool,
        no_history: bool,
        **params: Any,
    ) -> None:
        delay = params.pop("delay", None)
        plain = params.pop("plain", False)
        telegraph = params.pop("telegraph", None)
        bot = params.pop("bot", None)
        if bot is not None:
            if bots is not None:
                raise click.UsageError("--bot and --bots both choose the opponent: give one")
            bots = bot
        options = pop_rule_options(name, params)
        players = options.pop("players", None)
        specs = _opponents(name, presenter.title, bots, level, players)
        # A game of a fixed number of players has no players option.
        if "players" in load_game(name).option_names():
            options["players"] = len(specs) + 1
        if delay is None:
            delay = TTY_DELAY if sys.stdout.isatty() else 0.0
        settings = Settings(
            name,
            options,
            tuple(Opponent(s) for s in specs),
            seed,
            delay,
            hints=not params.get("no_hints", False),
            telegraph=telegraph,
        )
        build_game(name, dict(settings.rule_options()))  # a bad flag is a usage error now
        if record is not None:
            _append(record, None)  # fail now, not after the first game
        history = History.for_play(no_history)
        if live and not at_a_terminal():
            which = "standard input" if not sys.stdin.isatty() else "standard output"
            click.echo(
                f"cardtable play {command_name(name)}: {presenter.title} is played live at a"
                f" terminal, and {which} is not one (the turn-based games play from a pipe)",
                err=True,
            )
            raise SystemExit(EXIT_USAGE)
        if live or (not plain and at_a_terminal()):
            run_table(settings, record, no_color, history)
        else:
            run_match(name, presenter, settings, record, no_color, history, params)

    command.__doc__ = presenter.play_help
    ladder = ", ".join(levels(load_game(name)))
    decorators: list[Callable[[Any], Any]] = [
        click.option(
            "--level",
            callback=levels_callback(name),
            metavar="LEVEL[,LEVEL...]",
            help=f"Opponents by level ({ladder}, weakest first): one for every opponent, or "
            f"one per seat.  [default: {DEFAULT_LEVEL}]",
        ),
        click.option(
            "--bots",
            callback=bots_callback(name),
            metavar="BOT[,BOT...]",
            help=f"Opponents by bot spec, one per seat after yours: {bot_grammar(name)}; "
            "a level works too.",
        ),
        click.option(
            "--seed", type=click.IntRange(0, 2**64 - 1), help="Match seed (default: fresh)."
        ),
        click.option(
            "--record",
            type=click.Path(dir_okay=False, writable=True),
            help=f"Append each {presenter.unit} to this file as a JSON line "
            "(see 'cardtable replay').",
        ),
        click.option(
            "--no-history",
            is_flag=True,
            help="Do not keep the games in the history (cardtable stats, cardtable history); "
            "CARDTABLE_NO_HISTORY=1 does the same.",
        ),
        click.option(
            "--no-color",
            is_flag=True,
            help="No colours (also off when NO_COLOR is set or TERM=dumb).",
        ),
    ]
    if live:
        decorators += [
            click.option(
                "--bot",
                callback=bots_callback(name),
                metavar="BOT",
                help=f"Your opponent by bot spec: {bot_grammar(name)} (as --bots).",
            ),
            click.option(
                "--telegraph/--no-telegraph",
                default=None,
                help="Mark the card the bot is about to play while it travels.  "
                "[default: on against an easy bot]",
            ),
        ]
    else:
        decorators += [
            click.option(
                "--delay",
                type=click.FloatRange(0, 10),
                default=None,
                metavar="SECONDS",
                help=f"Pause between bot moves.  [default: {TTY_DELAY} on a terminal, else 0]",
            ),
            click.option(
                "--plain",
                is_flag=True,
                help="Lines in, lines out, even at a terminal (the mode of pipes and scripts).",
            ),
            *presenter.play_options,
        ]
    players_help = (
        "Players ({players})."
        if live
        else "Players, you included ({players}).  [default: the number of opponents + 1]"
    )
    decorators += [rule_options(name, players_help, presenter.live_defaults), guarded("play")]
    f: Any = command
    for d in reversed(decorators):
        f = d(f)
    return click.command(command_name(name))(f)


for _name in game_names():
    play_group.add_command(play_command(_name, PRESENTERS[_name]))
