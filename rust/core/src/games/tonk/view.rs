//! What a seat may see: views, observations, determinization, replays
//! and invariant checks.

use super::*;

impl TonkState {
    // ----- views ---------------------------------------------------------------

    /// Everything `seat` may see (never a card hidden from it).
    pub fn view(&self, seat: u8) -> TonkView {
        let n = self.n();
        let s = usize::from(seat);
        let over = self.is_terminal();
        TonkView {
            seat,
            players: n,
            dealer: self.dealer,
            phase: self.phase,
            current_player: self.current_player(),
            turn_player: self.turn_player,
            hand: mask_cards(self.hands[s]),
            hand_sizes: (0..n).map(|p| self.hand_size(p) as u8).collect(),
            discard_pile: self.pile.clone(),
            stock_size: self.stock.len(),
            spreads: self
                .spreads
                .iter()
                .filter(|x| !x.cleared)
                .copied()
                .collect(),
            locks: (0..n).map(|p| self.lock(p)).collect(),
            turn_locked: self.turn.locked,
            stock_draws: (0..n).map(|p| self.stock_draws(p)).collect(),
            known_cards: (0..n)
                .map(|p| {
                    if p == seat {
                        Vec::new()
                    } else {
                        mask_cards(self.known_cards(p))
                    }
                })
                .collect(),
            spades_in: self.spades_in,
            spades_shown: (0..n).map(|p| self.spades_shown[usize::from(p)]).collect(),
            shown_hands: (0..n)
                .map(|p| {
                    (over && self.shown & (1 << p) != 0)
                        .then(|| mask_cards(self.hands[usize::from(p)]))
                })
                .collect(),
            ending: self.ending,
            returns: if over { Some(self.returns()) } else { None },
            legal_actions: if self.current_player() == Some(seat) {
                self.legal_actions()
            } else {
                Vec::new()
            },
        }
    }

    /// Size of [`TonkState::observation`] for `players` players.
    pub fn observation_size(players: usize) -> usize {
        52 * 3 + 52 * players + 52 * (players - 1) + players * 3 + 1 + 5 + 1
    }

    /// A flat observation for learning code, from `seat`'s point of view
    /// (seats relative to it: 0 is itself). Layout, in order:
    /// own hand (52); top discard (52); whole discard pile (52); cards in
    /// spreads owned by each relative seat (52 each); cards known in each
    /// opponent's hand (52 each); hand sizes / (hand_size + 1), locks / 3 (capped),
    /// spades shown (1 if any) per relative seat; stock size / 52; phase
    /// one-hot (spades, window, turn start, play, over); 1 if `seat` decides.
    pub fn observation(&self, seat: u8) -> Vec<f32> {
        let mut o = vec![0f32; Self::observation_size(usize::from(self.n()))];
        self.write_observation(seat, &mut o);
        o
    }

    /// [`TonkState::observation`] written into `o` (of its size, any
    /// content before).
    pub fn write_observation(&self, seat: u8, o: &mut [f32]) {
        let n = usize::from(self.n());
        o.fill(0.0);
        let set = |o: &mut [f32], base: usize, mask: u64| {
            let mut m = mask;
            while m != 0 {
                o[base + m.trailing_zeros() as usize] = 1.0;
                m &= m - 1;
            }
        };
        set(o, 0, self.hands[usize::from(seat)]);
        if let Some(t) = self.top_discard() {
            o[52 + usize::from(t.code())] = 1.0;
        }
        let pile = self.pile.iter().fold(0u64, |m, c| m | card_bit(*c));
        set(o, 104, pile);
        let rel = |k: usize| ((usize::from(seat) + k) % n) as u8;
        let mut base = 156;
        for k in 0..n {
            let owner = rel(k);
            let m = self
                .spreads
                .iter()
                .filter(|s| s.owner == owner && !s.cleared)
                .fold(0u64, |m, s| m | s.cards);
            set(o, base, m);
            base += 52;
        }
        for k in 1..n {
            set(o, base, self.known_cards(rel(k)));
            base += 52;
        }
        for k in 0..n {
            let p = rel(k);
            // A hand never holds more than the deal plus one drawn card.
            o[base] = self.hand_size(p) as f32 / f32::from(self.cfg.hand_size + 1);
            o[base + 1] = f32::from(self.lock(p).min(3)) / 3.0;
            o[base + 2] = if self.spades_shown[usize::from(p)].is_some() {
                1.0
            } else {
                0.0
            };
            base += 3;
        }
        o[base] = self.stock.len() as f32 / 52.0;
        base += 1;
        let ph = match self.phase {
            Phase::Spades => 0,
            Phase::Window => 1,
            Phase::TurnStart => 2,
            Phase::Play => 3,
            Phase::Over => 4,
        };
        o[base + ph] = 1.0;
        base += 5;
        o[base] = if self.current_player() == Some(seat) {
            1.0
        } else {
            0.0
        };
    }

    /// A state that `seat` cannot tell apart from this one: the cards hidden
    /// from it (other hands except their known cards, and the stock) dealt
    /// again at random, consistent with what it saw (no immediate deal-time
    /// win for players who have not played; shown highest spades). Used by
    /// the Monte Carlo bot and by the leak tests.
    pub fn determinize(&self, seat: u8, rng: &mut GameRng) -> TonkState {
        self.determinize_biased(seat, rng, &[0; MAX_PLAYERS])
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
        // The copy is a hypothetical world: its history is not needed, and no
        // seed or deck replays it.
        base.history.clear();
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
        let s = game.new_initial_state(seed, Some(dealer))?;
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

    /// Text of an action for the current state (same as `Action`'s `Display`).
    pub fn action_to_string(a: u16) -> Result<String> {
        Ok(Action::decode(a)?.to_string())
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
