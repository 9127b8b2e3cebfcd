//! Games set up by hand, for scenario tests and the Python API: given
//! hands at any round, or a round already in progress.

use super::*;

impl ThreeThirteenGame {
    /// A game whose first round deals each seat the listed cards, `upcard` as
    /// the first discard and `stock_top` as the next stock cards (top first);
    /// the rest of the deck follows in card order. Later rounds are dealt from
    /// seed 0. For tests: no record can deal it again.
    pub fn state_from_hands(
        &self,
        dealer: u8,
        hands: &[Vec<Card>],
        upcard: Card,
        stock_top: &[Card],
    ) -> Result<ThreeThirteenState> {
        self.state_from_hands_at_round(0, dealer, hands, upcard, stock_top)
    }

    /// Like [`ThreeThirteenGame::state_from_hands`], starting at schedule
    /// index `round` (the score sheet starts there).
    pub fn state_from_hands_at_round(
        &self,
        round: usize,
        dealer: u8,
        hands: &[Vec<Card>],
        upcard: Card,
        stock_top: &[Card],
    ) -> Result<ThreeThirteenState> {
        let cfg = &self.config;
        let n = usize::from(cfg.players);
        let dealer = self.check_dealer(dealer)?;
        let schedule = cfg.schedule();
        let spec = schedule.get(round).ok_or_else(|| {
            CoreError::config(format!(
                "round {round} is not in the schedule (0..{})",
                schedule.len()
            ))
        })?;
        if hands.len() != n {
            return Err(CoreError::config(format!(
                "{} hands given for {n} players",
                hands.len()
            )));
        }
        for (p, h) in hands.iter().enumerate() {
            if h.len() != usize::from(spec.cards) {
                return Err(CoreError::hand(format!(
                    "seat {p} has {} cards, the round deals {}",
                    h.len(),
                    spec.cards
                )));
            }
        }
        let mut deck = Vec::with_capacity(cfg.deck().size());
        // TT-3.2: one card at a time, clockwise from the left of the dealer.
        #[allow(clippy::needless_range_loop)]
        for i in 0..usize::from(spec.cards) {
            for k in 0..n {
                let p = (usize::from(dealer) + 1 + k) % n;
                deck.push(hands[p][i]);
            }
        }
        deck.push(upcard);
        deck.extend_from_slice(stock_top);
        cfg.deck().check_hand(&deck)?;
        let mut rest = cfg.deck().cards();
        for c in &deck {
            remove_one(&mut rest, *c);
        }
        if rest.is_empty() {
            return Err(CoreError::hand(
                "the given cards leave no stock: give fewer stock cards",
            ));
        }
        deck.extend(rest);
        let n8 = cfg.players;
        let first = ((usize::from(dealer) + n * 8 - round % n) % n) as u8;
        let mut s = ThreeThirteenState::empty(*cfg, 0, first % n8);
        s.unrecordable = true;
        s.first_round = round as u8;
        s.begin_round(round as u8, Some(&deck));
        Ok(s)
    }
}

impl ThreeThirteenGame {
    /// A round already in progress, for scenario tests: seat `current` is to
    /// draw, the seats hold `hands` (the round's deal size each), the discard
    /// pile is `pile` (bottom first) and the stock `stock` (top first), and
    /// the stock was rebuilt `restocks` times. Cards not listed are out of
    /// play, so the deck is not whole; no record can deal it again. The turn
    /// starts as any turn does: with an empty stock the round may end at once
    /// (TT-9.3).
    #[allow(clippy::too_many_arguments)]
    pub fn state_from_layout(
        &self,
        round: usize,
        dealer: u8,
        current: u8,
        hands: &[Vec<Card>],
        pile: &[Card],
        stock: &[Card],
        restocks: u8,
    ) -> Result<ThreeThirteenState> {
        let cfg = &self.config;
        let n = usize::from(cfg.players);
        let dealer = self.check_dealer(dealer)?;
        let current = self.check_dealer(current)?;
        let schedule = cfg.schedule();
        let spec = schedule.get(round).ok_or_else(|| {
            CoreError::config(format!(
                "round {round} is not in the schedule (0..{})",
                schedule.len()
            ))
        })?;
        if hands.len() != n {
            return Err(CoreError::config(format!(
                "{} hands given for {n} players",
                hands.len()
            )));
        }
        if hands.iter().any(|h| h.len() != usize::from(spec.cards)) {
            return Err(CoreError::hand(format!(
                "every hand holds {} cards at the start of a turn",
                spec.cards
            )));
        }
        let all: Vec<Card> = hands
            .iter()
            .flatten()
            .chain(pile)
            .chain(stock)
            .copied()
            .collect();
        cfg.deck().check_hand(&all)?;
        let first = ((usize::from(dealer) + n * 8 - round % n) % n) as u8;
        let mut s = ThreeThirteenState::empty(*cfg, 0, first);
        s.unrecordable = true;
        s.first_round = round as u8;
        s.reset_round(round as u8);
        for (h, given) in s.hands.iter_mut().zip(hands) {
            h.clear();
            h.extend_from_slice(given);
            h.sort_unstable();
        }
        s.pile = pile.to_vec();
        s.stock = stock.iter().rev().copied().collect();
        s.restocks = restocks;
        s.begin_turn(current);
        Ok(s)
    }
}
