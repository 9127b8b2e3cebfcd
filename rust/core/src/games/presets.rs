//! What the hand tools (`score`, `deal`, `MeldRules(game)`) ask of a game by
//! name: its meld rules and how it deals a hand. Each game says both
//! (`Game::meld_rules`, `Game::deal_rules`), so `--game` means the same
//! registered game for every command; `gin` stays a name of gin rummy's
//! meld rules, as the meld solver has always called them.

use crate::deck::DealRules;
use crate::error::{CoreError, Result};
use crate::meld::MeldRules;

use super::registry::{canonical_name, AnyGame, GAMES};

/// Other names of a game's meld rules: (name, game).
pub const MELD_ALIASES: [(&str, &str); 1] = [("gin", "gin_rummy")];

/// The game a hand tool's `--game` names: a registered game (`-` and `_`
/// alike) or an alias of its meld rules.
fn game_named(name: &str) -> Result<AnyGame> {
    let key = crate::engine::options::keyword(name);
    let key = MELD_ALIASES
        .iter()
        .find(|(alias, _)| *alias == key)
        .map_or(key.as_str(), |(_, game)| game);
    AnyGame::load(canonical_name(key)?, &[])
}

/// The games with melds, in registration order, then the aliases: what
/// `--game` offers `score` and `deal`.
pub fn meld_game_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = GAMES
        .iter()
        .copied()
        .filter(|g| AnyGame::load(g, &[]).is_ok_and(|game| game.meld_rules().is_some()))
        .collect();
    names.extend(MELD_ALIASES.iter().map(|(alias, _)| *alias));
    names
}

/// Every name `--game` takes for meld rules, with the rules: made once,
/// since single-hand calls look a game's rules up on every call.
fn meld_presets() -> &'static [(&'static str, MeldRules)] {
    static PRESETS: std::sync::OnceLock<Vec<(&'static str, MeldRules)>> =
        std::sync::OnceLock::new();
    PRESETS.get_or_init(|| {
        meld_game_names()
            .into_iter()
            .filter_map(|name| Some((name, game_named(name).ok()?.meld_rules()?)))
            .collect()
    })
}

/// Game `name`'s meld rules with its default options (`gin` is gin rummy's).
pub fn meld_rules_of(name: &str) -> Result<MeldRules> {
    // Exact names first: this runs on every single-hand call.
    if let Some((_, rules)) = meld_presets().iter().find(|(n, _)| *n == name) {
        return Ok(*rules);
    }
    let key = crate::engine::options::keyword(name);
    if let Some((_, rules)) = meld_presets().iter().find(|(n, _)| *n == key) {
        return Ok(*rules);
    }
    let game = game_named(name)?;
    game.meld_rules().ok_or_else(|| {
        CoreError::option(
            "game",
            format!(
                "{} has no melds: expected one of {}",
                game.name(),
                meld_game_names().join(", ")
            ),
        )
    })
}

/// How game `name` deals a hand (round `round` of a game of rounds), with
/// a caller's overrides, checked; and the game's registry name.
pub fn deal_rules_of(
    name: &str,
    hand_size: Option<i64>,
    round: Option<i64>,
    decks: Option<i64>,
    jokers: bool,
    upcard: Option<bool>,
) -> Result<(&'static str, DealRules)> {
    let game = game_named(name)?;
    let key = game.name();
    let deck_rule = game.meld_rules().map_or("", |r| r.deck_rule);
    let rules = match round {
        Some(r) => {
            if hand_size.is_some() {
                return Err(CoreError::option(
                    "round",
                    "give either round or hand_size, not both",
                ));
            }
            let r = u8::try_from(r)
                .map_err(|_| CoreError::option("round", format!("round {r} out of range")))?;
            game.round_deal_rules(r).unwrap_or_else(|| {
                Err(CoreError::option("round", format!("{key} has no rounds")))
            })?
        }
        None => game.deal_rules().ok_or_else(|| {
            CoreError::option(
                "game",
                format!(
                    "{key} is not dealt in hands: expected one of {}",
                    meld_game_names().join(", ")
                ),
            )
        })?,
    };
    Ok((
        key,
        rules.with_overrides(key, deck_rule, hand_size, decks, jokers, upcard)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_with_melds_is_offered_and_gin_is_gin_rummys_rules() {
        assert_eq!(
            meld_game_names(),
            ["tonk", "three_thirteen", "gin_rummy", "gin"]
        );
        assert_eq!(meld_rules_of("gin").unwrap(), MeldRules::gin());
        assert_eq!(meld_rules_of("Gin-Rummy").unwrap(), MeldRules::gin());
        assert_eq!(meld_rules_of("three-thirteen").unwrap().deck.decks, 2);
        for bad in ["spit", "speed", "poker"] {
            match meld_rules_of(bad) {
                Err(CoreError::InvalidConfig { option, .. }) => {
                    assert_eq!(option.as_deref(), Some("game"))
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn each_game_deals_its_own_way_and_errors_name_the_option() {
        let (_, tonk) = deal_rules_of("tonk", None, None, None, false, None).unwrap();
        assert_eq!(
            (tonk.hand_size, tonk.deck.size(), tonk.upcard),
            (5, 52, true)
        );
        for name in ["gin", "gin_rummy"] {
            let (key, gin) = deal_rules_of(name, None, None, None, false, Some(false)).unwrap();
            assert_eq!((key, gin.hand_size, gin.upcard), ("gin_rummy", 10, false));
        }
        let (key, tt) = deal_rules_of("three-thirteen", None, Some(11), None, true, None).unwrap();
        assert_eq!(
            (key, tt.hand_size, tt.deck.size()),
            ("three_thirteen", 13, 108)
        );
        for (game, hand, round, decks, jokers, option) in [
            ("tonk", None, Some(3), None, false, "round"),
            ("three_thirteen", Some(4), Some(3), None, false, "round"),
            ("three_thirteen", None, Some(14), None, false, "round"),
            ("gin", Some(0), None, None, false, "hand_size"),
            ("tonk", None, None, Some(2), false, "decks"),
            ("tonk", None, None, None, true, "jokers"),
            ("three_thirteen", None, None, Some(300), false, "decks"),
            ("spit", None, None, None, false, "game"),
            ("poker", None, None, None, false, "game"),
        ] {
            match deal_rules_of(game, hand, round, decks, jokers, None) {
                Err(CoreError::InvalidConfig {
                    option: Some(o), ..
                }) => assert_eq!(o, option),
                other => panic!("{game} {option}: {other:?}"),
            }
        }
    }
}
