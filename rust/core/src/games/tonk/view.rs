//! What a seat may see: the observation size, biased determinization,
//! replays and invariant checks (`view`, `observation`, `determinize` are
//! the `engine::State` impl, in state.rs).

use super::*;
use crate::engine::Game as _;
use crate::games::seat_view::seat_view;

impl TonkState {
    // ----- views ---------------------------------------------------------------

    /// Size of [`TonkState::observation`] for `players` players.
    pub fn observation_size(players: usize) -> usize {
        52 * 3 + 52 * players + 52 * (players - 1) + players * 3 + 1 + 5 + 1
    }

    /// Like [`TonkState::determinize`], but player `q`'s hidden cards are the
    /// lowest-valued of `hidden + extra[q]` cards drawn at random: a model of
    /// an opponent who has been keeping low cards (the rest return to the
    /// stock). Still consistent with `seat`'s view.
    pub fn determinize_biased(
        &self,
        seat: u8,
        rng: &mut GameRng,
        extra: &[u8; MAX_PLAYERS],
    ) -> TonkState {
        let n = self.n();
        // Hands shown at the end are public too.
        let mut known = self.known;
        if self.is_terminal() {
            for p in 0..n {
                if self.shown & (1 << p) != 0 {
                    known[usize::from(p)] |= self.hands[usize::from(p)];
                }
            }
        }
        let mut pool: Vec<Card> = self.stock.clone();
        for p in 0..n {
            if p != seat {
                pool.extend(mask_cards(
                    self.hands[usize::from(p)] & !known[usize::from(p)],
                ));
            }
        }
        // In card order, not the hidden order: the re-deal then depends on
        // what `seat` sees and the generator only, so a bot that samples
        // worlds answers alike in every world it cannot tell apart.
        pool.sort_unstable_by_key(|c| c.code());
        let mut base = self.clone();
        // The copy is a hypothetical world: no seed or deck replays it. Its
        // history stays (every action is public, and bots read it).
        base.resampled = true;
        let mut best = base.clone();
        for attempt in 0..64 {
            let mut s = base.clone();
            rng.shuffle(&mut pool);
            let mut rest: Vec<Card> = pool.clone();
            for p in 0..n {
                if p == seat {
                    continue;
                }
                let pu = usize::from(p);
                let hidden = (self.hands[pu] & !known[pu]).count_ones() as usize;
                let take = (hidden + usize::from(extra[pu])).min(rest.len());
                let mut drawn: Vec<Card> = rest.split_off(rest.len() - take);
                if take > hidden {
                    // Keep the lowest; the others go back (stable: ties stay random).
                    drawn.sort_by_key(|&c| self.cfg.card_value(c));
                    rest.extend(drawn.drain(hidden..));
                    rng.shuffle(&mut rest);
                }
                let mut h = self.hands[pu] & known[pu];
                for c in drawn {
                    h |= card_bit(c);
                }
                s.hands[pu] = h;
                if self.had_turn & (1 << p) == 0 {
                    s.dealt[pu] = self.cfg.count(h);
                }
            }
            s.stock = rest;
            if attempt == 63 || s.consistent_with_public(self) {
                best = s;
                break;
            }
        }
        best
    }

    /// Public facts a resampled state must keep (see `determinize`).
    pub(super) fn consistent_with_public(&self, real: &TonkState) -> bool {
        for p in 0..self.n() {
            let pu = usize::from(p);
            if self.had_turn & (1 << p) != 0 {
                continue;
            }
            // The hand went on past the deal: nobody qualified for an immediate win.
            let c = self.dealt[pu];
            let immediate = matches!(
                (self.cfg.deal_wins, c),
                (DealWins::Pagat | DealWins::Texas, 49 | 50)
                    | (DealWins::FiftyOnly | DealWins::FortyNineInTurn, 50)
            ) || (self.cfg.low_9 && c <= 9)
                || (self.cfg.low_13 && c <= 13);
            if immediate && real.deal_ending.is_none() && real.phase != Phase::Over {
                return false;
            }
            // A participant's shown spade is their highest; showing none means no spade.
            if self.spades_decided == self.all_hands() && self.spades_in & (1 << p) != 0 {
                let spades = self.hands[pu] & (0x1FFFu64 << 39);
                let shown = if spades == 0 {
                    None
                } else {
                    Some(highest_spade(spades, self.cfg.spades_ace_high).0)
                };
                if shown != real.spades_shown[pu] {
                    return false;
                }
            }
        }
        true
    }

    /// Replays a hand: the same parameters, seed and dealer, then `actions`.
    pub fn replay(game: &TonkGame, seed: u64, dealer: u8, actions: &[u16]) -> Result<TonkState> {
        let s = game.deal(seed, Some(dealer))?;
        s.replay_actions(actions)
    }

    /// This freshly dealt state with `actions` applied (errors name the action).
    pub fn replay_actions(mut self, actions: &[u16]) -> Result<TonkState> {
        let s = &mut self;
        for (i, &a) in actions.iter().enumerate() {
            s.apply_action(a).map_err(|e| {
                CoreError::InvalidRecord(format!(
                    "action {} of {} ({a}): {e}",
                    i + 1,
                    actions.len()
                ))
            })?;
        }
        Ok(self)
    }

    /// Every card accounted for once: hands, stock, pile, spreads (invariant checks).
    pub fn card_locations_ok(&self) -> bool {
        let mut seen = 0u64;
        let mut total = 0u32;
        let mut add = |m: u64| {
            let clash = seen & m != 0;
            seen |= m;
            total += m.count_ones();
            !clash
        };
        let mut ok = true;
        for p in 0..self.n() {
            ok &= add(self.hands[usize::from(p)]);
        }
        for c in self.stock.iter().chain(&self.pile) {
            ok &= add(card_bit(*c));
        }
        for s in self.spreads.iter().filter(|s| !s.cleared) {
            ok &= add(s.cards);
        }
        ok && total == 52 && seen == (1u64 << 52) - 1
    }
}

/// What one seat sees of a hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TonkView {
    pub seat: u8,
    pub players: u8,
    pub dealer: u8,
    pub phase: Phase,
    pub current_player: Option<u8>,
    pub turn_player: u8,
    pub hand: Vec<Card>,
    pub hand_sizes: Vec<u8>,
    pub discard_pile: Vec<Card>,
    pub stock_size: usize,
    pub spreads: Vec<Spread>,
    pub locks: Vec<u8>,
    pub turn_locked: bool,
    /// Cards each player has drawn from the stock.
    pub stock_draws: Vec<u8>,
    /// Cards of each other player's hand known to everybody.
    pub known_cards: Vec<Vec<Card>>,
    pub spades_in: u8,
    pub spades_shown: Vec<Option<Card>>,
    /// Hands shown at the end of the hand.
    pub shown_hands: Vec<Option<Vec<Card>>>,
    pub ending: Option<Ending>,
    pub returns: Option<Vec<i64>>,
    pub legal_actions: Vec<u16>,
}

seat_view! {
    /// What one seat may look at while deciding (what Tonk's bots decide
    /// from): its own hand and what the table shows (the discard pile, the
    /// spreads, every hand's size, the cards others took from the pile), never
    /// another hand or the stock.
    TonkSeatView => TonkState
}

impl<'a> TonkSeatView<'a> {
    pub fn config(&self) -> &'a TonkConfig {
        self.state.config()
    }

    pub fn phase(&self) -> Phase {
        self.state.phase()
    }

    /// The seat to decide, if any.
    pub fn current_player(&self) -> Option<u8> {
        self.state.current_player()
    }

    /// The own hand, as a card mask.
    pub fn hand(&self) -> u64 {
        self.state.hand(self.seat)
    }

    /// The own hand's count (TK-3).
    pub fn count(&self) -> u32 {
        self.state.count(self.seat)
    }

    pub fn top_discard(&self) -> Option<Card> {
        self.state.top_discard()
    }

    pub fn discard_pile(&self) -> &'a [Card] {
        self.state.discard_pile()
    }

    /// Every spread laid this hand, by id (cleared ones flagged).
    pub fn spreads(&self) -> &'a [Spread] {
        self.state.spreads()
    }

    pub fn hand_size(&self, p: u8) -> usize {
        self.state.hand_size(p)
    }

    pub fn stock_size(&self) -> usize {
        self.state.stock_size()
    }

    /// Cards `p` has drawn from the stock this hand.
    pub fn stock_draws(&self, p: u8) -> u8 {
        self.state.stock_draws(p)
    }

    /// Cards of `p`'s hand that every player knows (taken from the pile).
    pub fn known_cards(&self, p: u8) -> u64 {
        self.state.known_cards(p)
    }

    /// The seat that dealt (TK-4.1); the seat on its left plays first.
    pub fn dealer(&self) -> u8 {
        self.state.dealer
    }

    /// Every action so far (all of them public: a stock draw does not name
    /// its card).
    pub fn history(&self) -> &'a [u16] {
        &self.state.history
    }

    /// The own legal actions now (empty when another seat decides).
    pub fn legal_action_list(&self) -> Vec<u16> {
        if self.state.current_player() == Some(self.seat) {
            self.state.legal_actions()
        } else {
            Vec::new()
        }
    }

    /// A world where each opponent's hidden cards are the lowest of
    /// `hidden + bias × (stock draws)` random cards
    /// ([`TonkState::determinize_biased`]): a model of opponents who keep
    /// low cards.
    pub fn determinize_keeping_low(&self, rng: &mut GameRng, bias: u8) -> TonkState {
        let mut extra = [0u8; MAX_PLAYERS];
        for p in 0..self.config().players {
            if p != self.seat {
                extra[usize::from(p)] = self.state.stock_draws(p).saturating_mul(bias);
            }
        }
        self.state.determinize_biased(self.seat, rng, &extra)
    }
}
