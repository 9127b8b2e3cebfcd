//! Paired states: two Tonk hands that differ only in cards a seat cannot
//! see must give that seat the same `view` and `observation` (the engine
//! `State` trait's, too).
//!
//! Each hand is dealt from a deck the test shuffles itself and played at
//! random. At sampled states the test works out, from the public history
//! alone, which cards a seat cannot see: the stock, and every card of
//! another player's hand except those that player took from the discard
//! pile (the top card before each of its takes) or showed for the spades
//! bet, and except hands shown at the end. This is independent of the
//! engine's `known` bookkeeping, which is checked against it. It then swaps
//! two of those cards in the deck (a hidden hand card with a stock card or
//! with another opponent's hidden card, or two stock cards), replays the
//! same actions on the swapped deal, and compares. A swap is kept only when
//! the other hand is the same public story: every action replays, and the
//! ending and the spades shown (public events) are the same.

#![allow(clippy::unwrap_used)]

use crate::common::s;
use cardtable_core::engine::Game as _;
use cardtable_core::engine::State;
use cardtable_core::games::tonk::{action, Action, TonkGame, TonkState};
use cardtable_core::games::OptionValue;
use cardtable_core::{derive_seed, Card, DeckSpec, GameRng};

fn bit(c: Card) -> u64 {
    1u64 << c.code()
}

fn cards_of(m: u64) -> Vec<Card> {
    (0..52u8)
        .filter(|c| m & (1u64 << c) != 0)
        .map(|c| Card::from_code(c).unwrap())
        .collect()
}

/// Rule sets that reach every kind of public information: taken cards,
/// spreads and hits, cleared books, spades shown, drop windows, hands
/// shown at the end, double-doubles.
fn random_game(rng: &mut GameRng) -> TonkGame {
    use OptionValue::{Bool, Int};
    loop {
        let coin = |rng: &mut GameRng| rng.below(2) == 0;
        let mut o: Vec<(String, OptionValue)> = Vec::new();
        let players = 2 + i64::from(rng.below(3));
        o.push(("players".into(), Int(players)));
        if coin(rng) {
            o.push(("spades_bet".into(), Int(1)));
            o.push(("spades_ace_high".into(), Bool(coin(rng))));
        }
        if coin(rng) {
            let t = ["own_turn_any_phase", "any_time"][rng.below(2) as usize];
            o.push(("drop_timing".into(), s(t)));
        }
        for key in [
            "clear_completed_books",
            "discard_pickup_must_be_used",
            "forbid_rediscard",
            "must_spread",
            "upcard",
        ] {
            if rng.below(3) == 0 {
                o.push((key.into(), Bool(coin(rng))));
            }
        }
        if rng.below(3) == 0 {
            let d = ["pagat", "forty_nine_in_turn", "texas", "none"][rng.below(4) as usize];
            o.push(("deal_wins".into(), s(d)));
        }
        if rng.below(4) == 0 {
            o.push(("low_13".into(), Bool(true)));
        }
        if players == 2 && rng.below(3) == 0 {
            let d = ["responder", "tonker"][rng.below(2) as usize];
            o.push(("double_double".into(), s(d)));
        }
        if rng.below(4) == 0 {
            o.push(("hand_size".into(), Int(i64::from(rng.below(6)) + 3)));
        }
        if let Ok(g) = TonkGame::from_options(&o) {
            return g;
        }
    }
}

/// What the public history tells about each hand.
#[derive(Clone, Default)]
struct Public {
    /// Cards each player took from the discard pile.
    taken: [u64; 6],
}

/// The cards of `st` that `seat` cannot see, by where they lie: each other
/// player's hidden hand cards, and the stock.
fn hidden_from(st: &TonkState, public: &Public, seat: u8) -> (Vec<(u8, Vec<Card>)>, Vec<Card>) {
    let n = st.config().players;
    let mut hands = Vec::new();
    for q in 0..n {
        if q == seat || (st.is_terminal() && st.shown_hands() & (1 << q) != 0) {
            continue;
        }
        let mut visible = public.taken[usize::from(q)];
        if let Some(c) = st.spade_shown(q) {
            visible |= bit(c);
        }
        hands.push((q, cards_of(st.hand(q) & !visible)));
    }
    (hands, st.stock().to_vec())
}

/// Checks the engine's known cards against the public history.
fn check_known(st: &TonkState, public: &Public, ctx: &dyn Fn() -> String) {
    for q in 0..st.config().players {
        let mut want = public.taken[usize::from(q)];
        if let Some(c) = st.spade_shown(q) {
            want |= bit(c);
        }
        want &= st.hand(q);
        assert_eq!(
            st.known_cards(q),
            want,
            "known cards of seat {q}: engine {:?}, public history {:?}: {}",
            cards_of(st.known_cards(q)),
            cards_of(want),
            ctx()
        );
        for seat in 0..st.config().players {
            let seen = &st.view(seat).known_cards[usize::from(q)];
            if seat == q {
                assert!(seen.is_empty());
            } else {
                assert_eq!(seen, &cards_of(want), "{}", ctx());
            }
        }
    }
}

#[derive(Default, Debug)]
struct Tally {
    pairs: u64,
    skipped: u64,
    hand_stock: u64,
    hand_hand: u64,
    stock_stock: u64,
    terminal: u64,
}

/// Compares `st` with the same hand dealt from `deck` with `a` and `b`
/// swapped, for `seat`.
#[allow(clippy::too_many_arguments)]
fn check_pair(
    g: &TonkGame,
    deck: &[Card],
    dealer: u8,
    st: &TonkState,
    seat: u8,
    a: Card,
    b: Card,
    tally: &mut Tally,
    ctx: &dyn Fn() -> String,
) -> bool {
    let mut twin_deck = deck.to_vec();
    let i = twin_deck.iter().position(|&c| c == a).unwrap();
    let j = twin_deck.iter().position(|&c| c == b).unwrap();
    twin_deck.swap(i, j);
    let twin = g.deal_from_deck(&twin_deck, dealer).unwrap();
    let Ok(twin) = twin.replay_actions(st.history()) else {
        // The swap changed what some past action may do (say must_spread,
        // or a deal-time win): a different public story.
        tally.skipped += 1;
        return false;
    };
    let same_story = twin.ending() == st.ending()
        && (0..g.players() as u8).all(|p| twin.spade_shown(p) == st.spade_shown(p));
    if !same_story {
        tally.skipped += 1;
        return false;
    }
    // The two states differ exactly by the swap.
    assert_ne!(layout(&twin), layout(st));
    assert_eq!(
        TonkState::view(&twin, seat),
        TonkState::view(st, seat),
        "seat {seat} tells {a} from {b}: {}",
        ctx()
    );
    assert_eq!(
        twin.observation(seat),
        st.observation(seat),
        "seat {seat}'s observation tells {a} from {b}: {}",
        ctx()
    );
    // The engine trait's view and observation are the same.
    assert_eq!(
        <TonkState as State>::view(&twin, seat),
        <TonkState as State>::view(st, seat)
    );
    tally.pairs += 1;
    true
}

/// Every hand and the stock in order: what a swap changes.
fn layout(st: &TonkState) -> (Vec<u64>, Vec<Card>) {
    let n = st.config().players;
    ((0..n).map(|p| st.hand(p)).collect(), st.stock().to_vec())
}

fn pick<T: Copy>(rng: &mut GameRng, xs: &[T]) -> T {
    xs[rng.below(xs.len() as u32) as usize]
}

/// Pairs for every seat at one state.
#[allow(clippy::too_many_arguments)]
fn check_state(
    g: &TonkGame,
    deck: &[Card],
    dealer: u8,
    st: &TonkState,
    public: &Public,
    rng: &mut GameRng,
    tally: &mut Tally,
    ctx: &dyn Fn() -> String,
) {
    for seat in 0..g.players() as u8 {
        let (hands, stock) = hidden_from(st, public, seat);
        let hidden_hands: Vec<(u8, Vec<Card>)> =
            hands.into_iter().filter(|(_, v)| !v.is_empty()).collect();
        for _ in 0..2 {
            let kind = rng.below(3);
            let done = match kind {
                // A hidden hand card and a stock card.
                0 if !hidden_hands.is_empty() && !stock.is_empty() => {
                    let (_, h) = &hidden_hands[rng.below(hidden_hands.len() as u32) as usize];
                    let ok = check_pair(
                        g,
                        deck,
                        dealer,
                        st,
                        seat,
                        pick(rng, h),
                        pick(rng, &stock),
                        tally,
                        ctx,
                    );
                    tally.hand_stock += u64::from(ok);
                    ok
                }
                // Hidden cards of two other players.
                1 if hidden_hands.len() >= 2 => {
                    let x = rng.below(hidden_hands.len() as u32) as usize;
                    let y = (x + 1 + rng.below(hidden_hands.len() as u32 - 1) as usize)
                        % hidden_hands.len();
                    let ok = check_pair(
                        g,
                        deck,
                        dealer,
                        st,
                        seat,
                        pick(rng, &hidden_hands[x].1),
                        pick(rng, &hidden_hands[y].1),
                        tally,
                        ctx,
                    );
                    tally.hand_hand += u64::from(ok);
                    ok
                }
                // The stock order.
                _ if stock.len() >= 2 => {
                    let x = rng.below(stock.len() as u32) as usize;
                    let y = (x + 1 + rng.below(stock.len() as u32 - 1) as usize) % stock.len();
                    let ok = check_pair(g, deck, dealer, st, seat, stock[x], stock[y], tally, ctx);
                    tally.stock_stock += u64::from(ok);
                    ok
                }
                _ => false,
            };
            if done && st.is_terminal() {
                tally.terminal += 1;
            }
        }
    }
}

#[test]
fn views_and_observations_do_not_depend_on_cards_a_seat_cannot_see() {
    use rayon::prelude::*;
    let tallies: Vec<Tally> = (0..120u64)
        .into_par_iter()
        .map(|set| {
            let mut rng = GameRng::new(derive_seed(5, set));
            let g = random_game(&mut rng);
            let mut tally = Tally::default();
            for h in 0..4u64 {
                let mut deck = DeckSpec::standard().cards();
                rng.shuffle(&mut deck);
                let dealer = rng.below(g.players() as u32) as u8;
                let mut st = g.deal_from_deck(&deck, dealer).unwrap();
                let mut public = Public::default();
                let mut steps = 0u32;
                loop {
                    let ctx =
                        || format!("{} set {set} hand {h} history {:?}", g.config, st.history());
                    check_known(&st, &public, &ctx);
                    if steps % 3 == 0 || st.is_terminal() {
                        check_state(&g, &deck, dealer, &st, &public, &mut rng, &mut tally, &ctx);
                    }
                    let Some(p) = st.current_player() else { break };
                    let legal = st.legal_actions();
                    let mut a = pick(&mut rng, &legal);
                    if legal.contains(&action::TAKE_DISCARD) && rng.below(2) == 0 {
                        a = action::TAKE_DISCARD;
                    }
                    if a == action::DROP && legal.len() > 1 && rng.below(25) != 0 {
                        a = *legal.iter().find(|&&x| x != action::DROP).unwrap();
                    }
                    if Action::decode(a).unwrap() == Action::TakeDiscard {
                        public.taken[usize::from(p)] |= bit(st.top_discard().unwrap());
                    }
                    st.apply_action(a).unwrap();
                    steps += 1;
                }
            }
            tally
        })
        .collect();
    let mut all = Tally::default();
    for t in &tallies {
        all.pairs += t.pairs;
        all.skipped += t.skipped;
        all.hand_stock += t.hand_stock;
        all.hand_hand += t.hand_hand;
        all.stock_stock += t.stock_stock;
        all.terminal += t.terminal;
    }
    // Enough pairs of every kind, at the end of hands too.
    assert!(all.pairs > 20_000, "{all:?}");
    assert!(all.hand_stock > 5_000, "{all:?}");
    assert!(all.hand_hand > 2_000, "{all:?}");
    assert!(all.stock_stock > 5_000, "{all:?}");
    assert!(all.terminal > 300, "{all:?}");
}
