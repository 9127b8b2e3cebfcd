//! How a hand ends and who pays whom (TK-5, TK-10, TK-11).

use super::*;

impl TonkState {
    // ----- settlements ---------------------------------------------------------

    pub(super) fn everyone_pays(&self, to: u8, amount: u32, reason: &'static str) -> Vec<Transfer> {
        (0..self.n())
            .filter(|&q| q != to)
            .map(|q| Transfer::new(q, to, amount, reason))
            .collect()
    }

    pub(super) fn finish(&mut self, ending: Ending, transfers: Vec<Transfer>, shown: u8) {
        self.ending = Some(ending);
        self.transfers = transfers;
        self.shown |= shown;
        self.phase = Phase::Over;
        self.window = None;
    }

    pub(super) fn counts(&self) -> Vec<u32> {
        (0..self.n()).map(|p| self.count(p)).collect()
    }

    pub(super) fn all_hands(&self) -> u8 {
        ((1u16 << self.n()) - 1) as u8
    }

    /// TK-10.1 and TK-11.2.
    pub(super) fn settle_tonk_out(&mut self, p: u8) {
        let mut paid = 2u32;
        let mut reason = "tonk out (TK-10.1)";
        match self.cfg.tonk_double_requires {
            DoubleRequires::Any => {}
            DoubleRequires::NewSpread => {
                if self.turn.new_spreads == 0 {
                    paid = 1;
                    reason = "tonk out by hits alone, paid single (TK-10.1 new_spread)";
                }
            }
            DoubleRequires::WholeHandOneTurn => {
                if !(self.turn.started_full && self.turn.put_down == self.cfg.hand_size + 1) {
                    paid = 1;
                    reason =
                        "out with zero, not the whole hand in one turn (TK-10.1 whole_hand_one_turn)";
                }
            }
        }
        if self.cfg.double_double != DoubleDouble::Off && self.turn.new_run {
            let b = self.left_of(p);
            if can_lay_off_all(self.hands[usize::from(b)], &self.spreads, &self.cfg) {
                let (payer, payee, why) = match self.cfg.double_double {
                    DoubleDouble::Responder => (
                        p,
                        b,
                        "double-double: the responder could lay off the whole hand (TK-11.2 responder)",
                    ),
                    _ => (
                        b,
                        p,
                        "double-double: the responder could lay off the whole hand (TK-11.2 tonker)",
                    ),
                };
                let t = vec![Transfer::new(payer, payee, 4, why)];
                self.finish(
                    Ending::TonkOut {
                        player: p,
                        paid: 4,
                        double_double: true,
                    },
                    t,
                    1 << b,
                );
                return;
            }
        }
        let t = self.everyone_pays(p, paid, reason);
        self.finish(
            Ending::TonkOut {
                player: p,
                paid: paid as u8,
                double_double: false,
            },
            t,
            0,
        );
    }

    /// TK-10.3 and TK-11.1.
    pub(super) fn settle_drop(&mut self, d: u8) {
        let counts = self.counts();
        let (t, caught) = drop_settlement(&counts, d, self.cfg.drop_payout);
        let all = self.all_hands();
        self.finish(Ending::Drop { player: d, caught }, t, all);
    }

    /// TK-10.4: lowest count takes 1s from everyone; ties per
    /// `stock_out_tie`. A stalled hand (TK-10.7) is settled the same way
    /// but reported as `stalled`, a void tie included.
    pub(super) fn settle_stock_out(&mut self, stalled: bool) {
        let counts = self.counts();
        let low = counts.iter().copied().min().unwrap_or(0);
        let tied: Vec<u8> = (0..self.n())
            .filter(|&p| counts[usize::from(p)] == low)
            .collect();
        let all = self.all_hands();
        let (single, tie) = if stalled {
            (
                "lowest count when the hand stalled (TK-10.7)",
                "tied lowest when the hand stalled (TK-10.7, stock_out_tie=all_paid)",
            )
        } else {
            (
                "lowest count when the stock ran out (TK-10.4)",
                "tied lowest when the stock ran out (TK-10.4, stock_out_tie=all_paid)",
            )
        };
        let ending = |winner| {
            if stalled {
                Ending::Stalled { winner }
            } else {
                Ending::StockOut { winner }
            }
        };
        if tied.len() == 1 {
            let t = self.everyone_pays(tied[0], 1, single);
            self.finish(ending(Some(tied[0])), t, all);
            return;
        }
        match self.cfg.stock_out_tie {
            StockOutTie::Void if stalled => self.finish(ending(None), Vec::new(), all),
            StockOutTie::Void => self.finish(Ending::Void { stock_out: true }, Vec::new(), all),
            StockOutTie::AllPaid => {
                let mut t = Vec::new();
                for &w in &tied {
                    for q in 0..self.n() {
                        if !tied.contains(&q) {
                            t.push(Transfer::new(q, w, 1, tie));
                        }
                    }
                }
                self.finish(ending(None), t, all);
            }
        }
    }

    /// TK-11.3: participants show their highest spade; the highest takes the pot.
    pub(super) fn settle_spades(&mut self) {
        let Some(stake) = self.cfg.spades_bet else {
            return;
        };
        let mut best: Option<(u8, u8)> = None;
        for k in 0..self.n() {
            // Shown in dealing order, from the player left of the dealer.
            let p = (self.dealer + 1 + k) % self.n();
            if self.spades_in & (1 << p) == 0 {
                continue;
            }
            let spades = self.hands[usize::from(p)] & (0x1FFFu64 << 39);
            if spades == 0 {
                continue;
            }
            let (top_card, strength) = highest_spade(spades, self.cfg.spades_ace_high);
            self.spades_shown[usize::from(p)] = Some(top_card);
            self.known[usize::from(p)] |= card_bit(top_card);
            if best.is_none_or(|(_, s)| strength > s) {
                best = Some((p, strength));
            }
        }
        if let Some((w, _)) = best {
            for q in 0..self.n() {
                if q != w && self.spades_in & (1 << q) != 0 {
                    self.side_transfers.push(Transfer::new(
                        q,
                        w,
                        stake,
                        "highest spade in the side bet (TK-11.3)",
                    ));
                }
            }
        }
        // No spade among the participants: the pot is returned (no transfers).
    }
}

/// Highest spade of a spade mask: (card, strength) with the ace high or low.
pub(super) fn highest_spade(spades: u64, ace_high: bool) -> (Card, u8) {
    let ace = 1u64 << 39;
    if ace_high && spades & ace != 0 {
        return (Card::of(1, 3), 14);
    }
    let top = 63 - spades.leading_zeros();
    let card = Card::of((top - 39) as u8 + 1, 3);
    (card, card.rank())
}

/// Can every card of `hand` be laid off onto `spreads`, hits building on one
/// another (TK-11.2, exact search)?
pub(super) fn can_lay_off_all(hand: u64, spreads: &[Spread], cfg: &TonkConfig) -> bool {
    if hand == 0 {
        return true;
    }
    let table: Vec<Spread> = spreads.iter().filter(|s| !s.cleared).copied().collect();
    // A card with no book of its rank and no run of its suit can never go.
    let homeless = mask_cards(hand).into_iter().any(|c| {
        !table.iter().any(|s| match s.kind {
            MeldKind::Set => !cfg.only_runs_hittable && s.lo == c.rank(),
            MeldKind::Run => s.suit == c.suit_index(),
        })
    });
    if homeless {
        return false;
    }
    /// The hand left and each spread's cards and ends.
    type Position = (u64, Vec<(u64, u8, u8)>);
    /// Depth-first over hits; positions already shown to fail are skipped,
    /// so hands of any size stay fast.
    fn go(
        hand: u64,
        table: &mut Vec<Spread>,
        cfg: &TonkConfig,
        failed: &mut HashSet<Position>,
    ) -> bool {
        if hand == 0 {
            return true;
        }
        let key = (hand, table.iter().map(|s| (s.cards, s.lo, s.hi)).collect());
        if failed.contains(&key) {
            return false;
        }
        for c in mask_cards(hand) {
            for i in 0..table.len() {
                if table[i].accepts(c, cfg) {
                    let saved = table[i];
                    table[i].add(c);
                    let ok = go(hand & !card_bit(c), table, cfg, failed);
                    table[i] = saved;
                    if ok {
                        return true;
                    }
                }
            }
        }
        failed.insert(key);
        false
    }
    let mut t = table;
    go(hand, &mut t, cfg, &mut HashSet::new())
}

pub(super) const CAUGHT_AT_OR_BELOW: &str =
    "caught dropping: 2s to each count at or below the dropper's (TK-10.3 b)";
pub(super) const LOWEST_AFTER_CATCH: &str = "lowest count after a caught drop (TK-10.3 b)";

/// Transfers of a drop (TK-10.3, TK-11.1) and whether the dropper was caught.
pub fn drop_settlement(counts: &[u32], d: u8, payout: DropPayout) -> (Vec<Transfer>, bool) {
    let n = counts.len() as u8;
    let dc = counts[usize::from(d)];
    let others: Vec<u8> = (0..n).filter(|&p| p != d).collect();
    let tr = Transfer::new;
    let mut t = Vec::new();
    // (a) strictly lowest: everyone pays the dropper 1s.
    if others.iter().all(|&p| counts[usize::from(p)] > dc) {
        for &p in &others {
            t.push(tr(p, d, 1, "dropped with the lowest count (TK-10.3 a)"));
        }
        return (t, false);
    }
    let low = others
        .iter()
        .map(|&p| counts[usize::from(p)])
        .min()
        .unwrap_or(0);
    let winners: Vec<u8> = others
        .iter()
        .copied()
        .filter(|&p| counts[usize::from(p)] == low)
        .collect();
    match payout {
        DropPayout::Pagat => {
            // (b) 2s to everyone at or below the dropper; then the lowest
            // non-dropper(s) take 1s from every other player.
            for &p in &others {
                if counts[usize::from(p)] <= dc {
                    t.push(tr(d, p, 2, CAUGHT_AT_OR_BELOW));
                }
            }
            for &w in &winners {
                for q in 0..n {
                    if !winners.contains(&q) {
                        t.push(tr(q, w, 1, LOWEST_AFTER_CATCH));
                    }
                }
            }
        }
        DropPayout::Wikipedia => {
            if low < dc {
                // (b) 1s to each player below the dropper; every non-winner pays each winner 1s.
                for &p in &others {
                    if counts[usize::from(p)] < dc {
                        t.push(tr(
                            d,
                            p,
                            1,
                            "caught dropping: 1s to each count below the dropper's (TK-11.1 wikipedia)",
                        ));
                    }
                }
                for &w in &winners {
                    for q in 0..n {
                        if !winners.contains(&q) {
                            t.push(tr(q, w, 1, LOWEST_AFTER_CATCH));
                        }
                    }
                }
            } else {
                // (c) tied with the dropper: 2s to each tied player; every other
                // non-winner pays each of them 1s.
                for &w in &winners {
                    t.push(tr(
                        d,
                        w,
                        2,
                        "caught dropping: 2s to each count tied with the dropper's (TK-11.1 wikipedia)",
                    ));
                    for q in 0..n {
                        if q != d && !winners.contains(&q) {
                            t.push(tr(q, w, 1, LOWEST_AFTER_CATCH));
                        }
                    }
                }
            }
        }
        DropPayout::Texas => {
            // (b) the dropper pays 2s to the lowest player(s), losing ties; nobody else pays.
            for &w in &winners {
                t.push(tr(
                    d,
                    w,
                    2,
                    "caught dropping: 2s to the lowest count (TK-11.1 texas)",
                ));
            }
        }
    }
    (t, true)
}
