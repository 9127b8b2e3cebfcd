"""Property tests (Hypothesis): card and hand text never fail with anything but
the library's errors, and ``cardtable score`` gives one record per line."""

from __future__ import annotations

import json

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import Card, InvalidCardError, format_hand, parse_hand
from cardtable.cli import main
from cardtable.games.tonk import TonkGame

# Modest counts: the whole suite runs on two cores.
FEW = settings(max_examples=150, deadline=None)
CLI = settings(max_examples=40, deadline=None)

TOKENS = ["AS", "10d", "T♦", "q♥", "K♣️", "JK", "7h", "2S", "ZZ", "1S", "AS,", ","]


@FEW
@given(st.text(max_size=12))
def test_card_text_parses_or_raises_invalid_card(text: str) -> None:
    try:
        card = Card(text)
    except InvalidCardError as e:
        message = str(e)
    else:
        assert Card(str(card)) == card
        return
    assert message.startswith("invalid card ")


@FEW
@given(st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)), max_size=12))
def test_hand_text_parses_or_raises_invalid_card(tokens: list[str]) -> None:
    text = " ".join(tokens)
    try:
        hand = parse_hand(text)
    except InvalidCardError:
        return
    assert parse_hand(format_hand(hand)) == hand


# A line the scorer does not skip: it holds a visible ASCII character and no
# comment or line end, whatever else surrounds it. No control characters:
# a NUL or a run of them makes an input binary data, refused whole
# (tests/test_fuzz_inputs.py feeds those).
_free = st.text(
    st.characters(exclude_characters="\n\r#", exclude_categories=["Cs", "Cc"]), max_size=12
)
_line = st.tuples(_free, st.sampled_from([*TOKENS, "x", "AS 2S 3S", "KD QD JD 9C"]), _free).map(
    "".join
)


@CLI
@given(st.lists(st.tuples(_line, st.sampled_from(["\n", "\r\n", "\r"])), max_size=25))
def test_score_gives_one_record_per_line_in_order(lines: list[tuple[str, str]]) -> None:
    stdin = "".join(line + end for line, end in lines).encode()
    result = CliRunner().invoke(main, ["score", "--format", "jsonl"], input=stdin)
    records = [json.loads(r) for r in result.stdout.splitlines()]
    assert [r["line"] for r in records] == list(range(1, len(lines) + 1))
    rejected = sum("error" in r for r in records)
    assert result.exit_code == (1 if rejected else 0), result.output


ACTION_WORDS = ["draw", "take", "drop", "pass", "claim", "49", "spades", "in", "out", "discard",
                "hit", "spread", "S0", "S3", "JK", "7h", "AS", "2S", "3S"]  # fmt: skip


@FEW
@given(
    st.one_of(
        st.text(max_size=24),
        st.lists(st.one_of(st.sampled_from(ACTION_WORDS), st.text(max_size=4)), max_size=6).map(
            " ".join
        ),
    )
)
def test_tonk_action_text_reads_back_or_raises_illegal_action(text: str) -> None:
    from cardtable import IllegalActionError

    try:
        action = TonkGame().string_to_action(text)
    except IllegalActionError:
        return
    assert TonkGame().string_to_action(TonkGame().action_to_string(action)) == action
    assert "jk" not in text.lower().split()
