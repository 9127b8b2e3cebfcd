"""The shared game API over every registered game (``cardtable.games``):
loading by name, options and their errors, states, bots, matches,
simulations and records. Parametrized by ``game_names()``, so a new game is
checked here as soon as it is registered."""

from __future__ import annotations

import itertools
import json
import pickle
import random

import numpy as np
import pytest

from cardtable import GameOverError, IllegalActionError, InvalidConfigError, InvalidRecordError
from cardtable._core import OptionSpec
from cardtable.cli.presenters import PRESENTERS
from cardtable.games import (
    Bot,
    Game,
    Match,
    Session,
    Simulation,
    State,
    game_names,
    load_game,
    option_schema,
    play_game,
    replay_record,
    simulate,
)

GAMES = game_names()
BOT = {name: PRESENTERS[name].default_bot for name in GAMES}
REAL_TIME = [n for n in GAMES if load_game(n).real_time]
TURN_BASED = [n for n in GAMES if n not in REAL_TIME]


def test_every_registered_game_has_a_presenter_and_dashes_are_underscores() -> None:
    assert "tonk" in GAMES
    assert set(PRESENTERS) == set(GAMES)
    for name in GAMES:
        assert load_game(name.replace("_", "-").upper()).name == name


def test_an_unknown_game_is_a_config_error_naming_the_game_option() -> None:
    with pytest.raises(InvalidConfigError, match="expected one of") as e:
        load_game("canasta")
    assert e.value.option == "game"


@pytest.mark.parametrize("name", GAMES)
def test_options_round_trip_and_errors_name_the_option(name: str) -> None:
    game = load_game(name)
    assert isinstance(game, Game)
    assert [s.name for s in option_schema(name)] == game.option_names()
    assert load_game(name, **game.options()) == game
    assert pickle.loads(pickle.dumps(game)) == game
    assert hash(pickle.loads(pickle.dumps(game))) == hash(game)
    with pytest.raises(InvalidConfigError) as e:
        load_game(name, no_such_option=1)
    assert e.value.option == "no_such_option"
    with pytest.raises(InvalidConfigError) as e:
        load_game(name, players=99)
    assert e.value.option == "players"


def _values(spec: OptionSpec) -> list[object]:
    """A few values of one option: its words, its bounds, true and false."""
    if spec.kind == "bool":
        return [True, False]
    values: list[object] = list(spec.words)
    values += [v for v in (spec.minimum, spec.maximum) if v is not None]
    return values


@pytest.mark.parametrize("name", GAMES)
def test_given_options_are_what_makes_the_game_and_rebuild_it(name: str) -> None:
    """``given_options`` lists what sets a configuration apart and nothing
    the engine derived (a preset's values, TK-2.3's deal-time wins): loading
    only those options gives the same game."""
    assert load_game(name).given_options() == {}
    for spec in option_schema(name):
        for value in _values(spec):
            try:
                game = load_game(name, **{spec.name: value})
            except InvalidConfigError:
                continue  # e.g. a value that needs another option
            given = game.given_options()
            assert set(given) <= {spec.name}, (spec.name, value, given)
            assert load_game(name, **given) == game
            assert (spec.name in given) == (game != load_game(name)), (spec.name, value)
    # TK-2.3: a hand size other than 5 turns the deal-time wins off by itself.
    if name == "tonk":
        seven = load_game(name, hand_size=7)
        assert seven.options()["deal_wins"] == "none"
        assert seven.given_options() == {"hand_size": 7}
        assert load_game(name, preset="texas").given_options() == {"preset": "texas"}


@pytest.mark.parametrize("name", GAMES)
def test_a_game_played_by_bots_replays_from_its_record(name: str) -> None:
    game = load_game(name)
    state = play_game(game, [BOT[name]] * game.players, seed=11)
    assert isinstance(state, State)
    assert state.is_terminal()
    assert state.ending_category in game.ending_categories()
    assert sum(state.returns()) == 0
    assert any(state.won(p) for p in range(game.players))
    # A Tonk game is one hand; Three Thirteen plays every round of its schedule.
    deals = {"tonk": 1, "three_thirteen": 11}
    assert state.deals_played == deals.get(name, state.deals_played) >= 1
    if name in REAL_TIME:
        # Its events' times are in its session, not in a state.
        with pytest.raises(InvalidRecordError, match=r"Session\.to_record"):
            state.to_record()
        return
    line = state.to_record(["a"] * game.players)
    assert json.loads(line)["game"] == name
    again = replay_record(line)
    assert type(again) is type(state)
    assert again == state
    assert again.fingerprint() == state.fingerprint()
    assert pickle.loads(pickle.dumps(state)) == state
    with pytest.raises(GameOverError):
        state.apply_action(0)
    with pytest.raises(GameOverError):
        Bot(game, "random", 1).act(state)
    changed = json.loads(line)
    changed["result"]["returns"] = [r + 1 for r in changed["result"]["returns"]]
    with pytest.raises(InvalidRecordError, match="the replay gives"):
        replay_record(json.dumps(changed))


@pytest.mark.parametrize("name", REAL_TIME)
def test_real_time_states_act_per_seat_and_views_hide_what_a_seat_cannot_see(name: str) -> None:
    game = load_game(name)
    session = Session(game, [None, BOT[name]], 5)
    session.advance_to(3_000)  # past the countdown
    state = session.state
    assert state.current_player() is None  # several seats may act at once
    legal = session.legal_actions(0)
    assert legal == sorted(legal)
    for a in legal:
        assert game.string_to_action(game.action_to_string(a)) == a
    with pytest.raises(IllegalActionError):
        state.apply_action(legal[0] if legal else 0)  # which seat? it must be said
    obs = state.observation(0)
    assert obs.dtype == np.float32
    assert obs.shape == (game.observation_size(),)
    hidden = state.determinize(0, 99)
    assert type(hidden) is type(state)
    assert repr(hidden.view(0)) == repr(state.view(0))
    assert np.array_equal(hidden.observation(0), obs)


@pytest.mark.parametrize("name", TURN_BASED)
def test_states_check_actions_and_views_hide_what_a_seat_cannot_see(name: str) -> None:
    game = load_game(name)
    state = game.new_initial_state(5)
    seat = state.current_player()
    assert seat is not None
    legal = state.legal_actions()
    assert legal == sorted(legal)
    assert legal
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    before = state.clone()
    with pytest.raises(IllegalActionError):
        state.apply_action(illegal)
    assert state == before
    assert not state.is_legal(-1)
    assert not state.is_legal(game.num_distinct_actions())
    for a in legal:
        assert game.string_to_action(game.action_to_string(a)) == a
    obs = state.observation(seat)
    assert obs.dtype == np.float32
    assert obs.shape == (game.observation_size(),)
    hidden = state.determinize(seat, 99)
    assert type(hidden) is type(state)
    assert repr(hidden.view(seat)) == repr(state.view(seat))
    assert np.array_equal(hidden.observation(seat), obs)
    with pytest.raises(InvalidRecordError):
        hidden.to_record()


@pytest.mark.parametrize("name", TURN_BASED)
def test_matches_pass_the_deal_and_simulations_do_not_depend_on_threads(name: str) -> None:
    game = load_game(name)
    match = Match(game, 3)
    first = match.dealer
    state = match.next_game()
    with pytest.raises(IllegalActionError):
        match.record(state)  # not over
    bots = [Bot(game, "greedy", i) for i in range(game.players)]
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        state.apply_action(bots[seat].act(state))
    match.record(state)
    assert match.games_played == 1
    assert match.dealer == (first + 1) % game.players
    assert match.ledger == state.returns()
    one = simulate(game, [BOT[name], "random"][: game.players], 8, seed=2, threads=1)
    two = simulate(game, [BOT[name], "random"][: game.players], 8, seed=2, threads=2)
    assert one == two
    assert one["game"] == name
    assert set(one["endings"]) == set(game.ending_categories())
    run = Simulation(game, ["random"] * game.players, 2, 1)
    assert run.step(2, record=True)[0].startswith("{")


@pytest.mark.parametrize("name", GAMES)
def test_any_game_runs_on_the_virtual_clock_and_its_record_replays(name: str) -> None:
    game = load_game(name)
    session = Session(game, [BOT[name]] * game.players, 4)
    assert session.players == [Bot(game, BOT[name], 0).name] * game.players
    assert session.run()
    assert session.is_over()
    log = session.log()
    assert log
    assert [at for at, *_ in log] == sorted(at for at, *_ in log)
    if name in TURN_BASED:
        assert not any(bounced for *_, bounced in log)  # bots act on their turn
    line = session.to_record()
    assert json.loads(line)["events"][0][:3] == list(log[0][:3])
    again = replay_record(line)
    assert again.fingerprint() == session.state.fingerprint()
    changed = json.loads(line)
    changed["events"][-1][3] = True
    with pytest.raises(InvalidRecordError, match="bounced"):
        replay_record(json.dumps(changed))


def test_a_person_drives_a_seat_with_timed_intents_in_lockstep() -> None:
    game = load_game("tonk")
    session = Session(game, [None, "greedy"], 11)
    assert session.players == ["human", Bot(game, "greedy", 0).name]
    while not session.is_over():
        state = session.state
        seat = state.current_player()
        if seat == 0:
            legal = session.legal_actions(0)
            assert legal == state.legal_actions()
            assert session.step([(0, legal[0])], dt=250) == [True]
        else:
            assert session.legal_actions(0) == []
            session.step([], dt=250)
        assert session.now % 250 == 0
    line = session.to_record()
    assert json.loads(line)["players"][0] == "human"
    assert replay_record(line).fingerprint() == session.state.fingerprint()
    with pytest.raises(InvalidConfigError):
        Session(game, ["greedy"], 1)


@pytest.mark.parametrize("name", REAL_TIME)
@pytest.mark.parametrize("tie_break", ["seeded_coin", "alternate", "seat_order"])
def test_lockstep_records_with_both_seats_in_one_tick_replay(name: str, tie_break: str) -> None:
    """RT-11, RT-6: two agents hand in intents in the same tick, in either
    order of seats, with ticks of any size; the record replays (it did not:
    the record sorted a tick's inputs by seat, and the seeded coin drew for
    them in the order handed in)."""
    rng = random.Random(len(name) * 7 + len(tie_break))
    for seed in range(6):
        session = Session(load_game(name, tie_break=tie_break), [None, None], seed)
        while not session.is_over() and session.now < 20_000:
            seats = [0, 1]
            rng.shuffle(seats)
            intents = [(p, rng.choice(legal)) for p in seats if (legal := session.legal_actions(p))]
            session.step(intents, dt=rng.choice([1, 3, 50, 100]))
        log = session.log()
        assert any(a[0] == b[0] and a[1] != b[1] for a, b in itertools.pairwise(log))
        line = session.to_record()
        assert replay_record(line).fingerprint() == session.state.fingerprint()


@pytest.mark.parametrize("name", REAL_TIME)
def test_sessions_have_a_public_event_channel_and_a_private_one_per_seat(name: str) -> None:
    game = load_game(name)
    session = Session(game, [None, "plain:hard"], 5)
    session.advance_to(4_000)
    seat0 = [a for a in session.legal_actions(0)][:1]
    for action in seat0:
        # Landing in 100 ms (a key landing now is handled at once).
        assert session.submit(0, action, 4_100)
        assert not session.submit(0, action), "one hand: busy until it lands"
    session.advance_to(12_000)
    public = session.events()
    commits = [e for e in public if e["kind"] != "timer"]
    # The public channel is the log, with the engine's timers in between.
    assert [(e["at"], e["seat"], e["action"], e["kind"] == "bounced") for e in commits] == [
        tuple(c) for c in session.log()
    ]
    assert public[0]["kind"] == "timer"
    assert public[0]["phase"] == "playing", "the countdown's end starts play"
    assert [e["at"] for e in public] == sorted(e["at"] for e in public)
    # Each seat's private channel: its own intents when issued.
    mine = session.events(0)
    assert [e["kind"] for e in mine] == ["issued", "refused"][: 2 * len(seat0)]
    bot = session.events(1)
    assert bot
    assert all(e["kind"] == "issued" for e in bot)
    landed = [(e["lands"], e["action"]) for e in bot]
    assert landed == [(e["at"], e["action"]) for e in commits if e["seat"] == 1]
    assert all(e["lands"] is not None and e["at"] <= e["lands"] for e in bot)
    with pytest.raises(InvalidConfigError, match="no seat 2"):
        session.events(2)


@pytest.mark.parametrize("name", REAL_TIME)
def test_real_time_simulations_report_virtual_length_and_do_not_depend_on_threads(
    name: str,
) -> None:
    game = load_game(name)
    one = simulate(game, ["smart:hard", "plain:normal"], 6, seed=2, threads=1)
    two = simulate(game, ["smart:hard", "plain:normal"], 6, seed=2, threads=2)
    assert one == two
    assert one["virtual_seconds_per_game"] > 0
    records: list[str] = []
    simulate(game, ["plain:instant", "random:instant"], 2, seed=3, on_records=records.extend)
    for line in records:
        assert json.loads(line)["events"]
        assert replay_record(line).is_terminal()


@pytest.mark.parametrize("name", game_names())
def test_view_properties_are_lists_of_integers_never_bytes(name: str) -> None:
    # PyO3 turns Rust u8 arrays into bytes; the stubs promise lists.
    view = load_game(name).new_initial_state(1).view(0)
    for attribute in dir(view):
        if attribute.startswith("_"):
            continue
        value = getattr(view, attribute)
        assert not isinstance(value, bytes), attribute
        if isinstance(value, list):
            assert not any(isinstance(v, bytes) for v in value), attribute


@pytest.mark.parametrize("name", TURN_BASED)
def test_play_game_seeds_its_bots_as_a_session_does(name: str) -> None:
    # One bot-seed rule (the core's seeds module): the Python driver and the
    # Rust session deal the same cards and seed each seat's bot alike, so
    # the same seed plays the same game through either.
    game = load_game(name)
    bots = ["random"] * game.players  # a bot that draws from its seed
    for seed in (3, 2**64 - 1):
        state = play_game(game, bots, seed=seed)
        session = Session(game, bots, seed)
        session.run()
        assert session.state.fingerprint() == state.fingerprint()
        assert session.state.history() == state.history()


def test_the_typed_words_of_results_are_the_engines_words() -> None:
    """The ``Literal`` types of ``cardtable.games.results`` list exactly what
    the engine writes, so mypy catches a renamed category or event."""
    from typing import get_args

    from cardtable.games import results

    tonk = load_game("tonk")
    assert list(get_args(results.TonkEndingCategory)) == tonk.ending_categories()
    # The event channels of real-time sessions, person and bot alike.
    public: set[str] = set()
    private: set[str] = set()
    for name in REAL_TIME:
        for seed in range(3):
            session = Session(load_game(name), [None, "plain:instant"], seed)
            while not session.is_over() and session.now < 60_000:
                session.advance_to(session.now + 400)
                for action in session.legal_actions(0)[:1]:
                    session.submit(0, action, session.now + 100)  # lands in 100 ms
                    session.submit(0, action)  # the hand is busy: refused
            public |= {e["kind"] for e in session.events()}
            private |= {e["kind"] for s in (0, 1) for e in session.events(s)}
    assert public == set(get_args(results.PublicEventKind))
    assert private <= set(get_args(results.IntentKind))
    assert {"issued", "refused"} <= private


def test_issue38_item6_the_package_description_and_cli_docs_name_every_game() -> None:
    """Gin rummy was left out of pyproject.toml's description and docs/cli.md."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    description = tomllib.loads((root / "pyproject.toml").read_text())["project"]["description"]
    cli = (root / "docs" / "cli.md").read_text()
    for name in game_names():
        assert name.replace("_", " ") in description.lower(), name
        command = name.replace("_", "-")
        assert f"cardtable simulate {command} " in cli, name
        assert f"cardtable play {command} " in cli, name


def test_issue38_item6_the_share_of_games_with_a_positive_return_has_one_name() -> None:
    """Simulation.summary() and simulate() call it positive_return_rate, as the
    CLI's report does ("positive return"): with three Tonk bots the shares
    need not sum to 1, so it is no win rate."""
    summary = simulate(load_game("tonk", players=3), ["greedy", "random", "greedy"], 90, seed=4)
    for b in summary["bots"]:
        assert "win_rate" not in b
        assert 0.0 <= b["positive_return_rate"] <= 1.0
        low, high = b["positive_return_rate_ci"]
        assert low <= b["positive_return_rate"] <= high


@pytest.mark.parametrize("name", game_names())
def test_every_game_tells_its_rules_in_play_under_its_rule_ids(name: str) -> None:
    """``Game.rules_summary()`` (what ``?`` shows at the table): the goal
    first, every point under an ID of the game's own part of the rules."""
    game = load_game(name)
    points = game.rules_summary()
    assert points[0][0] == "Goal"
    prefix = {"tonk": "TK-", "three_thirteen": "TT-", "gin_rummy": "GR-", "spit": "SP-",
              "speed": "SD-"}[name]  # fmt: skip
    for title, rule, text in points:
        assert rule.startswith(prefix), (title, rule)
        assert text.endswith("."), (title, text)
