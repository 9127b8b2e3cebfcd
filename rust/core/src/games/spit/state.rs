//! The game's state machine: layouts, plays, stalemates and spits, the end
//! of a deal (slap window, regather), single-pile mode, games of a match
//! and the termination guards (SP-1 … SP-7, RT-7, RT-8, RT-12).

use super::*;

/// One stock pile: face-down cards under face-up ones (bottom first).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pile {
    cards: [Card; PILE_CAP],
    len: u8,
    pub(super) up: u8,
}

impl fmt::Debug for Pile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x? {:?}", self.face_down(), self.face_up())
    }
}

impl Pile {
    pub const EMPTY: Pile = Pile {
        cards: [Card::JOKER; PILE_CAP],
        len: 0,
        up: 0,
    };

    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Face-down cards (under every face-up one).
    pub fn face_down(&self) -> usize {
        usize::from(self.len - self.up)
    }

    /// The face-up cards, bottom first (the top card last).
    pub fn face_up(&self) -> &[Card] {
        &self.cards[self.face_down()..self.len()]
    }

    /// The top card if it is face up.
    pub fn top(&self) -> Option<Card> {
        (self.up > 0).then(|| self.cards[self.len() - 1])
    }

    /// Every card, bottom first.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len()]
    }

    /// Whether the top card is face down.
    pub fn top_face_down(&self) -> bool {
        self.len > 0 && self.up == 0
    }

    fn push_up(&mut self, c: Card) -> bool {
        if self.len() >= PILE_CAP {
            return false;
        }
        self.cards[self.len()] = c;
        self.len += 1;
        self.up += 1;
        true
    }

    fn push_down(&mut self, c: Card) {
        if self.len() < PILE_CAP && self.up == 0 {
            self.cards[self.len()] = c;
            self.len += 1;
        }
    }

    fn pop_up(&mut self) -> Option<Card> {
        if self.up == 0 {
            return None;
        }
        self.len -= 1;
        self.up -= 1;
        Some(self.cards[self.len()])
    }

    fn flip(&mut self) {
        if self.top_face_down() {
            self.up = 1;
        }
    }

    pub(super) fn slots_mut(&mut self) -> &mut [Card] {
        let n = self.len();
        &mut self.cards[..n]
    }
}

/// What the legal actions need of one seat's piles in play, kept up to
/// date pile by pile on the hot path (so a commit does not rescan them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct PileSummary {
    /// Four masks, a byte each: bit p of byte 0 says pile p is a space,
    /// of byte 1 that it has a face-up top, of byte 2 that it holds two
    /// cards or more, of byte 3 that it has a face-down top.
    masks: u32,
    /// Each pile's face-up top card code, or [`NO_TOP`].
    top_codes: [u8; MAX_PILES],
}

/// A `top_codes` entry of a pile without a face-up top: no card fits it.
const NO_TOP: u8 = 64;

impl PileSummary {
    fn of(piles: &[Pile]) -> PileSummary {
        let mut s = PileSummary {
            masks: 0,
            top_codes: [NO_TOP; MAX_PILES],
        };
        for (p, (pile, code)) in piles.iter().zip(&mut s.top_codes).enumerate() {
            s.masks |= Self::flags(pile) << p;
            *code = Self::top_code(pile);
        }
        s
    }

    /// Pile `pile`'s bit of each mask, at bit 0 of each byte.
    fn flags(pile: &Pile) -> u32 {
        u32::from(pile.len == 0)
            | u32::from(pile.up > 0) << 8
            | u32::from(pile.len >= 2) << 16
            | u32::from(pile.top_face_down()) << 24
    }

    fn top_code(pile: &Pile) -> u8 {
        pile.top().map_or(NO_TOP, Card::code)
    }

    /// Records pile `p` (below [`MAX_PILES`]) as it is now.
    fn set(&mut self, p: usize, pile: &Pile) {
        self.masks = self.masks & !(0x0101_0101 << p) | Self::flags(pile) << p;
        if let Some(code) = self.top_codes.get_mut(p) {
            *code = Self::top_code(pile);
        }
    }

    /// The mask of byte `k` (see [`Self::masks`]).
    fn mask(&self, k: u32) -> u64 {
        u64::from(self.masks >> (8 * k) & 0xff)
    }
}

/// A pile of up to 52 cards (a spit pile, spit cards, gathered cards); the
/// top card is the last.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stack52 {
    cards: [Card; 52],
    len: u8,
}

impl fmt::Debug for Stack52 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.cards()).finish()
    }
}

impl Stack52 {
    pub const EMPTY: Stack52 = Stack52 {
        cards: [Card::JOKER; 52],
        len: 0,
    };

    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bottom first, the top card last.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len()]
    }

    pub fn top(&self) -> Option<Card> {
        self.cards().last().copied()
    }

    fn push(&mut self, c: Card) {
        if self.len() < 52 {
            self.cards[self.len()] = c;
            self.len += 1;
        }
    }

    fn pop(&mut self) -> Option<Card> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.cards[self.len()])
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    pub(super) fn slots_mut(&mut self) -> &mut [Card] {
        let n = self.len();
        &mut self.cards[..n]
    }
}

/// Where a deal or a game is (RT-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// A layout is dealt; the first spit comes at the countdown's end.
    Countdown,
    /// Both players play; a stalemate sets the spit timer.
    Playing,
    /// The lone spitter chooses a spit pile (SP-3.3, `lone_spit_pile = choose`).
    LoneChoice,
    /// The end of a deal: the slap window (or the pile choice) is open.
    Slap,
    /// Piles assigned; the new layouts are dealt when the timer fires.
    Regather,
    Over,
}

impl Phase {
    pub const ALL: [Phase; 6] = [
        Phase::Countdown,
        Phase::Playing,
        Phase::LoneChoice,
        Phase::Slap,
        Phase::Regather,
        Phase::Over,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Countdown => "countdown",
            Phase::Playing => "playing",
            Phase::LoneChoice => "lone_choice",
            Phase::Slap => "slap",
            Phase::Regather => "regather",
            Phase::Over => "over",
        }
    }

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

/// Why a deal ended (SP-4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DealEnd {
    /// (a) This seat emptied all its stock-pile positions.
    Emptied(u8),
    /// (b) A stalemate with no spit cards left.
    Stalemate,
}

/// How the game (or match) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A player has no cards at all (SP-5.1).
    OutOfCards,
    /// In single-pile mode the short player emptied their layout (SP-6.3).
    SinglePileShortOut,
    /// Guard: `max_deals` layouts were dealt (RT-12); undecided.
    MaxDeals,
    /// Guard: `max_virtual_ms` was reached (RT-12); undecided.
    TimeLimit,
}

/// Ending categories, in report order.
pub const ENDINGS: [&str; 4] = [
    "out_of_cards",
    "single_pile_short_out",
    "max_deals",
    "time_limit",
];

/// The endings of the termination guards (RT-12: `max_deals`,
/// `max_virtual_ms`): a limit stopped the game, undecided.
pub const GUARD_ENDINGS: [&str; 2] = ["max_deals", "time_limit"];

impl Ending {
    pub fn name(self) -> &'static str {
        ENDINGS[self as usize]
    }
}

/// The layout, pile by pile, of `cards` (SP-1.2, SP-7.1): the first
/// `min(n, piles (piles+1)/2)` cards are dealt into piles of target sizes
/// 1, 2, …, `piles` from left to right (a short count fills them in order,
/// so 12 cards make 1, 2, 3, 4, 2); the rest are the spit cards, the first
/// of them on top. Returns the pile sizes.
pub fn layout_sizes(n: usize, piles: u8) -> [usize; MAX_PILES] {
    let mut sizes = [0; MAX_PILES];
    let mut left = n;
    for (i, s) in sizes
        .iter_mut()
        .enumerate()
        .take(usize::from(piles).min(MAX_PILES))
    {
        *s = left.min(i + 1);
        left -= *s;
    }
    sizes
}

/// Every card of a Spit state by place, raw: nothing in it says who may
/// see what. Leak tests take a state's cards with
/// [`SpitState::cards_by_place`], rearrange the ones the rules hide from a
/// seat (decided in the test, not by the view code) and put them back with
/// [`SpitState::with_cards`]. Not a stable interface.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpitCards {
    /// Per seat, every stock-pile position ([`MAX_PILES`]), bottom first.
    pub piles: [[Vec<Card>; MAX_PILES]; 2],
    /// Per seat and position: how many cards at the top of the pile lie
    /// face up (the others are face down).
    pub face_up: [[usize; MAX_PILES]; 2],
    /// Per seat, its spit cards, the next to be turned up last.
    pub spit: [Vec<Card>; 2],
    /// The spit piles L and R, bottom first.
    pub centre: [Vec<Card>; 2],
    /// Per seat, the cards gathered between deals (SP-4.3), in order.
    pub gathered: [Vec<Card>; 2],
}

/// One game of Spit (or a match of them) in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct SpitState {
    pub(super) cfg: SpitConfig,
    pub(super) seed: u64,
    pub(super) unrecordable: bool,
    pub(super) piles: [[Pile; MAX_PILES]; 2],
    /// Face-down spit cards (top last).
    pub(super) spit: [Stack52; 2],
    /// The spit piles, L then R (top last); empty when not started this deal.
    pub(super) centre: [Stack52; 2],
    /// Cards a player holds between deals (assigned pile, stock, spit cards).
    pub(super) gathered: [Stack52; 2],
    pub(super) phase: Phase,
    pub(super) now: Millis,
    /// The phase's engine timer: countdown end, spit, window close, regather.
    pub(super) timer: Option<Millis>,
    /// Single-pile mode this deal: the short seat S (SP-6).
    pub(super) short: Option<u8>,
    /// The lone spitter's pile this deal, once chosen (SP-3.3).
    pub(super) lone_pile: Option<u8>,
    pub(super) lone_seat: u8,
    /// `spit` declarations (agreed mode, SP-3.5).
    pub(super) declared: [bool; 2],
    /// The side each seat named in the slap window.
    pub(super) claims: [Option<u8>; 2],
    /// The side each seat receives (fixed by the first claim).
    pub(super) received: [Option<u8>; 2],
    /// Who chooses without slapping, and whose default applies at the close.
    pub(super) chooser: u8,
    pub(super) deal_end: Option<DealEnd>,
    pub(super) wins: [u8; 2],
    /// Index of the game of the match being played.
    pub(super) game: u16,
    /// Layouts dealt so far (the whole match).
    pub(super) deals: u32,
    pub(super) winner: Option<u8>,
    pub(super) ending: Option<Ending>,
    pub(super) history: Vec<u16>,
    /// Each seat's cards as the deal in play dealt them into its layout and
    /// spit cards, in dealing order (what records keep of a deal).
    pub(super) dealt: [Stack52; 2],
    /// Derived after every change: each seat's legal actions and the
    /// productive ones among them, as bitsets over action ids.
    pub(super) legal: [u128; 2],
    pub(super) productive: [u128; 2],
    /// Derived with them: each seat's piles in play, summarised.
    pub(super) summary: [PileSummary; 2],
}

impl SpitState {
    // -----------------------------------------------------------------
    // Construction
    // -----------------------------------------------------------------

    pub(super) fn empty(cfg: SpitConfig, seed: u64) -> SpitState {
        SpitState {
            cfg,
            seed,
            unrecordable: false,
            piles: [[Pile::EMPTY; MAX_PILES]; 2],
            spit: [Stack52::EMPTY; 2],
            centre: [Stack52::EMPTY; 2],
            gathered: [Stack52::EMPTY; 2],
            phase: Phase::Countdown,
            now: 0,
            timer: None,
            short: None,
            lone_pile: None,
            lone_seat: 0,
            declared: [false; 2],
            claims: [None; 2],
            received: [None; 2],
            chooser: 0,
            deal_end: None,
            wins: [0; 2],
            game: 0,
            deals: 0,
            winner: None,
            ending: None,
            // A game commits some 600 actions.
            history: Vec::with_capacity(1024),
            dealt: [Stack52::EMPTY; 2],
            legal: [0; 2],
            productive: [0; 2],
            summary: [PileSummary::default(); 2],
        }
    }

    /// A new game (match) dealt from `seed`: the first game's deck.
    pub(super) fn new_game(cfg: SpitConfig, seed: u64) -> SpitState {
        let mut s = SpitState::empty(cfg, seed);
        s.deal_game();
        s.refresh();
        s
    }

    /// Deals game `self.game` of the match: a shuffled deck, 26 cards each
    /// (SP-1.1), laid out in deck order, and the countdown.
    fn deal_game(&mut self) {
        let deck = DeckSpec::standard().shuffled(derive_seed(
            derive_seed(self.seed, STREAM_GAME),
            u64::from(self.game),
        ));
        let (a, b) = deck.split_at(26);
        self.lay_out(0, a);
        self.lay_out(1, b);
        self.start_deal();
    }

    /// A test or analysis state whose layouts are dealt, in the given order
    /// and without shuffling, from each seat's cards (SP-1.2); the countdown
    /// is running.
    pub(super) fn from_cards(cfg: SpitConfig, cards: [&[Card]; 2]) -> Result<SpitState> {
        check_full_deck(cards.iter().flat_map(|c| c.iter().copied()))?;
        let mut s = SpitState::empty(cfg, 0);
        s.unrecordable = true;
        s.lay_out(0, cards[0]);
        s.lay_out(1, cards[1]);
        s.start_deal();
        s.refresh();
        Ok(s)
    }

    /// A test state in the middle of a deal: each seat's piles (bottom
    /// first: the top card face up, the others face down), spit cards (top
    /// first) and the spit piles (bottom first; an empty one is not started,
    /// and exactly one started pile means single-pile mode). Play is on at
    /// time 0. All 52 cards must appear once.
    pub(super) fn from_layout(cfg: SpitConfig, layout: &Layout) -> Result<SpitState> {
        let all = layout
            .piles
            .iter()
            .flatten()
            .flatten()
            .chain(layout.spit_cards.iter().flatten())
            .chain(layout.centre.iter().flatten())
            .copied();
        check_full_deck(all)?;
        let mut s = SpitState::empty(cfg, 0);
        s.unrecordable = true;
        for seat in 0..2 {
            if layout.piles[seat].len() > usize::from(cfg.stock_piles) {
                return Err(CoreError::hand(format!(
                    "seat {seat} has {} stock piles, at most {} (SP-7.1)",
                    layout.piles[seat].len(),
                    cfg.stock_piles
                )));
            }
            for (i, p) in layout.piles[seat].iter().enumerate() {
                if p.len() > PILE_CAP {
                    return Err(CoreError::hand(format!(
                        "seat {seat} pile {} has {} cards, at most {PILE_CAP}",
                        i + 1,
                        p.len()
                    )));
                }
                let pile = &mut s.piles[seat][i];
                for &c in p {
                    pile.push_down(c);
                }
                pile.flip();
            }
            for &c in layout.spit_cards[seat].iter().rev() {
                s.spit[seat].push(c);
            }
            for &c in &layout.centre[seat] {
                s.centre[seat].push(c);
            }
        }
        s.short = match (s.centre[0].is_empty(), s.centre[1].is_empty()) {
            (false, false) => None,
            (true, false) => Some(0),
            (false, true) => Some(1),
            (true, true) => {
                return Err(CoreError::hand(
                    "no spit pile is started: give at least one (SP-1.3)",
                ))
            }
        };
        if let Some(short) = s.short {
            if !s.spit[usize::from(short)].is_empty() {
                return Err(CoreError::hand(format!(
                    "single-pile mode: the short seat {short} cannot hold spit cards (SP-6.1)"
                )));
            }
        }
        s.deals = 1;
        s.phase = Phase::Playing;
        s.refresh();
        Ok(s)
    }

    /// Every card by place (see [`SpitCards`]).
    #[doc(hidden)]
    pub fn cards_by_place(&self) -> SpitCards {
        let per_seat = |f: &dyn Fn(usize) -> Vec<Card>| [f(0), f(1)];
        SpitCards {
            piles: [0, 1].map(|s| self.piles[s].map(|p| p.cards().to_vec())),
            face_up: [0, 1].map(|s| self.piles[s].map(|p| usize::from(p.up))),
            spit: per_seat(&|s| self.spit[s].cards().to_vec()),
            centre: per_seat(&|s| self.centre[s].cards().to_vec()),
            gathered: per_seat(&|s| self.gathered[s].cards().to_vec()),
        }
    }

    /// This state with its cards rearranged: `cards` must have the shape of
    /// [`Self::cards_by_place`] (every pile, face-up count and stack of the
    /// same size) and hold the 52 cards once each. Phase, clock, timers and
    /// history stay; the legal actions are derived again from the new cards
    /// (and the spit timer with them, RT-8). No record can deal the result.
    #[doc(hidden)]
    pub fn with_cards(&self, cards: &SpitCards) -> Result<SpitState> {
        let now = self.cards_by_place();
        let same_shape = now.face_up == cards.face_up
            && (0..2).all(|s| {
                (0..MAX_PILES).all(|p| now.piles[s][p].len() == cards.piles[s][p].len())
                    && now.spit[s].len() == cards.spit[s].len()
                    && now.centre[s].len() == cards.centre[s].len()
                    && now.gathered[s].len() == cards.gathered[s].len()
            });
        if !same_shape {
            return Err(CoreError::hand(
                "with_cards rearranges cards only: every pile keeps its size and face-up count",
            ));
        }
        check_full_deck(
            [&cards.spit, &cards.centre, &cards.gathered]
                .into_iter()
                .flatten()
                .chain(cards.piles.iter().flatten())
                .flatten()
                .copied(),
        )?;
        let mut s = self.clone();
        s.unrecordable = true;
        for seat in 0..2 {
            for (p, pile) in s.piles[seat].iter_mut().enumerate() {
                let given = &cards.piles[seat][p];
                let down = given.len() - cards.face_up[seat][p];
                *pile = Pile::EMPTY;
                for &c in &given[..down] {
                    pile.push_down(c);
                }
                for &c in &given[down..] {
                    pile.push_up(c);
                }
            }
            for (stack, given) in [
                (&mut s.spit[seat], &cards.spit[seat]),
                (&mut s.centre[seat], &cards.centre[seat]),
                (&mut s.gathered[seat], &cards.gathered[seat]),
            ] {
                stack.clear();
                for &c in given {
                    stack.push(c);
                }
            }
        }
        s.refresh();
        Ok(s)
    }

    /// Deals `cards` into `seat`'s layout and spit cards (SP-1.2).
    fn lay_out(&mut self, seat: usize, cards: &[Card]) {
        self.dealt[seat].clear();
        for &c in cards {
            self.dealt[seat].push(c);
        }
        let sizes = layout_sizes(cards.len(), self.cfg.stock_piles);
        let mut k = 0;
        for (i, &n) in sizes.iter().enumerate() {
            let pile = &mut self.piles[seat][i];
            *pile = Pile::EMPTY;
            for &c in &cards[k..k + n] {
                pile.push_down(c);
            }
            pile.flip();
            k += n;
        }
        self.spit[seat].clear();
        for &c in cards[k..].iter().rev() {
            self.spit[seat].push(c);
        }
        if self.cfg.merge_equal_at_setup {
            self.merge_equal(seat);
        }
    }

    /// SP-7.4 `merge_equal_at_setup`: while two face-up tops share a rank,
    /// the rightmost is stacked onto the leftmost and the card uncovered is
    /// turned up.
    fn merge_equal(&mut self, seat: usize) {
        let n = usize::from(self.cfg.stock_piles);
        'again: loop {
            for i in 0..n {
                for j in i + 1..n {
                    let (Some(a), Some(b)) = (self.piles[seat][i].top(), self.piles[seat][j].top())
                    else {
                        continue;
                    };
                    if a.rank() == b.rank() && self.piles[seat][i].len() < PILE_CAP {
                        self.piles[seat][j].pop_up();
                        self.piles[seat][i].push_up(b);
                        self.piles[seat][j].flip();
                        continue 'again;
                    }
                }
            }
            break;
        }
    }

    /// A new layout is on the table: the countdown runs (SP-1.3, RT-7).
    fn start_deal(&mut self) {
        self.deals += 1;
        self.phase = Phase::Countdown;
        self.timer = Some(self.now + Millis::from(self.cfg.start_countdown_ms));
        self.short = None;
        self.lone_pile = None;
        self.declared = [false; 2];
        self.claims = [None; 2];
        self.received = [None; 2];
        self.deal_end = None;
    }

    // -----------------------------------------------------------------
    // Accessors (public information only, unless said otherwise)
    // -----------------------------------------------------------------

    pub fn config(&self) -> &SpitConfig {
        &self.cfg
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The virtual time of the last commit or timer.
    pub fn now(&self) -> Millis {
        self.now
    }

    pub fn pile(&self, seat: u8, pile: usize) -> &Pile {
        &self.piles[usize::from(seat) & 1][pile.min(MAX_PILES - 1)]
    }

    /// A spit pile (side 0 = L, 1 = R); empty when not started this deal.
    pub fn centre(&self, side: u8) -> &Stack52 {
        &self.centre[usize::from(side) & 1]
    }

    /// Whether the spit pile of `side` is in play this deal.
    pub fn centre_active(&self, side: u8) -> bool {
        !self.centre[usize::from(side) & 1].is_empty()
    }

    pub fn spit_count(&self, seat: u8) -> usize {
        self.spit[usize::from(seat) & 1].len()
    }

    pub fn gathered_count(&self, seat: u8) -> usize {
        self.gathered[usize::from(seat) & 1].len()
    }

    /// Cards in `seat`'s stock piles.
    pub fn stock_count(&self, seat: u8) -> usize {
        self.piles[usize::from(seat) & 1]
            .iter()
            .map(Pile::len)
            .sum()
    }

    /// Every card `seat` owns (stock piles, spit cards, gathered cards).
    pub fn cards_held(&self, seat: u8) -> usize {
        self.stock_count(seat) + self.spit_count(seat) + self.gathered_count(seat)
    }

    /// The short seat S in single-pile mode (SP-6.1).
    pub fn short_seat(&self) -> Option<u8> {
        self.short
    }

    pub fn lone_pile(&self) -> Option<u8> {
        self.lone_pile
    }

    pub fn declared(&self, seat: u8) -> bool {
        self.declared[usize::from(seat) & 1]
    }

    /// The side each seat receives at the end of the deal, once fixed.
    pub fn received(&self, seat: u8) -> Option<u8> {
        self.received[usize::from(seat) & 1]
    }

    pub fn claim(&self, seat: u8) -> Option<u8> {
        self.claims[usize::from(seat) & 1]
    }

    pub fn chooser(&self) -> u8 {
        self.chooser
    }

    pub fn deal_end(&self) -> Option<DealEnd> {
        self.deal_end
    }

    /// Games won by each seat in the match.
    pub fn wins(&self) -> [u8; 2] {
        self.wins
    }

    /// Index of the game of the match in progress.
    pub fn game_index(&self) -> u16 {
        self.game
    }

    pub fn winner(&self) -> Option<u8> {
        self.winner
    }

    pub fn ending_kind(&self) -> Option<Ending> {
        self.ending
    }

    /// The phase timer (without the `max_virtual_ms` guard).
    pub fn phase_timer(&self) -> Option<Millis> {
        self.timer
    }

    // -----------------------------------------------------------------
    // Rules of a play
    // -----------------------------------------------------------------

    /// Whether `card` may go onto a spit pile whose top is `top` (SP-2.1,
    /// CM-3, SP-7.3, SP-7.4).
    pub fn fits(&self, card: Card, top: Card) -> bool {
        self.fitting_codes(Some(top)) >> card.code() & 1 == 1
    }

    /// The codes of the cards that may go onto a spit pile whose top is
    /// `top`, as a bitset (the rules of [`Self::fits`]); none on no top.
    fn fitting_codes(&self, top: Option<Card>) -> u64 {
        let rules =
            usize::from(self.cfg.equal_rank_play) | usize::from(self.cfg.alternate_colours) << 1;
        top.map_or(0, |t| FITTING[rules][usize::from(t.code())])
    }

    /// Whether `card` may go onto `top` by rank alone (SP-2.1, SP-7.4
    /// `equal_rank_play`), whatever its colour (SP-7.3).
    pub(super) fn fits_by_rank(&self, card: Card, top: Card) -> bool {
        FITTING[usize::from(self.cfg.equal_rank_play)][usize::from(top.code())] >> card.code() & 1
            == 1
    }

    pub(super) fn piles_n(&self) -> usize {
        usize::from(self.cfg.stock_piles)
    }

    /// Every legal action of seat `s` now as a bitset over action ids, and
    /// the productive ones among them (SP-3.1): a legal play, a flip, a move
    /// to a space that uncovers a card, a stack that uncovers a face-down card.
    /// `fit` holds [`Self::fitting_codes`] of both spit piles.
    fn compute_legal(&self, s: usize, fit: [u64; 2]) -> (u128, u128) {
        let bit = |a: u16| 1u128 << a;
        let (mut legal, mut productive) = (0u128, 0u128);
        match self.phase {
            Phase::Playing => {
                let (own, own_productive) = self.pile_actions(s);
                let plays = self.plays(s, fit);
                legal = own | plays;
                productive = own_productive | plays;
                if self.cfg.stalemate == StalemateMode::Agreed && !self.declared[s] {
                    legal |= bit(action::SPIT);
                }
            }
            Phase::LoneChoice if s == usize::from(self.lone_seat) => {
                legal |= bit(action::LONE_BASE) | bit(action::LONE_BASE + 1);
            }
            Phase::Slap => {
                let may = if self.cfg.slap {
                    self.claims[s].is_none()
                } else {
                    s == usize::from(self.chooser)
                };
                if may {
                    legal |= bit(action::SLAP_BASE) | bit(action::SLAP_BASE + 1);
                }
            }
            _ => {}
        }
        (legal, productive)
    }

    /// Seat `s`'s plays onto the spit piles in play (all productive): bit
    /// `PLAY_BASE + 2 * pile + side`.
    fn plays(&self, s: usize, fit: [u64; 2]) -> u128 {
        let mut plays = 0u64;
        for (p, &code) in self.summary[s].top_codes.iter().enumerate() {
            // A code of NO_TOP shifts every fitting set to nothing.
            let code = u32::from(code);
            let fits = |f: u64| f.checked_shr(code).unwrap_or(0) & 1;
            plays |= (fits(fit[0]) | fits(fit[1]) << 1) << (2 * p);
        }
        u128::from(plays) << action::PLAY_BASE
    }

    /// Seat `s`'s actions on its own piles in play (flips, moves to a
    /// space, stacks), legal and productive: they depend on its piles only.
    fn pile_actions(&self, s: usize) -> (u128, u128) {
        let piles = &self.piles[s][..self.piles_n()];
        let sum = &self.summary[s];
        let (spaces, tops, deep, down) = (sum.mask(0), sum.mask(1), sum.mask(2), sum.mask(3));
        // Bits FLIP_BASE + p, and (MOVE_BASE or STACK_BASE) + 5p + t: a
        // face-up top p may move to every space t (the 5-bit blocks of the
        // product cannot carry into each other).
        let flips = if self.cfg.auto_flip { 0 } else { down };
        let moves = spaces * SPREAD[tops as usize];
        let deep_moves = spaces * SPREAD[(tops & deep) as usize];
        let (mut stacks, mut uncovering_stacks) = (0u64, 0u64);
        if self.cfg.stack_equal_ranks {
            for (p, pile) in piles.iter().enumerate() {
                let Some(c) = pile.top() else { continue };
                let uncovers = pile.up == 1 && pile.len() >= 2;
                for (t, other) in piles.iter().enumerate() {
                    if t != p
                        && other.len() < PILE_CAP
                        && other.top().is_some_and(|y| y.rank() == c.rank())
                    {
                        stacks |= 1 << (MAX_PILES * p + t);
                        if uncovers {
                            uncovering_stacks |= 1 << (MAX_PILES * p + t);
                        }
                    }
                }
            }
        }
        let at = |bits: u64, base: u16| u128::from(bits) << base;
        let flips = at(flips, action::FLIP_BASE);
        (
            flips | at(moves, action::MOVE_BASE) | at(stacks, action::STACK_BASE),
            flips | at(deep_moves, action::MOVE_BASE) | at(uncovering_stacks, action::STACK_BASE),
        )
    }

    /// `seat`'s legal actions and the productive ones among them, as
    /// bitsets over action ids (none for a seat that does not exist).
    pub fn action_bits(&self, seat: u8) -> (u128, u128) {
        let s = usize::from(seat);
        (
            self.legal.get(s).copied().unwrap_or(0),
            self.productive.get(s).copied().unwrap_or(0),
        )
    }

    /// Whether `action` is a productive move for `seat` now (SP-3.1).
    pub fn is_productive(&self, seat: u8, action: u16) -> bool {
        seat < 2 && action < action::COUNT && self.productive[usize::from(seat)] >> action & 1 == 1
    }

    /// Whether `seat` has any productive move now (SP-3.1).
    pub fn has_productive_move(&self, seat: u8) -> bool {
        seat < 2 && self.productive[usize::from(seat)] != 0
    }

    /// Whether neither player has a productive move (SP-3.1).
    pub fn is_stalemate(&self) -> bool {
        self.phase == Phase::Playing && self.productive == [0, 0]
    }

    /// After every change: the legal and productive actions are recomputed
    /// and, in the playing phase, the spit timer is set when a stalemate
    /// begins, kept while it lasts and cancelled when it ends (RT-8).
    pub(super) fn refresh(&mut self) {
        let n = self.piles_n();
        self.summary = [
            PileSummary::of(&self.piles[0][..n]),
            PileSummary::of(&self.piles[1][..n]),
        ];
        let fit = self.fits_now();
        for s in 0..2 {
            (self.legal[s], self.productive[s]) = self.compute_legal(s, fit);
        }
        self.update_spit_timer();
    }

    /// [`Self::refresh`] after seat `s` moved a card of its own in play and
    /// play goes on: only its piles `touched` changed, the other seat's pile
    /// actions cannot have changed, and its plays only when `played` put a
    /// card on a spit pile (the hot path of a batch run).
    fn refresh_after_pile_action(&mut self, s: usize, touched: [usize; 2], played: bool) {
        let [a, b] = touched;
        self.summary[s].set(a, &self.piles[s][a]);
        if b != a {
            self.summary[s].set(b, &self.piles[s][b]);
        }
        debug_assert_eq!(
            self.summary[s],
            PileSummary::of(&self.piles[s][..self.piles_n()]),
            "the piles' summary follows them"
        );
        let fit = self.fits_now();
        let o = 1 - s;
        let (own, own_productive) = self.pile_actions(s);
        let plays = self.plays(s, fit);
        let spit = self.legal[s] & 1 << action::SPIT;
        self.legal[s] = own | plays | spit;
        self.productive[s] = own_productive | plays;
        // The other seat's plays change only with a spit pile's top.
        if played {
            let plays_before = self.legal[o] & Self::PLAY_BITS;
            let plays = self.plays(o, fit);
            self.legal[o] = self.legal[o] & !plays_before | plays;
            self.productive[o] = self.productive[o] & !plays_before | plays;
        }
        debug_assert_eq!(
            (self.legal, self.productive),
            {
                let (l0, p0) = self.compute_legal(0, fit);
                let (l1, p1) = self.compute_legal(1, fit);
                ([l0, l1], [p0, p1])
            },
            "the incremental refresh agrees with the full one"
        );
        self.update_spit_timer();
    }

    /// Every play id's bit.
    const PLAY_BITS: u128 = ((1 << (2 * MAX_PILES)) - 1) << action::PLAY_BASE;

    fn fits_now(&self) -> [u64; 2] {
        [
            self.fitting_codes(self.centre[0].top()),
            self.fitting_codes(self.centre[1].top()),
        ]
    }

    /// In play, the spit timer is set when a stalemate begins, kept while
    /// it lasts and cancelled when it ends (RT-8).
    fn update_spit_timer(&mut self) {
        if self.phase != Phase::Playing {
            return;
        }
        if self.productive != [0, 0] {
            self.timer = None;
        } else if self.timer.is_none() {
            self.timer = Some(self.now + Millis::from(self.cfg.spit_delay_ms));
        }
    }

    // -----------------------------------------------------------------
    // Applying actions and timers
    // -----------------------------------------------------------------

    /// After a card left `seat`'s pile `p`: auto-flip, the deal-end trigger
    /// (a) (SP-4.1), and the stalemate check.
    fn after_move(&mut self, s: usize, p: usize) {
        if self.cfg.auto_flip {
            self.piles[s][p].flip();
        }
        if self.piles[s].iter().all(Pile::is_empty) {
            self.end_deal(DealEnd::Emptied(s as u8));
        }
    }

    /// SP-1.3: each player with spit cards turns the top one up onto their
    /// own side; a player without starts no pile (single-pile mode, SP-6).
    fn first_spit(&mut self) {
        for s in 0..2 {
            if let Some(c) = self.spit[s].pop() {
                self.centre[s].push(c);
            }
        }
        self.short = match (self.centre[0].is_empty(), self.centre[1].is_empty()) {
            (true, false) => Some(0),
            (false, true) => Some(1),
            _ => None,
        };
        self.phase = Phase::Playing;
        self.timer = None;
    }

    /// A stalemate (or both players' `spit`): SP-3.2 … SP-3.4, SP-6.2.
    fn stalemate_spit(&mut self) {
        self.declared = [false; 2];
        let has = [!self.spit[0].is_empty(), !self.spit[1].is_empty()];
        if let Some(short) = self.short {
            let lg = usize::from(1 - short);
            if !has[lg] {
                self.end_deal(DealEnd::Stalemate);
                return;
            }
            if let Some(c) = self.spit[lg].pop() {
                self.centre[lg].push(c);
            }
        } else {
            match has {
                [true, true] => {
                    for s in 0..2 {
                        if let Some(c) = self.spit[s].pop() {
                            self.centre[s].push(c);
                        }
                    }
                }
                [false, false] => {
                    self.end_deal(DealEnd::Stalemate);
                    return;
                }
                _ => {
                    let lone = u8::from(has[1]);
                    let side = match (self.cfg.lone_spit_pile, self.lone_pile) {
                        (_, Some(side)) => side,
                        (LoneSpitPile::Own, None) => lone,
                        (LoneSpitPile::Choose, None) => {
                            self.phase = Phase::LoneChoice;
                            self.lone_seat = lone;
                            self.timer = Some(self.now + Millis::from(self.cfg.slap_window_ms));
                            return;
                        }
                    };
                    self.lone_seat = lone;
                    self.lone_pile = Some(side);
                    if let Some(c) = self.spit[usize::from(lone)].pop() {
                        self.centre[usize::from(side)].push(c);
                    }
                }
            }
        }
        self.phase = Phase::Playing;
        self.timer = None;
    }

    /// The lone spitter's spit onto `side`, which stays their pile this deal
    /// (SP-3.3).
    fn lone_spit(&mut self, side: u8) {
        let side = side & 1;
        self.lone_pile = Some(side);
        if let Some(c) = self.spit[usize::from(self.lone_seat)].pop() {
            self.centre[usize::from(side)].push(c);
        }
        self.phase = Phase::Playing;
        self.timer = None;
    }

    /// A deal ends (SP-4.1, SP-6.3).
    fn end_deal(&mut self, cause: DealEnd) {
        self.deal_end = Some(cause);
        self.declared = [false; 2];
        if let Some(short) = self.short {
            self.end_single(short, cause);
            return;
        }
        self.chooser = match cause {
            DealEnd::Emptied(s) => s,
            DealEnd::Stalemate => {
                let (a, b) = (self.stock_count(0), self.stock_count(1));
                match a.cmp(&b) {
                    std::cmp::Ordering::Less => 0,
                    std::cmp::Ordering::Greater => 1,
                    std::cmp::Ordering::Equal => {
                        let coin =
                            derive_seed(derive_seed(self.seed, STREAM_COIN), u64::from(self.deals));
                        (coin & 1) as u8
                    }
                }
            }
        };
        self.phase = Phase::Slap;
        self.claims = [None; 2];
        self.received = [None; 2];
        self.timer = Some(self.now + Millis::from(self.cfg.slap_window_ms));
    }

    /// The smaller spit pile (the chooser's own side on a tie).
    fn smaller_side(&self, chooser: u8) -> u8 {
        match self.centre[0].len().cmp(&self.centre[1].len()) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => chooser,
        }
    }

    /// A claim in the slap window (SP-4.2) or the chooser's choice (SP-4.4).
    fn slap(&mut self, s: usize, side: u8) {
        let side = side & 1;
        self.claims[s] = Some(side);
        if self.received[s].is_none() {
            self.received[s] = Some(side);
            self.received[1 - s] = Some(1 - side);
        }
        if !self.cfg.slap || self.claims.iter().all(Option::is_some) {
            self.assign_piles();
        }
    }

    /// The window closes: missing claims are assigned. With no claim at all
    /// the chooser takes the smaller pile.
    fn close_window(&mut self) {
        if self.received[0].is_none() {
            let c = usize::from(self.chooser);
            let side = self.smaller_side(self.chooser);
            self.received[c] = Some(side);
            self.received[1 - c] = Some(1 - side);
        }
        self.assign_piles();
    }

    /// SP-4.3: each player gathers the pile they received, their stock-pile
    /// cards and their spit cards; the new layouts follow after `regather_ms`.
    fn assign_piles(&mut self) {
        for s in 0..2 {
            let side = usize::from(self.received[s].unwrap_or(s as u8));
            let pile = std::mem::replace(&mut self.centre[side], Stack52::EMPTY);
            self.gather(s, pile.cards());
            self.gather_own(s);
        }
        self.centre = [Stack52::EMPTY; 2];
        self.after_gather();
    }

    /// Moves `seat`'s stock-pile and spit cards into its gathered cards.
    fn gather_own(&mut self, s: usize) {
        let mut buf = [Card::JOKER; 52];
        let mut n = 0;
        for p in &mut self.piles[s] {
            for &c in p.cards() {
                buf[n] = c;
                n += 1;
            }
            *p = Pile::EMPTY;
        }
        while let Some(c) = self.spit[s].pop() {
            buf[n] = c;
            n += 1;
        }
        self.gather(s, &buf[..n]);
    }

    fn gather(&mut self, s: usize, cards: &[Card]) {
        for &c in cards {
            self.gathered[s].push(c);
        }
    }

    /// SP-6.3: the end of a single-pile deal.
    fn end_single(&mut self, short: u8, cause: DealEnd) {
        let (s, lg) = (usize::from(short), usize::from(1 - short));
        match cause {
            DealEnd::Emptied(e) if e == short => {
                // S has no cards left and wins (SP-6.3, SP-5.1).
                self.finish_game(short, Ending::SinglePileShortOut);
                return;
            }
            DealEnd::Emptied(_) => {
                // Lg takes nothing; S takes the pile and their stock cards;
                // Lg keeps their spit cards.
                let pile = std::mem::replace(&mut self.centre[lg], Stack52::EMPTY);
                self.gather(s, pile.cards());
                self.gather_own(s);
                self.gather_own(lg);
                self.received = [None; 2];
                self.received[s] = Some(lg as u8);
            }
            DealEnd::Stalemate => {
                // Engine decision: more stock cards take the pile, S on a tie.
                let taker = if self.stock_count(1 - short) > self.stock_count(short) {
                    lg
                } else {
                    s
                };
                let pile = std::mem::replace(&mut self.centre[lg], Stack52::EMPTY);
                self.gather(taker, pile.cards());
                self.gather_own(s);
                self.gather_own(lg);
                self.received = [None; 2];
                self.received[taker] = Some(lg as u8);
            }
        }
        self.centre = [Stack52::EMPTY; 2];
        self.after_gather();
    }

    /// After the cards are gathered: a player with none wins (SP-5.1);
    /// otherwise the regather timer runs.
    fn after_gather(&mut self) {
        for s in 0..2u8 {
            if self.gathered[usize::from(s)].is_empty() {
                self.finish_game(s, Ending::OutOfCards);
                return;
            }
        }
        self.phase = Phase::Regather;
        self.timer = Some(self.now + Millis::from(self.cfg.regather_ms));
    }

    /// SP-4.3: shuffle what each player gathered (seeded) and deal new layouts.
    fn regather(&mut self) {
        if self.deals >= self.cfg.session.max_deals {
            self.finish(None, Ending::MaxDeals);
            return;
        }
        for s in 0..2 {
            let mut g = std::mem::replace(&mut self.gathered[s], Stack52::EMPTY);
            let seed = derive_seed(
                derive_seed(self.seed, STREAM_REGATHER),
                u64::from(self.deals) * 2 + s as u64,
            );
            GameRng::new(seed).shuffle(g.slots_mut());
            self.lay_out(s, g.cards());
        }
        self.start_deal();
    }

    /// Seat `w` won a game: the match goes on or ends (SP-5.3).
    fn finish_game(&mut self, w: u8, ending: Ending) {
        let wi = usize::from(w & 1);
        self.wins[wi] = self.wins[wi].saturating_add(1);
        if self.wins[wi] >= self.cfg.wins_needed() {
            self.finish(Some(w), ending);
            return;
        }
        if self.deals >= self.cfg.session.max_deals {
            self.finish(None, Ending::MaxDeals);
            return;
        }
        // The next game of the match: a fresh deck, 26 cards each.
        self.game = self.game.saturating_add(1);
        self.piles = [[Pile::EMPTY; MAX_PILES]; 2];
        self.spit = [Stack52::EMPTY; 2];
        self.centre = [Stack52::EMPTY; 2];
        self.gathered = [Stack52::EMPTY; 2];
        self.deal_game();
    }

    fn finish(&mut self, winner: Option<u8>, ending: Ending) {
        self.phase = Phase::Over;
        self.timer = None;
        self.winner = winner;
        self.ending = Some(ending);
    }

    /// +1 for the winner of the game (match), −1 for the loser; 0 and 0
    /// before the end and when a guard stopped it undecided.
    pub fn returns(&self) -> [i64; 2] {
        match self.winner {
            Some(0) => [1, -1],
            Some(_) => [-1, 1],
            None => [0, 0],
        }
    }

    // -----------------------------------------------------------------
    // Invariants
    // -----------------------------------------------------------------
}

/// [`SpitState::fitting_codes`] for every top card code (the joker, 52,
/// takes nothing), under each combination of `equal_rank_play` (bit 0) and
/// `alternate_colours` (bit 1): computed once, looked up after every play.
const FITTING: [[u64; 53]; 4] = {
    const ALL: u64 = (1 << 52) - 1;
    const RED: u64 = ((1 << 26) - 1) << 13; // diamonds and hearts
    let mut table = [[0u64; 53]; 4];
    let mut rules = 0;
    while rules < 4 {
        let mut code = 0;
        while code < 52 {
            let r = code % 13; // rank - 1
            let mut ranks = 1u64 << ((r + 1) % 13) | 1u64 << ((r + 12) % 13);
            if rules & 1 == 1 {
                ranks |= 1 << r;
            }
            let mut codes = ranks | ranks << 13 | ranks << 26 | ranks << 39;
            if rules & 2 == 2 {
                let red = code >= 13 && code < 39;
                codes &= if red { !RED } else { RED };
            }
            table[rules][code] = codes & ALL;
            code += 1;
        }
        rules += 1;
    }
    table
};

/// Exactly the 52 cards, each once.
fn check_full_deck(cards: impl Iterator<Item = Card>) -> Result<()> {
    let mut seen = [false; 52];
    let mut n = 0;
    for c in cards {
        let i = usize::from(c.code());
        if i >= 52 {
            return Err(CoreError::hand(format!(
                "{c} is not in a Spit deck (no jokers)"
            )));
        }
        if seen[i] {
            return Err(CoreError::hand(format!("{c} is given twice")));
        }
        seen[i] = true;
        n += 1;
    }
    if n != 52 {
        return Err(CoreError::hand(format!(
            "Spit is played with all 52 cards, {n} given (SP-1.1)"
        )));
    }
    Ok(())
}

/// `SPREAD[m]` has bit `MAX_PILES * p` for every bit `p` of the pile mask
/// `m`: multiplied by a mask of spaces, it gives every move from a pile in
/// `m` to a space in one step ([`SpitState::pile_actions`]).
const SPREAD: [u64; 1 << MAX_PILES] = {
    let mut table = [0u64; 1 << MAX_PILES];
    let mut m = 0;
    while m < 1 << MAX_PILES {
        let mut p = 0;
        while p < MAX_PILES {
            if m >> p & 1 == 1 {
                table[m] |= 1 << (MAX_PILES * p);
            }
            p += 1;
        }
        m += 1;
    }
    table
};

impl engine::State for SpitState {
    type View = SpitView;
    type SeatView<'a> = SpitSeatView<'a>;

    fn seat_view(&self, seat: u8) -> SpitSeatView<'_> {
        SpitSeatView::new(self, seat)
    }

    fn decision(&self) -> engine::Decision {
        if self.is_over() {
            return engine::Decision::Terminal;
        }
        let mask = u64::from(self.can_act(0)) | (u64::from(self.can_act(1)) << 1);
        if mask == 0 {
            engine::Decision::Waiting
        } else {
            engine::Decision::Simultaneous(mask)
        }
    }

    /// `seat`'s legal actions now, sorted.
    fn legal_actions(&self, seat: u8, out: &mut Vec<u16>) {
        out.clear();
        if seat >= 2 {
            return;
        }
        let mut bits = self.legal[usize::from(seat)];
        while bits != 0 {
            out.push(bits.trailing_zeros() as u16);
            bits &= bits - 1;
        }
    }

    /// Whether `action` is legal for `seat` now.
    fn is_legal(&self, seat: u8, action: u16) -> bool {
        seat < 2 && action < action::COUNT && self.legal[usize::from(seat)] >> action & 1 == 1
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Whether `seat` has a legal action now.
    fn can_act(&self, seat: u8) -> bool {
        seat < 2 && self.legal[usize::from(seat)] != 0
    }

    /// Commits `seat`'s action at `now` (RT-5): an id out of range is an
    /// error, a finished game `GameOver`, an action that is not legal now
    /// bounces and changes nothing.
    fn apply(&mut self, seat: u8, action: u16, now: Millis) -> Result<Applied> {
        let a = Action::decode(action)?;
        if seat >= 2 {
            return Err(CoreError::IllegalAction(format!(
                "Spit has seats 0 and 1, not {seat}"
            )));
        }
        if self.phase == Phase::Over {
            return Err(CoreError::GameOver);
        }
        let s = usize::from(seat);
        if !self.is_legal(seat, action) {
            return Ok(Applied::Bounced);
        }
        self.now = self.now.max(now);
        self.history.push(action);
        match a {
            Action::Play { pile, side } => {
                let p = usize::from(pile);
                if let Some(c) = self.piles[s][p].pop_up() {
                    self.centre[usize::from(side)].push(c);
                }
                self.after_move(s, p);
            }
            Action::Flip { pile } => {
                self.piles[s][usize::from(pile)].flip();
            }
            Action::Move { from, to } | Action::Stack { from, to } => {
                let f = usize::from(from);
                if let Some(c) = self.piles[s][f].pop_up() {
                    self.piles[s][usize::from(to)].push_up(c);
                }
                self.after_move(s, f);
            }
            Action::Spit => {
                self.declared[s] = true;
                if self.declared == [true, true] {
                    self.stalemate_spit();
                }
            }
            Action::Slap { side } => self.slap(s, side),
            Action::Lone { side } => self.lone_spit(side),
        }
        let touched = match a {
            Action::Play { pile, .. } | Action::Flip { pile } => Some([usize::from(pile); 2]),
            Action::Move { from, to } | Action::Stack { from, to } => {
                Some([usize::from(from), usize::from(to)])
            }
            _ => None,
        };
        match touched {
            Some(touched) if self.phase == Phase::Playing => {
                self.refresh_after_pile_action(s, touched, matches!(a, Action::Play { .. }));
            }
            _ => self.refresh(),
        }
        Ok(Applied::Done)
    }

    /// When the next engine event is due: the phase timer, or the
    /// `max_virtual_ms` guard (RT-7, RT-12).
    fn next_timer(&self) -> Option<Millis> {
        if self.phase == Phase::Over {
            return None;
        }
        let guard = self.cfg.session.max_virtual_ms;
        Some(self.timer.map_or(guard, |t| t.min(guard)))
    }

    /// Fires the engine event due at `now` (nothing if none is due).
    fn fire_timer(&mut self, now: Millis) {
        let Some(due) = self.next_timer() else {
            return;
        };
        if due > now {
            return;
        }
        self.now = self.now.max(now);
        if now >= self.cfg.session.max_virtual_ms {
            self.finish(None, Ending::TimeLimit);
        } else {
            self.timer = None;
            match self.phase {
                Phase::Countdown => self.first_spit(),
                Phase::Playing => self.stalemate_spit(),
                Phase::LoneChoice => self.lone_spit(self.lone_seat),
                Phase::Slap => self.close_window(),
                Phase::Regather => self.regather(),
                Phase::Over => {}
            }
        }
        self.refresh();
    }

    /// Everything `seat` may see.
    fn view(&self, seat: u8) -> SpitView {
        let n = usize::from(self.cfg.stock_piles);
        let piles = |s: usize| {
            self.piles[s][..n]
                .iter()
                .map(|p| PileView {
                    face_down: p.face_down() as u8,
                    face_up: p.face_up().to_vec(),
                })
                .collect()
        };
        let mut legal = Vec::new();
        self.legal_actions(seat, &mut legal);
        let over = self.is_over();
        SpitView {
            seat,
            now: self.now,
            phase: self.phase,
            piles: [piles(0), piles(1)],
            spit_cards: [self.spit[0].len() as u8, self.spit[1].len() as u8],
            gathered: [self.gathered[0].len() as u8, self.gathered[1].len() as u8],
            centre: [
                self.centre[0].cards().to_vec(),
                self.centre[1].cards().to_vec(),
            ],
            short_seat: self.short,
            lone_pile: self.lone_pile,
            declared: self.declared,
            claims: self.claims,
            received: self.received,
            chooser: self.chooser,
            deal_end: self.deal_end,
            next_timer: self.next_timer(),
            wins: self.wins,
            game: self.game,
            deals: self.deals,
            winner: self.winner,
            ending: self.ending(),
            returns: over.then(|| self.returns()),
            legal_actions: legal,
        }
    }

    /// A flat observation in `[0, 1]` of [`OBSERVATION_SIZE`] entries, from
    /// `seat`'s point of view (relative seat 0 is itself, relative side 0
    /// the spit pile it starts). In order:
    ///
    /// 1. per relative seat, per pile slot 1..=5, 20 entries: the face-up
    ///    top's rank one-hot (13, A first) and suit one-hot (4, C D H S),
    ///    face-down cards / 4 (capped), face-up cards / 4 (capped), 1 if empty;
    /// 2. per relative seat: spit cards / 26 (capped), gathered cards / 52;
    /// 3. per relative side, 19 entries: 1 if started, top rank one-hot (13),
    ///    top suit one-hot (4), cards / 52;
    /// 4. phase one-hot (countdown, playing, lone_choice, slap, regather, over);
    /// 5. per relative side: 1 if it is the lone spitter's pile;
    /// 6. per relative seat: 1 if it declared `spit`;
    /// 7. per relative seat, per relative side: 1 if it receives that pile;
    /// 8. per relative seat: games won / games needed;
    /// 9. 1 if single-pile mode.
    fn observation(&self, seat: u8) -> Vec<f32> {
        let me = usize::from(seat & 1);
        let rel = |k: usize| (me + k) % 2;
        let mut o = vec![0f32; OBSERVATION_SIZE];
        let mut at = 0;
        for k in 0..2 {
            for p in &self.piles[rel(k)] {
                if let Some(c) = p.top() {
                    o[at + usize::from(c.rank()) - 1] = 1.0;
                    if let Some(su) = c.suit() {
                        o[at + 13 + usize::from(su.index())] = 1.0;
                    }
                }
                o[at + 17] = (p.face_down() as f32 / 4.0).min(1.0);
                o[at + 18] = (f32::from(p.up) / 4.0).min(1.0);
                o[at + 19] = f32::from(u8::from(p.is_empty()));
                at += OBS_PILE;
            }
        }
        for k in 0..2 {
            o[at] = (self.spit[rel(k)].len() as f32 / 26.0).min(1.0);
            o[at + 1] = self.gathered[rel(k)].len() as f32 / 52.0;
            at += 2;
        }
        for k in 0..2 {
            let c = &self.centre[rel(k)];
            if let Some(t) = c.top() {
                o[at] = 1.0;
                o[at + usize::from(t.rank())] = 1.0;
                if let Some(su) = t.suit() {
                    o[at + 14 + usize::from(su.index())] = 1.0;
                }
                o[at + 18] = c.len() as f32 / 52.0;
            }
            at += OBS_CENTRE;
        }
        o[at + self.phase.index()] = 1.0;
        at += 6;
        for k in 0..2 {
            o[at + k] = f32::from(u8::from(self.lone_pile == Some(rel(k) as u8)));
        }
        at += 2;
        for k in 0..2 {
            o[at + k] = f32::from(u8::from(self.declared[rel(k)]));
        }
        at += 2;
        for k in 0..2 {
            for j in 0..2 {
                o[at + 2 * k + j] =
                    f32::from(u8::from(self.received[rel(k)] == Some(rel(j) as u8)));
            }
        }
        at += 4;
        let need = f32::from(self.cfg.wins_needed().max(1));
        for k in 0..2 {
            o[at + k] = (f32::from(self.wins[rel(k)]) / need).min(1.0);
        }
        at += 2;
        o[at] = f32::from(u8::from(self.short.is_some()));
        o
    }

    /// A state `seat` cannot tell from this one: every hidden card (face-down
    /// stock cards, spit cards, gathered cards of both seats) re-dealt at
    /// random into the same places. No record can deal it again.
    fn determinize(&self, _seat: u8, rng: &mut GameRng) -> Self {
        let mut s = self.clone();
        s.unrecordable = true;
        s.dealt = [Stack52::EMPTY; 2];
        let mut hidden = [Card::JOKER; 52];
        let mut n = 0;
        s.for_each_hidden(|c| {
            hidden[n] = *c;
            n += 1;
        });
        rng.shuffle(&mut hidden[..n]);
        let mut k = 0;
        s.for_each_hidden(|c| {
            *c = hidden[k];
            k += 1;
        });
        s
    }

    fn returns(&self) -> Vec<i64> {
        SpitState::returns(self).to_vec()
    }

    fn ending(&self) -> Option<&'static str> {
        self.ending.map(Ending::name)
    }

    fn history(&self) -> &[u16] {
        &self.history
    }

    /// SP-5.1: the game is won by having no cards at all.
    /// Play, move and stack: the pile's face-up top; flip: the face-down
    /// card it turns up.
    fn refusal(&self, seat: u8, action: u16) -> Option<engine::Refusal> {
        SpitState::refusal(self, seat, action)
    }

    /// A play, move or stack names the face-up card it moves; a flip names
    /// none (the card is face down until it turns, SP-2.2).
    fn describe_action(&self, seat: u8, action: u16) -> Result<engine::ActionInfo> {
        use engine::ActionInfo;
        let act = Action::decode(action)?;
        let face_up = |p: u8| {
            self.piles
                .get(usize::from(seat))
                .and_then(|piles| piles.get(usize::from(p)))
                .filter(|pl| !pl.top_face_down())
                .and_then(|pl| pl.top())
        };
        let text = act.to_string();
        Ok(match act {
            Action::Play { pile, side } => ActionInfo::new("play", text)
                .cards(face_up(pile))
                .pile(side)
                .source(pile),
            Action::Flip { pile } => ActionInfo::new("flip", text).source(pile),
            Action::Move { from, .. } => ActionInfo::new("move", text)
                .cards(face_up(from))
                .source(from),
            Action::Stack { from, .. } => ActionInfo::new("stack", text)
                .cards(face_up(from))
                .source(from),
            Action::Spit => ActionInfo::new("spit", text),
            Action::Slap { side } => ActionInfo::new("slap", text).pile(side),
            Action::Lone { side } => ActionInfo::new("lone", text).pile(side),
        })
    }

    fn moved_card(&self, seat: u8, action: u16) -> Option<(Card, Option<crate::card::Rank>)> {
        let pile = |p: u8| self.piles.get(usize::from(seat))?.get(usize::from(p));
        let card = match Action::decode(action).ok()? {
            Action::Play { pile: p, .. }
            | Action::Move { from: p, .. }
            | Action::Stack { from: p, .. } => pile(p)?.top(),
            Action::Flip { pile: p } => pile(p)
                .filter(|pl| pl.top_face_down())
                .and_then(|pl| pl.cards().last().copied()),
            Action::Spit | Action::Slap { .. } | Action::Lone { .. } => None,
        };
        card.map(|c| (c, None))
    }

    /// Each seat's cards as this deal dealt them (SP-1.2, SP-4.3): the
    /// layout's piles from left to right, bottom card first, then the spit
    /// cards, the top one first.
    fn dealt_cards(&self) -> Vec<Vec<Card>> {
        self.dealt.iter().map(|d| d.cards().to_vec()).collect()
    }

    fn cards_left(&self, seat: u8) -> Option<usize> {
        Some(self.cards_held(seat))
    }

    fn phase_name(&self) -> Option<&'static str> {
        Some(self.phase().name())
    }

    /// Layouts dealt so far (the whole match).
    fn deals_played(&self) -> u32 {
        self.deals
    }

    fn deal_source(&self) -> engine::DealSource {
        if self.unrecordable {
            engine::DealSource::Unrecordable
        } else {
            engine::DealSource::Seed(self.seed)
        }
    }

    /// Every one of the 52 cards in exactly one place, and the shape rules.
    fn audit(&self) -> std::result::Result<(), String> {
        let mut seen = [0u8; 52];
        let mut add = |c: Card| -> std::result::Result<(), String> {
            let i = usize::from(c.code());
            if i >= 52 {
                return Err(format!("a non-card {c:?} is in play"));
            }
            seen[i] += 1;
            Ok(())
        };
        for seat in 0..2 {
            for (i, p) in self.piles[seat].iter().enumerate() {
                if p.up > p.len {
                    return Err(format!("seat {seat} pile {i}: more face up than cards"));
                }
                if i >= self.piles_n() && !p.is_empty() {
                    return Err(format!("seat {seat} pile {i} is beyond stock_piles"));
                }
                for &c in p.cards() {
                    add(c)?;
                }
                if p.up > 1
                    && p.face_up()
                        .iter()
                        .any(|c| c.rank() != p.face_up()[0].rank())
                {
                    return Err(format!(
                        "seat {seat} pile {i}: face-up cards of mixed ranks"
                    ));
                }
            }
            for st in [&self.spit[seat], &self.centre[seat], &self.gathered[seat]] {
                for &c in st.cards() {
                    add(c)?;
                }
            }
        }
        if let Some(i) = seen.iter().position(|&n| n != 1) {
            return Err(format!("card code {i} is in {} places", seen[i]));
        }
        if let Some(short) = self.short {
            if matches!(self.phase, Phase::Playing) && self.centre_active(short) {
                return Err("single-pile mode with the short seat's pile started".into());
            }
        }
        if self.phase == Phase::Over && self.ending.is_none() {
            return Err("over without an ending".into());
        }
        Ok(())
    }

    /// A hash of everything in the state.
    fn fingerprint(&self) -> u64 {
        let mut h = Fingerprint::default();
        h.bytes(self.cfg.to_string().as_bytes());
        h.u64(self.seed).bytes(&[u8::from(self.unrecordable)]);
        let stack = |h: &mut Fingerprint, cards: &[Card]| {
            h.u64(cards.len() as u64);
            for c in cards {
                h.bytes(&[c.code()]);
            }
        };
        for seat in 0..2 {
            for p in &self.piles[seat] {
                stack(&mut h, p.cards());
                h.bytes(&[p.up]);
            }
            stack(&mut h, self.spit[seat].cards());
            stack(&mut h, self.centre[seat].cards());
            stack(&mut h, self.gathered[seat].cards());
        }
        let opt = |v: Option<u8>| v.map_or(255, |x| x);
        h.bytes(&[
            self.phase.index() as u8,
            opt(self.short),
            opt(self.lone_pile),
            self.lone_seat,
            u8::from(self.declared[0]),
            u8::from(self.declared[1]),
            opt(self.claims[0]),
            opt(self.claims[1]),
            opt(self.received[0]),
            opt(self.received[1]),
            self.chooser,
            self.wins[0],
            self.wins[1],
            opt(self.winner),
            self.ending.map_or(255, |e| e as u8),
        ]);
        h.u64(match self.deal_end {
            None => 0,
            Some(DealEnd::Stalemate) => 1,
            Some(DealEnd::Emptied(s)) => 2 + u64::from(s),
        });
        h.u64(self.now)
            .u64(self.timer.map_or(u64::MAX, |t| t))
            .u64(u64::from(self.game))
            .u64(u64::from(self.deals));
        h.u64(self.history.len() as u64);
        for &a in &self.history {
            h.bytes(&a.to_le_bytes());
        }
        h.finish()
    }
}
