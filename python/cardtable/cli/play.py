"""``cardtable play GAME``: a match against the Rust bots in the terminal.

One command per registered game, made from its presenter (how to draw the
table and read a move, ``cardtable.cli.presenters``) and the engine's option
schema (the rule flags). The human sits at seat 0 and sees only what
``state.view(0)`` shows; every count, value and legal move comes from the
engine. ``q`` quits (after a y/n) at any prompt and keeps the record; Ctrl-C
or the end of the input shows the standings and exits 130.

All input goes through ``click.prompt`` and all output through ``click.echo``,
so a whole match can be driven through standard input.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import click

from cardtable.cli.game_options import (
    bot_grammar,
    bots_callback,
    build_game,
    describe_options,
    players_range,
    pop_rule_options,
    rule_options,
)
from cardtable.cli.io import EXIT_INTERRUPTED, StreamError, guarded
from cardtable.cli.presenters import PRESENTERS, Presenter, command_name
from cardtable.cli.terminal import HUMAN, TTY_DELAY, QuitGameError, Table, colour_setting
from cardtable.deck import bot_seed, new_seed
from cardtable.errors import CardGameError
from cardtable.games import Bot, Match, Session, State, game_names


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
        before = state.view(HUMAN)
        state.apply_action(action)
        table.after_action(seat, action, before, state.view(HUMAN))


def _bots_and_players(
    game: str, title: str, bots: list[str] | None, players: int | None
) -> tuple[list[str], int]:
    low, high = players_range(game)
    if bots is None:
        n = low if players is None else players
        return ["greedy"] * (n - 1), n
    if players is not None and players != len(bots) + 1:
        raise click.UsageError(
            f"--players {players} needs {players - 1} bot{'s' * (players != 2)} in --bots "
            f"(one per seat besides yours), got {len(bots)}: {','.join(bots)}"
        )
    if not low - 1 <= len(bots) <= high - 1:
        takes = f"{low - 1}" if low == high else f"{low - 1} to {high - 1}"
        raise click.UsageError(
            f"--bots: {title} takes {takes} bot{'s' * (high != 2)} besides you, got {len(bots)}"
        )
    return bots, len(bots) + 1


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
    """Play a card game in the terminal against the bots."""


def run_match(
    name: str,
    presenter: Presenter,
    bots: list[str] | None,
    seed: int | None,
    record: str | None,
    delay: float | None,
    no_color: bool,
    params: dict[str, Any],
) -> None:
    """A match of game ``name``: games until the user stops, the deal passing left."""
    options = pop_rule_options(name, params)
    bot_names, players = _bots_and_players(
        name, presenter.title, bots, options.pop("players", None)
    )
    # A game of a fixed number of players (Gin Rummy) has no players option.
    low, high = players_range(name)
    game = build_game(name, options if low == high else {"players": players, **options})
    seed = new_seed() if seed is None else seed
    if delay is None:
        delay = TTY_DELAY if sys.stdout.isatty() else 0.0
    names = ["you", *bot_names]
    assert presenter.make_table is not None  # play_command is made only for such games
    table = presenter.make_table(game, names, colour_setting(no_color), delay, params)
    players_bots: list[Bot | None] = [None]
    players_bots += [Bot(game, b, bot_seed(seed, i)) for i, b in enumerate(bot_names, 1)]
    record_names = ["human", *bot_names]
    if record is not None:
        _append(record, None)  # fail now, not after the first game
    match = Match(game, seed)
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
        _append(record, state.to_record(record_names))
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


def play_command(name: str, presenter: Presenter) -> click.Command:
    """``play GAME``: the common flags, the game's own flags and its rule flags."""

    def command(
        bots: list[str] | None,
        seed: int | None,
        record: str | None,
        delay: float | None,
        no_color: bool,
        **params: Any,
    ) -> None:
        run_match(name, presenter, bots, seed, record, delay, no_color, params)

    command.__doc__ = presenter.play_help
    decorators: list[Callable[[Any], Any]] = [
        click.option(
            "--bots",
            callback=bots_callback(name),
            metavar="BOT[,BOT...]",
            help=f"Opponents, one per seat after yours: {bot_grammar(name)}. "
            "[default: greedy for every other seat]",
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
            "--delay",
            type=click.FloatRange(0, 10),
            default=None,
            metavar="SECONDS",
            help=f"Pause before each bot move.  [default: {TTY_DELAY} on a terminal, else 0]",
        ),
        click.option(
            "--no-color",
            is_flag=True,
            help="No colours (also off when output is not a tty, NO_COLOR is set or TERM=dumb).",
        ),
        *presenter.play_options,
        rule_options(name, "Players, you included ({players}).  [default: the number of bots + 1]"),
        guarded("play"),
    ]
    f: Any = command
    for d in reversed(decorators):
        f = d(f)
    return click.command(command_name(name))(f)


def live_command(name: str, presenter: Presenter) -> click.Command:
    """``play GAME`` for a real-time game: you against one bot, live. However
    the screen closes (Esc, Ctrl-C, a SIGINT) the record is kept and the
    standings are printed after it; Ctrl-C exits 130."""

    def command(
        bot: str | None,
        seed: int | None,
        record: str | None,
        telegraph: bool | None,
        no_color: bool,
        **params: Any,
    ) -> None:
        assert presenter.live is not None
        options = {**presenter.live_defaults, **pop_rule_options(name, params)}
        game = build_game(name, options)
        spec = bot or presenter.default_bot
        try:
            opponents = Bot(game, spec, 0).name
        except CardGameError as e:
            raise click.BadParameter(str(e), param_hint="'--bot'") from e
        seed = new_seed() if seed is None else seed
        if record is not None:
            _append(record, None)  # fail now, not after the game
        session = Session(game, [None, *[spec] * (game.players - 1)], seed)
        # Textual loads only to play live: it would add a third of a second
        # to every other command's start.
        from cardtable.cli.live_app import LiveTable

        app = LiveTable(
            session,
            presenter.live(game),
            game,
            opponents=opponents,
            record=(lambda line: _append(record, line)) if record is not None else None,
            # HC-4: telegraphing is the easy mode's; any bot can have it.
            telegraph=opponents.split(",")[0].endswith(":easy") if telegraph is None else telegraph,
            color=colour_setting(no_color),
        )
        try:
            app.run()
        except KeyboardInterrupt:
            app.interrupted = True  # a SIGINT before the screen took Ctrl-C over
        app.keep_record()
        # The screen is gone: where the game stands stays below the command
        # line, as after the turn-based games (the seed to play it again).
        click.echo(f"{presenter.title}: you against Player 1 ({opponents}); seed {seed}")
        for line in app.standings(["you", f"Player 1 ({opponents})"]):
            click.echo(line)
        if app.interrupted:
            click.echo("Interrupted.")
            raise SystemExit(EXIT_INTERRUPTED)
        if app.return_code:  # Textual reported a crash of the screen
            raise SystemExit(app.return_code)
        click.echo("Bye.")

    command.__doc__ = presenter.play_help
    decorators: list[Callable[[Any], Any]] = [
        click.option(
            "--bot",
            metavar="BOT",
            help=f"Your opponent: {bot_grammar(name)}.  [default: {presenter.default_bot}]",
        ),
        click.option("--seed", type=click.IntRange(0, 2**64 - 1), help="Seed (default: fresh)."),
        click.option(
            "--record",
            type=click.Path(dir_okay=False, writable=True),
            help="Append the game, your keys included, to this file as a JSON line.",
        ),
        click.option(
            "--telegraph/--no-telegraph",
            default=None,
            help="Mark the card the bot is about to play while it travels.  "
            "[default: on against an easy bot]",
        ),
        click.option(
            "--no-color",
            is_flag=True,
            help="No colours (also off when NO_COLOR is set or TERM=dumb).",
        ),
        rule_options(name, "Players ({players}).", presenter.live_defaults),
        guarded("play"),
    ]
    f: Any = command
    for d in reversed(decorators):
        f = d(f)
    return click.command(command_name(name))(f)


for _name in game_names():
    _presenter = PRESENTERS[_name]
    if _presenter.make_table is not None:
        play_group.add_command(play_command(_name, _presenter))
    elif _presenter.live is not None:
        play_group.add_command(live_command(_name, _presenter))
