//! The rules in play, in words: what a player needs to know of one
//! configuration, each point under its rule ID (what `?` shows in `play`).
//! Written by each game from its own configuration, so the numbers and the
//! options' effects come from the engine, never from a front end.

/// One point of a game's rules as configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulePoint {
    /// A short heading: `"Going out"`.
    pub title: &'static str,
    /// The rule's ID in `docs/rules.md`: `"TT-6"`.
    pub rule: &'static str,
    /// One or two sentences, as configured.
    pub text: String,
}

impl RulePoint {
    pub fn new(title: &'static str, rule: &'static str, text: impl Into<String>) -> RulePoint {
        RulePoint {
            title,
            rule,
            text: text.into(),
        }
    }
}

/// `"A 1, 2-10 their number, J 10, Q 10, K 10"` from a card value by rank (1..=13).
pub fn card_values_text(value: impl Fn(u8) -> u32) -> String {
    let numbers: Vec<u32> = (2..=10).map(&value).collect();
    let plain = numbers.iter().zip(2u32..).all(|(&v, r)| v == r);
    let numbers = if plain {
        "2-10 their number".to_string()
    } else {
        (2u8..=10)
            .zip(&numbers)
            .map(|(r, v)| format!("{r} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "A {}, {numbers}, J {}, Q {}, K {}",
        value(1),
        value(11),
        value(12),
        value(13)
    )
}

/// The name of a rank in the plural: `"3s"`, `"Js"`, `"As"`.
pub fn rank_plural(rank: u8) -> String {
    let name = match rank {
        1 => "A".to_string(),
        11 => "J".to_string(),
        12 => "Q".to_string(),
        13 => "K".to_string(),
        r => r.to_string(),
    };
    format!("{name}s")
}
