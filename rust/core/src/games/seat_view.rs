//! One seat's view of a state, shared by every game: bots are shown a
//! [`SeatViewOf`] their game's state, never the state (`State::seat_view`).
//! Each game writes the view's methods in its own `view.rs`, showing only
//! what the seat may see; the state behind the view is private to
//! `games`, so a bot cannot reach past it.

use crate::engine::{self, Decision, State};
use crate::rng::GameRng;

/// What `seat` may look at in `state` (a game names it, e.g. `TonkSeatView`).
pub struct SeatViewOf<'a, S> {
    pub(in crate::games) state: &'a S,
    pub(in crate::games) seat: u8,
}

impl<'a, S> SeatViewOf<'a, S> {
    pub(in crate::games) fn new(state: &'a S, seat: u8) -> SeatViewOf<'a, S> {
        SeatViewOf { state, seat }
    }
}

// By hand: a derive would ask `S: Copy`, and only the reference is copied.
impl<S> Clone for SeatViewOf<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for SeatViewOf<'_, S> {}

impl<S: State> engine::SeatView for SeatViewOf<'_, S> {
    type State = S;

    #[inline]
    fn seat(&self) -> u8 {
        self.seat
    }

    #[inline]
    fn decision(&self) -> Decision {
        self.state.decision()
    }

    #[inline]
    fn legal_actions(&self, out: &mut Vec<u16>) {
        self.state.legal_actions(self.seat, out)
    }

    #[inline]
    fn can_act(&self) -> bool {
        self.state.can_act(self.seat)
    }

    #[inline]
    fn is_legal(&self, action: u16) -> bool {
        self.state.is_legal(self.seat, action)
    }

    #[inline]
    fn determinize(&self, rng: &mut GameRng) -> S {
        self.state.determinize(self.seat, rng)
    }
}
