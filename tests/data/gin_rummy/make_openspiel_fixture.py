"""Generate the OpenSpiel gin rummy fixtures in this folder.

This script is not run by the test suite: it needs OpenSpiel's ``pyspiel``, which is not a
dependency of cardtable. Run it in a scratch virtual environment outside the repository:

    python3 -m venv /tmp/openspiel-venv
    /tmp/openspiel-venv/bin/pip install open_spiel==2.0.2
    /tmp/openspiel-venv/bin/python tests/data/gin_rummy/make_openspiel_fixture.py

It rewrites ``openspiel.jsonl`` (default parameters), ``openspiel_variants.jsonl``
(non-default parameters) and ``openspiel_dead_ends.jsonl`` (``hand_size`` 2, 5 and 8, where
OpenSpiel offers knocks that lead nowhere, GR-5.1) next to itself. The output is
deterministic for a given OpenSpiel version: every game has its own seed, and the chance
outcomes and the policy's choices are drawn from ``random.Random(seed)``.

File format (JSON lines). The first line is a header::

    {"openspiel_version", "game": "gin_rummy", "params", "generator", "games",
     "profiles": {profile: games}, "endings": {label: games}}

``openspiel_variants.jsonl`` has one header per parameter set, each followed by its games
(``games`` in the header says how many lines follow it). Every game line holds:

- ``seed``: the game's seed;
- ``profile``: the policy that played it (see ``PROFILES``);
- ``actions``: every action id in order, chance outcomes included;
- ``players``: the player to act before each action, -1 for chance;
- ``returns``: ``[r0, r1]`` at the end;
- ``ending``: ``gin`` / ``knock`` (knocker won, deadwood > 0) / ``undercut`` /
  ``knock_tie`` (equal deadwood after layoffs: both returns 0) / ``wall`` (the player facing
  a two-card stock passed) / ``repeated_move`` (both players in succession discarded the
  upcard they had just drawn) / ``upcard_limit`` (the 50th draw of an upcard in the draw
  phase);
- ``knocker``: the player who knocked, or null;
- ``wall_knock``: true when the knock was made at the wall (stock of two cards);
- ``final_deadwood``: OpenSpiel's ``deadwood()`` at the end (after a knock: the value of the
  cards left unmelded; for the drawn endings: the minimum deadwood of each hand, where an
  11-card hand counts its best 10 as OpenSpiel computes it);
- ``legal`` (every 10th game, and the ``meldtie`` games): the sorted legal actions before
  each non-chance action.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pyspiel  # type: ignore[import-not-found,unused-ignore]

GM = pyspiel.gin_rummy
DRAW_UPCARD = 52
DRAW_STOCK = 53
PASS = 54
KNOCK = 55
MELD_BASE = 56

HERE = Path(__file__).resolve().parent

# Policies ("profiles"). Each game is played by one profile for both players.
#  "mixed":    greedy with probability 0.7, otherwise uniform over the legal actions.
#              Greedy: take the upcard if it lowers the deadwood, discard the card that
#              leaves the least deadwood, knock as soon as it is legal, lay the melds that
#              leave the least deadwood, lay off every card that fits.
#  "gin":      as mixed (greedy 0.85), but knocks only with no deadwood.
#  "undercut": as mixed (greedy 0.85), but knocks only when the opponent's deadwood (read
#              from the full state) is below its own.
#  "tie":      knocks only when the opponent's deadwood equals its own; the opponent then
#              lays off nothing (reaches equal deadwood, which OpenSpiel scores 0 to both).
#  "wall":     never knocks.
#  "late":     knocks only at the wall (the knock that takes the upcard in automatically).
#  The knock and layoff phases of these four are always greedy.
#  "repeat":   as mixed, but in the draw phase takes the upcard and discards it straight back
#              with probability 0.5 (reaches the repeated-move draw).
#  "cycle":    always takes the upcard and discards another card, never knocks (reaches the
#              50-upcard limit).
#  "meldtie":  as mixed, but the deal is forced: player 0 gets ten cards of one of
#              MELDTIE_HANDS, the upcard is the eleventh, and player 0 takes it. Those
#              11-card hands are ones where OpenSpiel's 11-card deadwood (its first best
#              meld arrangement, less the highest-ranked unmelded card) is above the knock
#              card although some discard leaves deadwood <= 10: knock (55) is not legal.
#  "deadend":  as mixed, but never knocks where the knock is a dead end: a hand of
#              hand_size + 1 cards made only of 3-card melds, which OpenSpiel counts 0 and
#              offers 55 for, although every discard leaves more than the knock card (after
#              the knock OpenSpiel has no legal action). The first game of a run with
#              hand_size 2 is dealt TS TC to player 0 and the upcard TD, which it takes.
PROFILES = (
    "mixed",
    "gin",
    "undercut",
    "tie",
    "wall",
    "late",
    "repeat",
    "cycle",
    "meldtie",
    "deadend",
)
# The first deal of the "deadend" profile with hand_size 2: TS TC, AS 2S, then the upcard TD.
DEAD_END_DEAL = (9, 22, 0, 1, 35)
# (player 0's ten cards, upcard); OpenSpiel's 11-card deadwood, true best: 11/9, 12/10, ...
MELDTIE_HANDS = (
    ([5, 43, 17, 14, 3, 4, 31, 41, 42, 27], 44),
    ([5, 31, 15, 14, 42, 29, 43, 41, 17, 30], 44),
    ([2, 28, 31, 40, 30, 44, 42, 17, 29, 43], 5),
    ([15, 41, 17, 30, 31, 18, 5, 43, 40, 29], 16),
    ([16, 18, 44, 4, 5, 3, 17, 15, 27, 28], 30),
)
RESTRICTED = ("gin", "undercut", "tie", "wall", "late")


def card_value(card: int) -> int:
    return min(10, card % 13 + 1)


class Policy:
    def __init__(self, utils: Any, rng: random.Random, profile: str, hand_size: int) -> None:
        self.utils = utils
        self.hand_size = hand_size
        self.rng = rng
        self.profile = profile
        # The card drawn from the upcard that the "repeat" profile means to throw back.
        self.throw_back: int | None = None
        # The "deadend" profile's game plays DEAD_END_DEAL.
        self.forced = False

    def deadwood(self, cards: list[int]) -> int:
        return int(self.utils.min_deadwood(cards))

    def choose(self, state: Any) -> int:
        legal: list[int] = list(state.legal_actions())
        if self.profile == "cycle":
            return self.cycle(state, legal)
        if self.profile == "meldtie" and state.move_number() == 21:
            return DRAW_UPCARD
        if self.profile == "deadend":
            if state.move_number() == len(DEAD_END_DEAL) and self.forced:
                return DRAW_UPCARD
            legal = [a for a in legal if not (a == KNOCK and dead_end(state))]
        if self.profile == "repeat":
            chosen = self.repeat(state, legal)
            if chosen is not None:
                return chosen
        if self.profile in RESTRICTED:
            return self.restricted(state, legal)
        if self.rng.random() < 0.7:
            return self.greedy(state, legal)
        return self.rng.choice(legal)

    def restricted(self, state: Any, legal: list[int]) -> int:
        phase = state.current_phase()
        player = state.current_player()
        if phase in (GM.DISCARD, GM.WALL) and KNOCK in legal:
            hand: list[int] = list(state.hands()[player])
            own = int(state.deadwood()[player])
            if phase == GM.WALL:
                own = self.deadwood([*hand, state.upcard()])
            opp = int(state.deadwood()[1 - player])
            may_knock = {
                "gin": own == 0,
                "undercut": opp < own,
                "tie": opp == own,
                "wall": False,
                "late": phase == GM.WALL,
            }[self.profile]
            if not may_knock:
                legal = [a for a in legal if a != KNOCK]
        if phase == GM.LAYOFF and self.profile == "tie" and not state.finished_layoffs():
            return PASS
        if phase in (GM.KNOCK, GM.LAYOFF) or self.rng.random() < 0.85:
            return self.greedy(state, legal)
        return self.rng.choice(legal)

    def cycle(self, state: Any, legal: list[int]) -> int:
        phase = state.current_phase()
        hand: list[int] = list(state.hands()[state.current_player()])
        if phase in (GM.FIRST_UPCARD, GM.DRAW):
            if DRAW_UPCARD in legal:
                self.throw_back = state.upcard()
                return DRAW_UPCARD
            return DRAW_STOCK
        if phase == GM.DISCARD:
            cards = [c for c in hand if c != self.throw_back]
            return self.rng.choice(cards)
        return self.greedy(state, legal)

    def repeat(self, state: Any, legal: list[int]) -> int | None:
        phase = state.current_phase()
        if phase == GM.DRAW and self.rng.random() < 0.5:
            self.throw_back = state.upcard()
            return DRAW_UPCARD
        if phase == GM.DISCARD and self.throw_back is not None:
            card, self.throw_back = self.throw_back, None
            if card in legal:
                return card
        self.throw_back = None
        return None

    def greedy(self, state: Any, legal: list[int]) -> int:
        phase = state.current_phase()
        player = state.current_player()
        hand: list[int] = list(state.hands()[player])
        if phase in (GM.FIRST_UPCARD, GM.DRAW):
            if DRAW_UPCARD in legal and self.deadwood([*hand, state.upcard()]) < self.deadwood(
                hand
            ):
                return DRAW_UPCARD
            return PASS if PASS in legal else DRAW_STOCK
        if phase == GM.WALL:
            return KNOCK if KNOCK in legal else PASS
        if phase == GM.DISCARD:
            if KNOCK in legal:
                return KNOCK
            return self.best_discard(hand, legal)
        if phase == GM.KNOCK:
            if len(hand) == self.hand_size + 1:
                return self.best_discard(hand, legal)
            return self.best_meld(hand, legal)
        if phase == GM.LAYOFF:
            cards = [a for a in legal if a < 52]
            if cards:
                return max(cards, key=card_value)
            return self.best_meld(hand, legal)
        raise AssertionError(f"unexpected phase {phase}")

    def best_discard(self, hand: list[int], legal: list[int]) -> int:
        cards = [a for a in legal if a < 52]
        return min(
            cards,
            key=lambda c: (self.deadwood([x for x in hand if x != c]), -card_value(c), c),
        )

    def best_meld(self, hand: list[int], legal: list[int]) -> int:
        melds = [a for a in legal if a >= MELD_BASE]
        if not melds:
            return PASS

        def left(action: int) -> int:
            meld = set(self.utils.int_to_meld[action - MELD_BASE])
            return self.deadwood([c for c in hand if c not in meld])

        return min(melds, key=lambda a: (left(a), a))


def dead_end(state: Any) -> bool:
    """Whether knocking now leaves OpenSpiel with no legal action."""
    after = state.clone()
    after.apply_action(KNOCK)
    return not after.is_terminal() and not after.legal_actions()


def play(game: Any, seed: int, profile: str, with_legal: bool, index: int = 0) -> dict[str, Any]:
    params = game.get_parameters()
    utils = GM.GinRummyUtils(params["num_ranks"], params["num_suits"], params["hand_size"])
    rng = random.Random(seed)
    policy = Policy(utils, rng, profile, params["hand_size"])
    forced = profile == "deadend" and index == 0 and params["hand_size"] == 2
    policy.forced = forced
    state = game.new_initial_state()
    actions: list[int] = []
    players: list[int] = []
    legal_lists: list[list[int]] = []
    last_phase = None
    wall_knock = False
    while not state.is_terminal():
        player = state.current_player()
        last_phase = state.current_phase()
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            action = rng.choice(outcomes)
            if forced and len(actions) < len(DEAD_END_DEAL):
                action = DEAD_END_DEAL[len(actions)]
            if profile == "meldtie" and len(actions) <= 20:
                hand, upcard = MELDTIE_HANDS[index % len(MELDTIE_HANDS)]
                if len(actions) < 10:
                    action = hand[len(actions)]
                elif len(actions) < 20:
                    action = rng.choice([a for a in outcomes if a != upcard])
                else:
                    action = upcard
        else:
            if with_legal:
                legal_lists.append(sorted(state.legal_actions()))
            action = policy.choose(state)
            if last_phase == GM.WALL and action == KNOCK:
                wall_knock = True
        actions.append(int(action))
        players.append(int(player))
        state.apply_action(action)
    returns = [float(r) for r in state.returns()]
    knocked = list(state.knocked())
    knocker = knocked.index(True) if any(knocked) else None
    deadwood = [int(d) for d in state.deadwood()]
    if knocker is not None:
        r = returns[knocker]
        if deadwood[knocker] == 0:
            ending = "gin"
        elif r > 0:
            ending = "knock"
        elif r < 0:
            ending = "undercut"
        else:
            ending = "knock_tie"
    elif last_phase == GM.WALL:
        ending = "wall"
    elif actions[-1] == DRAW_UPCARD:
        ending = "upcard_limit"
    else:
        ending = "repeated_move"
    record: dict[str, Any] = {
        "seed": seed,
        "profile": profile,
        "actions": actions,
        "players": players,
        "returns": [int(r) if r == int(r) else r for r in returns],
        "ending": ending,
        "knocker": knocker,
        "wall_knock": wall_knock,
        "final_deadwood": deadwood,
    }
    if with_legal:
        record["legal"] = legal_lists
    return record


def run(params: dict[str, Any], plan: list[tuple[str, int]], seed_base: int) -> list[str]:
    game = pyspiel.load_game("gin_rummy", params)
    records = []
    index = 0
    for profile, count in plan:
        for i in range(count):
            seed = seed_base + index
            with_legal = index % 10 == 0 or profile in ("meldtie", "deadend")
            records.append(play(game, seed, profile, with_legal, i))
            index += 1
    header = {
        "openspiel_version": pyspiel.__version__
        if hasattr(pyspiel, "__version__")
        else openspiel_version(),
        "game": "gin_rummy",
        "params": dict(game.get_parameters()),
        "generator": "make_openspiel_fixture.py",
        "games": len(records),
        "profiles": dict(Counter(r["profile"] for r in records)),
        "endings": dict(sorted(Counter(r["ending"] for r in records).items())),
    }
    lines = [json.dumps(header, separators=(",", ":"))]
    lines += [json.dumps(r, separators=(",", ":")) for r in records]
    return lines


def openspiel_version() -> str:
    from importlib.metadata import version

    return version("open_spiel")


def main() -> None:
    plan = [
        ("mixed", 300),
        ("gin", 40),
        ("undercut", 40),
        ("tie", 75),
        ("wall", 25),
        ("late", 40),
        ("repeat", 25),
        ("cycle", 25),
        ("meldtie", 10),
    ]
    default = run({}, plan, seed_base=1)
    (HERE / "openspiel.jsonl").write_text("\n".join(default) + "\n")
    variants: list[str] = []
    variant_params: list[dict[str, Any]] = [
        {"knock_card": 1},
        {"knock_card": 5},
        {"knock_card": 0},
        {"gin_bonus": 20, "undercut_bonus": 10},
        {"oklahoma": True},
        {"hand_size": 7},
    ]
    for i, params in enumerate(variant_params):
        variant_plan = [("mixed", 34), ("gin", 6), ("undercut", 6), ("late", 4)]
        variants += run(params, variant_plan, seed_base=100_000 * (i + 1))
    (HERE / "openspiel_variants.jsonl").write_text("\n".join(variants) + "\n")
    write_dead_ends()
    for line in [default[0]] + [v for v in variants if v.startswith('{"openspiel_version"')]:
        header = json.loads(line)
        print(header["params"], header["endings"])


def write_dead_ends() -> None:
    """``openspiel_dead_ends.jsonl``: hand sizes whose hand_size + 1 cards can be all 3-card
    melds (GR-5.1's dead-end knocks), every game with its legal lists."""
    lines: list[str] = []
    for i, hand_size in enumerate((2, 5, 8)):
        lines += run({"hand_size": hand_size}, [("deadend", 40)], seed_base=900_000 + 1000 * i)
    (HERE / "openspiel_dead_ends.jsonl").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
