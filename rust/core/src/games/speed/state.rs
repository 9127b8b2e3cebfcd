//! The game's state machine on the virtual clock: deals, the countdown,
//! plays and draws, stalemates and flips, recycles, the deadlock guard,
//! deal results and the match (SD-1 … SD-4, RT-5, RT-7, RT-8, RT-12).

use super::*;

/// Where a deal is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Dealt; the centre cards turn up when the countdown timer fires (SD-1.4).
    Countdown,
    /// Both players play at will.
    Playing,
    /// Nobody can play and every hand is full (SD-3.1): the flip timer runs.
    Stalemate,
    /// The game is over.
    Over,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Countdown => "countdown",
            Phase::Playing => "playing",
            Phase::Stalemate => "stalemate",
            Phase::Over => "over",
        }
    }

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

/// How a deal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DealEnd {
    /// A player emptied hand and draw pile (SD-4.1).
    Emptied,
    /// The deadlock guard (SD-3.5).
    Deadlock,
    /// The game's time ran out (RT-12), decided as by the deadlock guard.
    TimeLimit,
}

impl DealEnd {
    pub fn name(self) -> &'static str {
        match self {
            DealEnd::Emptied => "emptied",
            DealEnd::Deadlock => "deadlock",
            DealEnd::TimeLimit => "time_limit",
        }
    }
}

/// A finished deal, public to both seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DealResult {
    /// Index of the deal in the game (0 first).
    pub deal: u16,
    pub end: DealEnd,
    /// None: a drawn deal.
    pub winner: Option<u8>,
    /// Cards each seat still held (hand + draw pile) when it ended.
    pub cards_left: [u8; 2],
    /// Points each seat scored in it (SD-4.2; zero without scoring).
    pub points: [i64; 2],
    /// When it ended (virtual ms).
    pub at: Millis,
}

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    Emptied,
    Deadlock,
    Draw,
    TimeLimit,
    MaxDeals,
}

impl Ending {
    pub fn name(self) -> &'static str {
        ENDINGS[self as usize]
    }
}

/// The immutable parameters of a game of Speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpeedGame {
    pub config: SpeedConfig,
}

/// A position given by a test (see [`SpeedGame::state_from_layout`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layout {
    /// Hands by seat (at most 5 cards each), in slot order.
    pub hands: [Vec<Card>; 2],
    /// Draw piles by seat, top first.
    pub draw: [Vec<Card>; 2],
    /// Side piles (left, right), top first.
    pub side: [Vec<Card>; 2],
    /// Centre piles (left, right), bottom first and the top card last; each
    /// needs a card.
    pub centre: [Vec<Card>; 2],
}

/// The rank mask of ranks 1..=13 (bit r).
pub(super) const ALL_RANKS: u16 = 0b11_1111_1111_1110;
/// A centre top's effective rank: no face-up card.
pub const NO_TOP: u8 = 0;
/// A centre top's effective rank: a joker turned up (anything goes on it).
pub const WILD_TOP: u8 = 14;

/// Effective rank of a card turned up (a joker is wild).
fn turned_up(c: Card) -> u8 {
    if c.is_joker() {
        WILD_TOP
    } else {
        c.rank()
    }
}

/// Every card of a Speed state by place, raw: nothing in it says who may
/// see what. Leak tests take a state's cards with
/// [`SpeedState::cards_by_place`], rearrange the ones the rules hide from
/// a seat (decided in the test, not by the view code) and put them back
/// with [`SpeedState::with_cards`]. Not a stable interface.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpeedCards {
    /// Hands by seat, by slot.
    pub hands: [[Option<Card>; HAND_SIZE]; 2],
    /// Draw piles by seat, top card last.
    pub draw: [Vec<Card>; 2],
    /// Side piles (left, right), top card last.
    pub side: [Vec<Card>; 2],
    /// Centre piles (left, right), top card last.
    pub centre: [Vec<Card>; 2],
    /// Cards out of play (test layouts only).
    pub removed: Vec<Card>,
}

/// A whole game of Speed in progress: every deal of the match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpeedState {
    pub(super) cfg: SpeedConfig,
    pub(super) seed: u64,
    /// Cards given by a test, or hidden cards re-dealt: no seed replays it.
    pub(super) unrecordable: bool,
    pub(super) phase: Phase,
    /// Index of the deal in play (or the last one, once over).
    pub(super) deal: u16,
    /// Hands by seat, by slot.
    pub(super) hands: [[Option<Card>; HAND_SIZE]; 2],
    /// Draw piles by seat, top card last.
    pub(super) draw: [Vec<Card>; 2],
    /// Side piles (left, right), top card last.
    pub(super) side: [Vec<Card>; 2],
    /// Centre piles (left, right), top card last.
    pub(super) centre: [Vec<Card>; 2],
    /// The effective rank of each centre top: [`NO_TOP`] before the turn-up,
    /// 1..=13, or [`WILD_TOP`].
    pub(super) top: [u8; 2],
    /// Cards out of play (only in states built from a test layout).
    pub(super) removed: Vec<Card>,
    /// The virtual time of the last commit or timer.
    pub(super) now: Millis,
    /// The countdown or flip timer, if one runs (the time limit is apart).
    pub(super) timer: Option<Millis>,
    /// Recycles in this deal (the recycle stream's index).
    pub(super) recycles: u16,
    /// Passes through the side piles begun since a card was last played
    /// from a hand (SD-3.5): the deal's own side piles are its first pass,
    /// each recycle begins another.
    pub(super) passes_since_play: u8,
    /// Flips in this deal.
    pub(super) flips: u16,
    pub(super) scores: [i64; 2],
    pub(super) deal_wins: [u8; 2],
    pub(super) last_deal: Option<DealResult>,
    pub(super) ending: Option<Ending>,
    pub(super) result: [i64; 2],
    pub(super) history: Vec<u16>,
    /// The deck the deal in play was dealt from, top first (what records
    /// keep of a deal).
    pub(super) dealt: Vec<Card>,
}

impl SpeedGame {
    /// A game of a configuration built by hand; fields out of range are
    /// brought into range. [`SpeedGame::from_options`] is the checked way in.
    pub fn new(config: SpeedConfig) -> SpeedGame {
        SpeedGame {
            config: config.clamped(),
        }
    }

    /// A new game dealt from `seed`, at virtual time 0, in its countdown.
    pub fn new_game(&self, seed: u64) -> SpeedState {
        let mut s = SpeedState::empty(self.config, seed);
        s.start_deal(0, None);
        s
    }

    /// A deal already turned up, for scenario tests: the given hands, draw
    /// piles, side piles and centre piles, at virtual time 0 in play (or in
    /// a stalemate, with its flip timer, if the layout is one). Cards not
    /// listed are out of play (the audit counts them there). Later deals of a
    /// match are dealt from seed 0. No record can deal it again.
    pub fn state_from_layout(&self, layout: &Layout) -> Result<SpeedState> {
        let cfg = self.config;
        let mut s = SpeedState::empty(cfg, 0);
        s.unrecordable = true;
        let mut seen = [0u8; CARD_CODES];
        let all = layout
            .hands
            .iter()
            .chain(&layout.draw)
            .chain(&layout.side)
            .chain(&layout.centre)
            .flatten();
        for &c in all {
            let n = &mut seen[usize::from(c.code())];
            *n += 1;
            if c.is_joker() {
                if !cfg.jokers {
                    return Err(CoreError::hand("JK: jokers are not in play"));
                }
                if usize::from(*n) > JOKERS_IN_PLAY {
                    return Err(CoreError::hand(format!(
                        "more than {JOKERS_IN_PLAY} jokers in the layout"
                    )));
                }
            } else if *n > 1 {
                return Err(CoreError::hand(format!("duplicate card {c} in the layout")));
            }
        }
        for (seat, h) in layout.hands.iter().enumerate() {
            if h.len() > HAND_SIZE {
                return Err(CoreError::hand(format!(
                    "seat {seat} holds {} cards: a hand holds at most {HAND_SIZE} (SD-1.3)",
                    h.len()
                )));
            }
            if h.is_empty() && layout.draw[seat].is_empty() {
                return Err(CoreError::hand(format!(
                    "seat {seat} has no card at all: the deal would be over"
                )));
            }
        }
        if layout.centre.iter().any(Vec::is_empty) {
            return Err(CoreError::hand(
                "each centre pile needs a card (its top last)",
            ));
        }
        for seat in 0..2 {
            for (slot, &c) in layout.hands[seat].iter().enumerate() {
                s.hands[seat][slot] = Some(c);
            }
            s.draw[seat] = layout.draw[seat].iter().rev().copied().collect();
            s.side[seat] = layout.side[seat].iter().rev().copied().collect();
            s.centre[seat] = layout.centre[seat].clone();
            s.top[seat] = s.centre[seat].last().map_or(NO_TOP, |&c| turned_up(c));
        }
        for (code, &n) in seen.iter().enumerate() {
            let copies = if code == usize::from(Card::JOKER_CODE) {
                if cfg.jokers {
                    JOKERS_IN_PLAY
                } else {
                    0
                }
            } else {
                1
            };
            for _ in usize::from(n)..copies {
                s.removed
                    .push(Card::from_code(code as u8).unwrap_or(Card::JOKER));
            }
        }
        s.phase = Phase::Playing;
        s.check_stalemate();
        Ok(s)
    }
}

impl SpeedState {
    fn empty(cfg: SpeedConfig, seed: u64) -> SpeedState {
        SpeedState {
            cfg,
            seed,
            unrecordable: false,
            phase: Phase::Countdown,
            deal: 0,
            hands: [[None; HAND_SIZE]; 2],
            draw: [Vec::new(), Vec::new()],
            side: [Vec::new(), Vec::new()],
            centre: [Vec::new(), Vec::new()],
            top: [NO_TOP; 2],
            removed: Vec::new(),
            now: 0,
            timer: None,
            recycles: 0,
            passes_since_play: 1,
            flips: 0,
            scores: [0; 2],
            deal_wins: [0; 2],
            last_deal: None,
            ending: None,
            result: [0; 2],
            history: Vec::new(),
            dealt: Vec::new(),
        }
    }

    /// Deals deal `k` (SD-1.2, SD-1.3) from the seed's deal stream, or from
    /// `deck` (top first), and starts its countdown.
    pub(super) fn start_deal(&mut self, k: u16, deck: Option<&[Card]>) {
        let size = self.cfg.deck_size();
        let mut cards: Vec<Card> = match deck {
            Some(d) => d.to_vec(),
            None => {
                let mut v: Vec<Card> = (0..52u8).map(|c| Card::of(c % 13 + 1, c / 13)).collect();
                if self.cfg.jokers {
                    v.extend([Card::JOKER; JOKERS_IN_PLAY]);
                }
                let stream = derive_seed(self.seed, STREAM_DEAL);
                GameRng::new(derive_seed(stream, u64::from(k))).shuffle(&mut v);
                v
            }
        };
        cards.resize(size, Card::JOKER);
        self.dealt.clone_from(&cards);
        let side = usize::from(self.cfg.side_pile_size);
        let per = self.cfg.cards_per_player();
        // Top first in the deck; piles keep their top last.
        let take = |from: usize, n: usize| -> Vec<Card> {
            cards[from..from + n].iter().rev().copied().collect()
        };
        self.side = [take(0, side), take(side, side)];
        self.centre = [vec![cards[2 * side]], vec![cards[2 * side + 1]]];
        let base = 2 * side + 2;
        for seat in 0..2 {
            let mut pile = take(base + seat * per, per);
            let mut hand = [None; HAND_SIZE];
            for slot in hand.iter_mut() {
                *slot = pile.pop();
            }
            self.hands[seat] = hand;
            self.draw[seat] = pile;
        }
        self.removed.clear();
        self.top = [NO_TOP; 2];
        self.deal = k;
        self.recycles = 0;
        self.passes_since_play = 1;
        self.flips = 0;
        self.phase = Phase::Countdown;
        self.timer = Some(
            self.now
                .saturating_add(Millis::from(self.cfg.start_countdown_ms)),
        );
    }

    /// Every card by place (see [`SpeedCards`]).
    #[doc(hidden)]
    pub fn cards_by_place(&self) -> SpeedCards {
        SpeedCards {
            hands: self.hands,
            draw: self.draw.clone(),
            side: self.side.clone(),
            centre: self.centre.clone(),
            removed: self.removed.clone(),
        }
    }

    /// This state with its cards rearranged: `cards` must have the shape of
    /// [`Self::cards_by_place`] (the same hand slots filled, every pile of
    /// the same size) and hold the same cards. Phase, clock, timers and
    /// history stay as they are; a face-up centre pile whose top card
    /// changed takes the new card's rank (a joker is wild), one whose top
    /// stayed keeps its effective rank. Nothing checks that the result is a
    /// position the rules can reach (the audit does). No seed replays it.
    #[doc(hidden)]
    pub fn with_cards(&self, cards: &SpeedCards) -> Result<SpeedState> {
        let shape = |c: &SpeedCards| {
            (
                c.hands.map(|h| h.map(|x| x.is_some())),
                [0, 1].map(|s| (c.draw[s].len(), c.side[s].len(), c.centre[s].len())),
                c.removed.len(),
            )
        };
        let now = self.cards_by_place();
        if shape(&now) != shape(cards) {
            return Err(CoreError::hand(
                "with_cards rearranges cards only: every slot and pile keeps its size",
            ));
        }
        let count = |c: &SpeedCards| {
            let mut n = [0usize; CARD_CODES];
            let all = c
                .hands
                .iter()
                .flatten()
                .flatten()
                .chain(c.draw.iter().chain(&c.side).chain(&c.centre).flatten())
                .chain(&c.removed);
            for x in all {
                n[usize::from(x.code())] += 1;
            }
            n
        };
        if count(&now) != count(cards) {
            return Err(CoreError::hand(
                "with_cards rearranges cards only: the same cards, each as often",
            ));
        }
        let mut s = self.clone();
        s.unrecordable = true;
        s.hands = cards.hands;
        s.draw = cards.draw.clone();
        s.side = cards.side.clone();
        s.centre = cards.centre.clone();
        s.removed = cards.removed.clone();
        for p in 0..2 {
            let (was, new) = (self.centre[p].last(), s.centre[p].last());
            if s.top[p] != NO_TOP && was != new {
                s.top[p] = new.map_or(NO_TOP, |&c| turned_up(c));
            }
        }
        Ok(s)
    }

    // -----------------------------------------------------------------
    // Accessors
    // -----------------------------------------------------------------

    pub fn config(&self) -> &SpeedConfig {
        &self.cfg
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Dealt from a test layout, or re-dealt by `determinize`.
    pub fn is_unrecordable(&self) -> bool {
        self.unrecordable
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Index of the deal in play (0 first).
    pub fn deal_index(&self) -> u16 {
        self.deal
    }

    /// The virtual time of the last commit or timer.
    pub fn now(&self) -> Millis {
        self.now
    }

    /// A seat's hand by slot (a seat out of range has none).
    pub fn hand_slots(&self, seat: u8) -> [Option<Card>; HAND_SIZE] {
        self.hands
            .get(usize::from(seat))
            .copied()
            .unwrap_or([None; HAND_SIZE])
    }

    /// A seat's hand, in slot order.
    pub fn hand(&self, seat: u8) -> Vec<Card> {
        self.hand_slots(seat).iter().flatten().copied().collect()
    }

    pub fn hand_len(&self, seat: u8) -> usize {
        self.hand_slots(seat).iter().flatten().count()
    }

    /// A seat's draw pile, top card last.
    pub fn draw_pile(&self, seat: u8) -> &[Card] {
        self.draw
            .get(usize::from(seat))
            .map_or(&[], |v| v.as_slice())
    }

    /// A side pile (0 left, 1 right), top card last.
    pub fn side_pile(&self, pile: u8) -> &[Card] {
        self.side
            .get(usize::from(pile))
            .map_or(&[], |v| v.as_slice())
    }

    /// A centre pile (0 left, 1 right), top card last (face down before the
    /// countdown ends).
    pub fn centre_pile(&self, pile: u8) -> &[Card] {
        self.centre
            .get(usize::from(pile))
            .map_or(&[], |v| v.as_slice())
    }

    /// The face-up top of a centre pile.
    pub fn centre_top(&self, pile: u8) -> Option<Card> {
        if self.top.get(usize::from(pile)).copied().unwrap_or(NO_TOP) == NO_TOP {
            None
        } else {
            self.centre_pile(pile).last().copied()
        }
    }

    /// The effective rank of a centre top: [`NO_TOP`], 1..=13 (a played
    /// joker's chosen rank), or [`WILD_TOP`].
    pub fn top_rank(&self, pile: u8) -> u8 {
        self.top.get(usize::from(pile)).copied().unwrap_or(NO_TOP)
    }

    /// Cards out of play (test layouts only).
    pub fn removed(&self) -> &[Card] {
        &self.removed
    }

    pub fn scores(&self) -> [i64; 2] {
        self.scores
    }

    pub fn deal_wins(&self) -> [u8; 2] {
        self.deal_wins
    }

    pub fn last_deal(&self) -> Option<DealResult> {
        self.last_deal
    }

    /// Passes through the side piles begun since a card was last played
    /// from a hand (SD-3.5): 1 when a deal's own side piles are dealt, 0
    /// after a play, one more with each recycle.
    pub fn passes_since_play(&self) -> u8 {
        self.passes_since_play
    }

    /// Recycles in this deal (SD-3.4).
    pub fn recycles(&self) -> u16 {
        self.recycles
    }

    /// Flips in this deal (SD-3.2).
    pub fn flips(&self) -> u16 {
        self.flips
    }

    /// The countdown or flip timer (without the time limit).
    pub fn phase_timer(&self) -> Option<Millis> {
        self.timer
    }

    pub fn ending_kind(&self) -> Option<Ending> {
        self.ending
    }

    // -----------------------------------------------------------------
    // Rules
    // -----------------------------------------------------------------

    /// The ranks a card may have to go on centre pile `pile` (bit r).
    pub(super) fn rank_mask(&self, pile: usize) -> u16 {
        rank_mask_of(self.top[pile], self.cfg.equal_rank_play)
    }

    /// Whether a card of rank `rank` (1..=13) may go on `pile` (CM-3, SD-2.1).
    pub fn fits(&self, rank: Rank, pile: u8) -> bool {
        usize::from(pile) < 2 && rank <= 13 && self.rank_mask(usize::from(pile)) & (1 << rank) != 0
    }

    fn can_play(&self, seat: usize, masks: [u16; 2]) -> bool {
        let both = masks[0] | masks[1];
        self.hands[seat].iter().flatten().any(|c| {
            if c.is_joker() {
                both != 0
            } else {
                both & (1 << c.rank()) != 0
            }
        })
    }

    pub(super) fn can_draw(&self, seat: usize) -> bool {
        !self.cfg.auto_draw
            && !self.draw[seat].is_empty()
            && self.hands[seat].iter().any(Option::is_none)
    }

    /// Seats with at least one legal action now (bit per seat).
    pub fn active_mask(&self) -> u64 {
        if self.phase != Phase::Playing {
            return 0;
        }
        let masks = [self.rank_mask(0), self.rank_mask(1)];
        let mut m = 0;
        for seat in 0..2 {
            if self.can_play(seat, masks) || self.can_draw(seat) {
                m |= 1 << seat;
            }
        }
        m
    }

    fn slot_of(&self, seat: usize, card: Card) -> Option<usize> {
        self.hands[seat].iter().position(|&h| h == Some(card))
    }

    /// Whether `seat` may take action `act` now.
    pub fn is_legal_action(&self, seat: u8, act: Action) -> bool {
        let s = usize::from(seat);
        if self.phase != Phase::Playing || s >= 2 {
            return false;
        }
        match act {
            Action::Play { card, pile } => {
                !card.is_joker()
                    && pile < 2
                    && self.fits(card.rank(), pile)
                    && self.slot_of(s, card).is_some()
            }
            Action::Joker { pile, rank } => {
                pile < 2
                    && (1..=13).contains(&rank)
                    && self.fits(rank, pile)
                    && self.slot_of(s, Card::JOKER).is_some()
            }
            Action::Draw => self.can_draw(s),
        }
    }

    /// A card from the hand onto a centre pile as `rank` (SD-2.1), the
    /// auto-draw refill (SD-2.2), and the deal's end (SD-4.1).
    fn play(&mut self, seat: usize, card: Card, pile: usize, rank: Rank) {
        let Some(slot) = self.slot_of(seat, card) else {
            return;
        };
        self.hands[seat][slot] = None;
        self.centre[pile].push(card);
        self.top[pile] = rank;
        self.passes_since_play = 0;
        if self.cfg.auto_draw {
            self.hands[seat][slot] = self.draw[seat].pop();
        }
        if self.hands[seat].iter().all(Option::is_none) && self.draw[seat].is_empty() {
            self.end_deal(DealEnd::Emptied, Some(seat as u8));
            return;
        }
        self.check_stalemate();
    }

    /// RT-8: in play, a stalemate (SD-3.1: nobody can play and every hand is
    /// full, which is exactly "nobody has a legal action") starts the flip
    /// timer.
    pub(super) fn check_stalemate(&mut self) {
        if self.phase == Phase::Playing && self.active_mask() == 0 {
            self.phase = Phase::Stalemate;
            self.timer = Some(
                self.now
                    .saturating_add(Millis::from(self.cfg.flip_delay_ms)),
            );
        }
    }

    /// SD-3.2 … SD-3.5: each side pile turns its top onto the centre pile
    /// next to it; only one if the other is empty; both empty: recycle first,
    /// or end the deal by the deadlock guard once two whole passes went by
    /// without a card played (SD-3.5).
    fn flip(&mut self) {
        if self.side.iter().all(Vec::is_empty) {
            if self.passes_since_play >= 2 {
                self.deadlock();
                return;
            }
            self.recycle();
            if self.side.iter().all(Vec::is_empty) {
                self.deadlock();
                return;
            }
        }
        for p in 0..2 {
            if let Some(c) = self.side[p].pop() {
                self.centre[p].push(c);
                self.top[p] = turned_up(c);
            }
        }
        self.flips = self.flips.saturating_add(1);
        self.phase = Phase::Playing;
        self.check_stalemate();
    }

    /// SD-3.4: rebuilds the side piles from the centre piles but their tops.
    fn recycle(&mut self) {
        let stream = derive_seed(self.seed, STREAM_RECYCLE);
        let index = u64::from(self.deal) * 65_536 + u64::from(self.recycles);
        let mut rng = GameRng::new(derive_seed(stream, index));
        self.recycles = self.recycles.saturating_add(1);
        self.passes_since_play = self.passes_since_play.saturating_add(1);
        let mut under: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
        for (p, u) in under.iter_mut().enumerate() {
            let n = self.centre[p].len().saturating_sub(1);
            u.extend(self.centre[p].drain(..n));
        }
        match self.cfg.recycle {
            Recycle::Merged => {
                let mut all = std::mem::take(&mut under[0]);
                all.append(&mut under[1]);
                rng.shuffle(&mut all);
                for (i, c) in all.into_iter().enumerate() {
                    self.side[i % 2].push(c);
                }
            }
            Recycle::PerPile => {
                for (p, mut u) in under.into_iter().enumerate() {
                    rng.shuffle(&mut u);
                    self.side[p].append(&mut u);
                }
            }
        }
    }

    /// Cards a seat still holds: hand and draw pile.
    pub fn cards_left(&self, seat: u8) -> usize {
        self.hand_len(seat) + self.draw_pile(seat).len()
    }

    /// What counts for scoring (SD-4.2).
    fn counted(&self, seat: u8) -> i64 {
        let draw = self.draw_pile(seat).len();
        (if self.cfg.score_counts_hand {
            draw + self.hand_len(seat)
        } else {
            draw
        }) as i64
    }

    /// SD-3.5: fewer cards wins; equal counts draw.
    fn deadlock(&mut self) {
        let winner = match self.cards_left(0).cmp(&self.cards_left(1)) {
            std::cmp::Ordering::Less => Some(0),
            std::cmp::Ordering::Greater => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        self.end_deal(DealEnd::Deadlock, winner);
    }

    /// The deal is over: score it (SD-4.2), then end the match or deal the next.
    fn end_deal(&mut self, end: DealEnd, winner: Option<u8>) {
        let mut points = [0i64; 2];
        // SD-4.2: the winner scores each card the loser has not played,
        // however the deal was won (emptying, the deadlock guard, the time).
        if let (Some(w), true) = (winner, self.cfg.scoring) {
            points[usize::from(w)] = self.counted(1 - w);
        }
        if let Some(w) = winner {
            let wins = &mut self.deal_wins[usize::from(w)];
            *wins = wins.saturating_add(1);
        }
        for (s, p) in self.scores.iter_mut().zip(points) {
            *s += p;
        }
        self.last_deal = Some(DealResult {
            deal: self.deal,
            end,
            winner,
            cards_left: [self.cards_left(0) as u8, self.cards_left(1) as u8],
            points,
            at: self.now,
        });
        self.timer = None;
        if end == DealEnd::TimeLimit {
            return;
        }
        let decided = if self.cfg.single_deal() {
            true
        } else if self.cfg.match_format == MatchFormat::BestOf3 {
            self.deal_wins.iter().any(|&w| w >= 2)
        } else {
            self.scores
                .iter()
                .any(|&s| s >= i64::from(self.cfg.target_score))
        };
        if decided {
            self.finish(if end == DealEnd::Emptied {
                Ending::Emptied
            } else {
                Ending::Deadlock
            });
        } else if u32::from(self.deal) + 1 >= self.cfg.session.max_deals {
            self.finish(Ending::MaxDeals);
        } else {
            self.start_deal(self.deal + 1, None);
        }
    }

    /// RT-12: the time is up; a deal in play is decided as by the deadlock guard.
    fn time_limit(&mut self) {
        if matches!(self.phase, Phase::Playing | Phase::Stalemate) {
            let winner = match self.cards_left(0).cmp(&self.cards_left(1)) {
                std::cmp::Ordering::Less => Some(0),
                std::cmp::Ordering::Greater => Some(1),
                std::cmp::Ordering::Equal => None,
            };
            self.end_deal(DealEnd::TimeLimit, winner);
        }
        self.finish(Ending::TimeLimit);
    }

    /// The game is over: returns from the standing.
    fn finish(&mut self, ending: Ending) {
        let r = if self.cfg.scoring && self.cfg.match_format == MatchFormat::Target {
            self.scores[0] - self.scores[1]
        } else {
            i64::from(self.deal_wins[0].cmp(&self.deal_wins[1]) as i8)
        };
        self.result = [r, -r];
        self.ending = Some(match ending {
            Ending::Emptied | Ending::Deadlock if r == 0 => Ending::Draw,
            e => e,
        });
        self.phase = Phase::Over;
        self.timer = None;
    }
}

impl SpeedState {
    /// The state with every card hidden from `seat` written over: the
    /// other hand's slots with `other_hand`, then the face-down places
    /// (both draw piles, the side piles, and the centre cards before the
    /// turn-up) with `face_down`, in that order; no seed replays it. What
    /// `determinize` and the search bots' worlds are made of.
    pub(super) fn with_hidden_cards(
        &self,
        seat: u8,
        other_hand: &[Card],
        face_down: &[Card],
    ) -> SpeedState {
        let mut s = self.clone();
        s.history.clear();
        s.dealt.clear();
        s.unrecordable = true;
        let other = 1 - usize::from(seat.min(1));
        let mut hand = other_hand.iter().copied();
        for slot in s.hands[other].iter_mut().filter(|slot| slot.is_some()) {
            *slot = hand.next();
        }
        let countdown = s.phase == Phase::Countdown;
        let mut places: Vec<&mut Vec<Card>> = s.draw.iter_mut().chain(s.side.iter_mut()).collect();
        if countdown {
            places.extend(s.centre.iter_mut());
        }
        let mut cards = face_down.iter().copied();
        for c in places.into_iter().flat_map(|pile| pile.iter_mut()) {
            if let Some(x) = cards.next() {
                *c = x;
            }
        }
        s
    }
}

impl engine::State for SpeedState {
    type View = SpeedView;
    type SeatView<'a> = SpeedSeatView<'a>;

    fn seat_view(&self, seat: u8) -> SpeedSeatView<'_> {
        SpeedSeatView::new(self, seat)
    }

    fn decision(&self) -> engine::Decision {
        match self.phase {
            Phase::Over => engine::Decision::Terminal,
            Phase::Countdown | Phase::Stalemate => engine::Decision::Waiting,
            Phase::Playing => match self.active_mask() {
                0 => engine::Decision::Waiting,
                m => engine::Decision::Simultaneous(m),
            },
        }
    }

    /// The legal actions of `seat` now, sorted (empty when it cannot act).
    fn legal_actions(&self, seat: u8, out: &mut Vec<u16>) {
        out.clear();
        let s = usize::from(seat);
        if self.phase != Phase::Playing || s >= 2 {
            return;
        }
        let masks = [self.rank_mask(0), self.rank_mask(1)];
        let mut joker = false;
        for c in self.hands[s].iter().flatten() {
            if c.is_joker() {
                joker = true;
                continue;
            }
            for (p, m) in masks.iter().enumerate() {
                if m & (1 << c.rank()) != 0 {
                    out.push(action::PLAY_BASE + u16::from(c.code()) * 2 + p as u16);
                }
            }
        }
        out.sort_unstable();
        if joker {
            for (p, m) in masks.iter().enumerate() {
                for r in 1..=13u16 {
                    if m & (1 << r) != 0 {
                        out.push(action::JOKER_BASE + p as u16 * 13 + r - 1);
                    }
                }
            }
        }
        if self.can_draw(s) {
            out.push(action::DRAW);
        }
    }

    fn is_legal(&self, seat: u8, a: u16) -> bool {
        Action::decode(a).is_ok_and(|act| self.is_legal_action(seat, act))
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn can_act(&self, seat: u8) -> bool {
        seat < 2 && self.active_mask() >> seat & 1 == 1
    }

    /// Commits `seat`'s action at `now` (RT-5): `Bounced`, changing nothing,
    /// when it is an action but not legal now; an error for an id that is
    /// no action, a seat that is not at the table, or a finished game.
    fn apply(&mut self, seat: u8, a: u16, now: Millis) -> Result<engine::Applied> {
        if self.is_over() {
            return Err(CoreError::GameOver);
        }
        let act = Action::decode(a)?;
        if usize::from(seat) >= PLAYERS {
            return Err(CoreError::IllegalAction(format!(
                "seat {seat} is not at the table (seats 0 and 1)"
            )));
        }
        if !self.is_legal_action(seat, act) {
            return Ok(engine::Applied::Bounced);
        }
        self.now = self.now.max(now);
        self.history.push(a);
        let s = usize::from(seat);
        match act {
            Action::Play { card, pile } => self.play(s, card, usize::from(pile), card.rank()),
            Action::Joker { pile, rank } => self.play(s, Card::JOKER, usize::from(pile), rank),
            Action::Draw => {
                if let Some(slot) = self.hands[s].iter().position(Option::is_none) {
                    self.hands[s][slot] = self.draw[s].pop();
                }
                self.check_stalemate();
            }
        }
        Ok(engine::Applied::Done)
    }

    /// When the next engine timer fires: the countdown, the flip, or the
    /// time limit (RT-7, RT-8, RT-12); None once over.
    fn next_timer(&self) -> Option<Millis> {
        if self.is_over() {
            return None;
        }
        let limit = self.cfg.session.max_virtual_ms;
        Some(self.timer.map_or(limit, |t| t.min(limit)))
    }

    /// Fires the engine timer due at `now` (RT-7): the turn-up after the
    /// countdown, the flip of a stalemate, or the time limit. Nothing happens
    /// when no timer is due by `now`.
    fn fire_timer(&mut self, now: Millis) {
        if self.is_over() {
            return;
        }
        if now >= self.cfg.session.max_virtual_ms {
            self.now = self.now.max(now);
            self.time_limit();
            return;
        }
        match self.timer {
            Some(t) if now >= t => {}
            _ => return,
        }
        self.now = self.now.max(now);
        self.timer = None;
        match self.phase {
            Phase::Countdown => {
                // SD-1.4: player 0 turns the left card, player 1 the right one.
                for p in 0..2 {
                    self.top[p] = self.centre[p].last().map_or(NO_TOP, |&c| turned_up(c));
                }
                self.phase = Phase::Playing;
                self.check_stalemate();
            }
            Phase::Stalemate => self.flip(),
            Phase::Playing | Phase::Over => {}
        }
    }

    /// Everything `seat` may see.
    fn view(&self, seat: u8) -> SpeedView {
        let sz = |n: usize| n.min(255) as u8;
        let over = self.is_over();
        SpeedView {
            seat,
            phase: self.phase,
            deal: self.deal,
            now: self.now,
            timer: self.timer,
            hand: self.hand_slots(seat),
            centre_top: [self.centre_top(0), self.centre_top(1)],
            centre_rank: self.top,
            centre_size: [sz(self.centre[0].len()), sz(self.centre[1].len())],
            side_size: [sz(self.side[0].len()), sz(self.side[1].len())],
            draw_size: [sz(self.draw[0].len()), sz(self.draw[1].len())],
            hand_size: [sz(self.hand_len(0)), sz(self.hand_len(1))],
            passes_since_play: self.passes_since_play,
            scores: self.scores,
            deal_wins: self.deal_wins,
            last_deal: self.last_deal,
            returns: over.then_some(self.result),
            ending: self.ending,
        }
    }

    /// A flat observation in `[0, 1]` for learning code, from `seat`'s point
    /// of view ("own" is `seat`, "opponent" the other), [`OBSERVATION_SIZE`]
    /// entries. Layout, in order:
    ///
    /// 1. own hand, 53 entries by card code (the joker last, count / 2);
    /// 2. left centre top, one-hot by code (53; all zero before the turn-up);
    /// 3. right centre top, the same;
    /// 4. left top's effective rank one-hot, 15 entries (0 none, 1..13, 14 wild);
    /// 5. right top's, the same;
    /// 6. sizes: left and right centre pile / 54, left and right side pile /
    ///    27, own draw pile / 27, opponent's draw pile / 27, own hand / 5,
    ///    opponent's hand / 5;
    /// 7. phase one-hot: countdown, playing, stalemate, over;
    /// 8. 1 if `seat` has a legal action, 1 if a countdown or flip timer runs;
    /// 9. own score / target, opponent's score / target (capped at 1), own
    ///    deal wins / 2, opponent's / 2 (capped), deal index / max_deals.
    fn observation(&self, seat: u8) -> Vec<f32> {
        let mut o = vec![0f32; OBSERVATION_SIZE];
        let me = usize::from(seat.min(1));
        let opp = 1 - me;
        for c in self.hands[me].iter().flatten() {
            let k = usize::from(c.code());
            o[k] = if c.is_joker() { o[k] + 0.5 } else { 1.0 };
        }
        for p in 0..2u8 {
            if let Some(c) = self.centre_top(p) {
                o[CARD_CODES * (1 + usize::from(p)) + usize::from(c.code())] = 1.0;
            }
        }
        let mut base = CARD_CODES * 3;
        for p in 0..2 {
            o[base + usize::from(self.top[p].min(14))] = 1.0;
            base += 15;
        }
        let f = |n: usize, d: f32| (n as f32 / d).min(1.0);
        let sizes = [
            f(self.centre[0].len(), 54.0),
            f(self.centre[1].len(), 54.0),
            f(self.side[0].len(), 27.0),
            f(self.side[1].len(), 27.0),
            f(self.draw[me].len(), 27.0),
            f(self.draw[opp].len(), 27.0),
            f(self.hand_len(me as u8), 5.0),
            f(self.hand_len(opp as u8), 5.0),
        ];
        o[base..base + 8].copy_from_slice(&sizes);
        base += 8;
        o[base + self.phase.index()] = 1.0;
        base += 4;
        if usize::from(seat) < PLAYERS && self.active_mask() & (1 << seat) != 0 {
            o[base] = 1.0;
        }
        if self.timer.is_some() {
            o[base + 1] = 1.0;
        }
        base += 2;
        let target = self.cfg.target_score.max(1) as f32;
        o[base] = (self.scores[me].max(0) as f32 / target).min(1.0);
        o[base + 1] = (self.scores[opp].max(0) as f32 / target).min(1.0);
        o[base + 2] = (f32::from(self.deal_wins[me]) / 2.0).min(1.0);
        o[base + 3] = (f32::from(self.deal_wins[opp]) / 2.0).min(1.0);
        o[base + 4] = (f32::from(self.deal) / self.cfg.session.max_deals.max(1) as f32).min(1.0);
        o
    }

    /// A state `seat` cannot tell apart from this one: every card it cannot
    /// see dealt again at random, every count (and the opponent's occupied
    /// slots) kept. During a stalemate the opponent is dealt only cards that
    /// fit neither centre pile, as everybody knows it holds. No seed replays
    /// the result.
    fn determinize(&self, seat: u8, rng: &mut GameRng) -> Self {
        let me = usize::from(seat.min(1));
        let opp = 1 - me;
        let mut pool = self.unseen_cards(seat);
        rng.shuffle(&mut pool);
        // The opponent's hand first, consistent with what is public: during
        // a stalemate it holds no card that fits (the real hand is such a
        // choice, so there are enough); in play, when this seat cannot act
        // and the opponent cannot draw, it holds one that fits.
        let masks = [self.rank_mask(0), self.rank_mask(1)];
        let fits = |c: &Card| c.is_joker() || (masks[0] | masks[1]) & (1 << c.rank()) != 0;
        let stalemate = self.phase == Phase::Stalemate;
        let need = self.hand_len(opp as u8);
        let mut hand = Vec::with_capacity(need);
        let mut rest = Vec::with_capacity(pool.len());
        for c in pool {
            if hand.len() < need && !(stalemate && fits(&c)) {
                hand.push(c);
            } else {
                rest.push(c);
            }
        }
        let must_fit = self.phase == Phase::Playing
            && self.active_mask() & (1 << me) == 0
            && !self.can_draw(opp);
        if must_fit && !hand.iter().any(fits) {
            if let (Some(i), false) = (rest.iter().position(fits), hand.is_empty()) {
                let k = rng.below(hand.len() as u32) as usize;
                std::mem::swap(&mut hand[k], &mut rest[i]);
            }
        }
        self.with_hidden_cards(seat, &hand, &rest)
    }

    /// What each seat won; zero until the end.
    fn returns(&self) -> Vec<i64> {
        self.result.to_vec()
    }

    fn ending(&self) -> Option<&'static str> {
        self.ending.map(Ending::name)
    }

    /// The committed actions (bounced ones are not), in order.
    fn history(&self) -> &[u16] {
        &self.history
    }

    /// SD-4.1: the deal is won by emptying both hand and draw pile.
    /// A play's card (a joker with the rank it is played as); a draw's:
    /// the top of the draw pile.
    fn refusal(&self, seat: u8, action: u16) -> Option<engine::Refusal> {
        SpeedState::refusal(self, seat, action)
    }

    /// A play names its card, a joker the rank it is played as in its text;
    /// a draw names none (the card is face down until drawn, SD-2.2).
    fn describe_action(&self, _seat: u8, action: u16) -> Result<engine::ActionInfo> {
        use engine::ActionInfo;
        let act = Action::decode(action)?;
        let text = act.to_string();
        Ok(match act {
            Action::Play { card, pile } => ActionInfo::new("play", text).cards([card]).pile(pile),
            Action::Joker { pile, .. } => ActionInfo::new("joker", text)
                .cards([Card::JOKER])
                .pile(pile),
            Action::Draw => ActionInfo::new("draw", text),
        })
    }

    fn moved_card(&self, seat: u8, action: u16) -> Option<(Card, Option<Rank>)> {
        match Action::decode(action).ok()? {
            Action::Play { card, .. } => Some((card, None)),
            Action::Joker { rank, .. } => Some((Card::JOKER, Some(rank))),
            Action::Draw => self.draw.get(usize::from(seat))?.last().map(|&c| (c, None)),
        }
    }

    /// The deck this deal was dealt from, top first (SD-1.2).
    fn dealt_cards(&self) -> Vec<Vec<Card>> {
        vec![self.dealt.clone()]
    }

    fn cards_left(&self, seat: u8) -> Option<usize> {
        Some(SpeedState::cards_left(self, seat))
    }

    fn phase_name(&self) -> Option<&'static str> {
        Some(self.phase().name())
    }

    fn deals_played(&self) -> u32 {
        u32::from(self.deal_index()) + 1
    }

    fn deal_source(&self) -> engine::DealSource {
        if self.unrecordable {
            engine::DealSource::Unrecordable
        } else {
            engine::DealSource::Seed(self.seed)
        }
    }

    /// Every card in exactly one place, hands within their size, tops that
    /// match their cards, timers that match the phase.
    fn audit(&self) -> std::result::Result<(), String> {
        let mut counts = [0usize; CARD_CODES];
        let places = self
            .hands
            .iter()
            .flatten()
            .flatten()
            .chain(self.draw.iter().flatten())
            .chain(self.side.iter().flatten())
            .chain(self.centre.iter().flatten())
            .chain(&self.removed);
        for c in places {
            counts[usize::from(c.code())] += 1;
        }
        for (code, &n) in counts.iter().enumerate() {
            let want = if code == usize::from(Card::JOKER_CODE) {
                if self.cfg.jokers {
                    JOKERS_IN_PLAY
                } else {
                    0
                }
            } else {
                1
            };
            if n != want {
                return Err(format!("card code {code} is in {n} places, not {want}"));
            }
        }
        if self.phase != Phase::Over && self.centre.iter().any(Vec::is_empty) {
            return Err("a centre pile is empty".into());
        }
        for p in 0..2 {
            let top = self.top[p];
            let ok = match (self.phase, self.centre[p].last()) {
                (Phase::Countdown, _) => top == NO_TOP,
                // Over during a countdown: the new deal's cards stay face down.
                (Phase::Over, _) if top == NO_TOP => true,
                (_, Some(c)) if c.is_joker() => (1..=WILD_TOP).contains(&top),
                (_, Some(c)) => top == c.rank(),
                (_, None) => top == NO_TOP,
            };
            if !ok {
                return Err(format!(
                    "centre pile {p} has top rank {top} over {:?}",
                    self.centre[p].last()
                ));
            }
        }
        let timer_ok = match self.phase {
            Phase::Countdown | Phase::Stalemate => self.timer.is_some(),
            Phase::Playing | Phase::Over => self.timer.is_none(),
        };
        if !timer_ok {
            return Err(format!(
                "phase {:?} with timer {:?}",
                self.phase, self.timer
            ));
        }
        if self.phase == Phase::Playing && self.active_mask() == 0 {
            return Err("in play but nobody can act: a missed stalemate".into());
        }
        Ok(())
    }

    /// A hash of everything in the state (see `engine::State::fingerprint`),
    /// the virtual time and the timers included.
    fn fingerprint(&self) -> u64 {
        let mut h = engine::Fingerprint::default();
        let cards = |h: &mut engine::Fingerprint, cards: &[Card]| {
            h.u64(cards.len() as u64);
            for c in cards {
                h.bytes(&[c.code()]);
            }
        };
        h.bytes(&[
            self.phase.index() as u8,
            self.top[0],
            self.top[1],
            self.passes_since_play,
            self.deal_wins[0],
            self.deal_wins[1],
            self.ending.map_or(255, |e| e as u8),
        ]);
        h.u64(u64::from(self.deal))
            .u64(u64::from(self.recycles))
            .u64(u64::from(self.flips))
            .u64(self.now)
            .u64(self.timer.map_or(u64::MAX, |t| t));
        for seat in 0..2 {
            for slot in &self.hands[seat] {
                h.bytes(&[slot.map_or(255, |c| c.code())]);
            }
            cards(&mut h, &self.draw[seat]);
            cards(&mut h, &self.side[seat]);
            cards(&mut h, &self.centre[seat]);
            h.i64(self.scores[seat]).i64(self.result[seat]);
        }
        cards(&mut h, &self.removed);
        if let Some(d) = self.last_deal {
            h.u64(u64::from(d.deal))
                .bytes(&[
                    d.end as u8,
                    d.winner.map_or(255, |w| w),
                    d.cards_left[0],
                    d.cards_left[1],
                ])
                .i64(d.points[0])
                .i64(d.points[1])
                .u64(d.at);
        }
        h.finish()
    }
}
