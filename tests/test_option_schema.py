"""The option schema: declared once in the engine, it drives the keywords,
the errors (which name their option) and the command-line flags and help."""

from __future__ import annotations

import pickle

import pytest
from click.testing import CliRunner

from cardtable import InvalidConfigError
from cardtable.cli import main
from cardtable.cli.game_options import flag_name
from cardtable.games.tonk import TonkGame


def test_the_schema_names_every_option_once_with_values_help_and_rule() -> None:
    schema = TonkGame().option_schema()
    assert [s.name for s in schema] == TonkGame().option_names()
    assert list(TonkGame().options()) == [s.name for s in schema]
    by_name = {s.name: s for s in schema}
    assert by_name["max_idle_rounds"].kind == "int"
    assert (by_name["max_idle_rounds"].minimum, by_name["max_idle_rounds"].maximum) == (1, 1000)
    assert by_name["max_idle_rounds"].rule == "TK-10.7"
    assert by_name["hand_size"].kind == "int_or_word"
    assert by_name["hand_size"].words == ["by_players"]
    assert by_name["drop_timing"].words == ["start_of_turn", "own_turn_any_phase", "any_time"]
    assert ("rank", "eleven_twelve_thirteen") in by_name["face_values"].aliases
    assert by_name["upcard"].kind == "bool"
    for spec in schema:
        assert spec.rule.startswith("TK-"), spec
        assert spec.help.endswith("."), spec
        assert spec.values_text
        assert repr(spec).startswith(f"<OptionSpec {spec.name} ")


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"hand_size": 40}, "hand_size"),
        ({"players": 5, "hand_size": 11}, "hand_size"),
        ({"drop_timing": "never"}, "drop_timing"),
        ({"colour": "red"}, "colour"),
        ({"players": 3, "double_double": "tonker"}, "double_double"),
        ({"stake": 2.5}, "stake"),
    ],
)
def test_errors_name_their_option_and_pickle_with_it(
    options: dict[str, object], option: str
) -> None:
    with pytest.raises(InvalidConfigError) as info:
        TonkGame(**options)
    assert info.value.option == option
    back = pickle.loads(pickle.dumps(info.value))
    assert (str(back), back.option) == (str(info.value), option)


def test_an_error_about_no_single_option_has_none() -> None:
    err = InvalidConfigError("something else")
    assert err.option is None
    assert str(err) == "something else"


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_help_shows_each_option_with_its_rule_from_the_schema(command: str) -> None:
    result = CliRunner().invoke(main, [command, "tonk", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for spec in TonkGame().option_schema():
        assert flag_name(spec.name) in text, spec.name
        if spec.name != "players":
            assert f"({spec.rule})" in text, spec.name
    assert "[by_players|2..25]" in text
    assert "[1<=x<=1000]" in text  # --max-idle-rounds
