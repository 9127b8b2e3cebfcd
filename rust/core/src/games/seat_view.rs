//! One seat's view of a state, the same for every game: bots are shown
//! their game's seat view, never the state (`State::seat_view`).
//!
//! [`seat_view!`] declares a game's view type in its `view.rs`: a borrow
//! of the state and the seat, whose fields are private to that `view.rs`.
//! The game's methods there show only what the seat may see; its bots,
//! beside it in the game's folder, can call those methods and nothing
//! else, so "a bot decides from what its seat may see" holds by the types.

/// `seat_view!(/// docs ... TonkSeatView => TonkState)`: the game's seat view
/// and, once for every game, the `engine::SeatView` methods generic code
/// needs (its seat, the decision, its legal actions, `determinize`).
macro_rules! seat_view {
    ($(#[$doc:meta])* $name:ident => $state:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $name<'a> {
            state: &'a $state,
            seat: u8,
        }

        impl<'a> $name<'a> {
            /// `seat`'s view of `state` (what `State::seat_view` hands out).
            pub(in crate::games) fn new(state: &'a $state, seat: u8) -> Self {
                Self { state, seat }
            }
        }

        impl $crate::engine::SeatView for $name<'_> {
            type State = $state;

            #[inline]
            fn seat(&self) -> u8 {
                self.seat
            }

            #[inline]
            fn decision(&self) -> $crate::engine::Decision {
                $crate::engine::State::decision(self.state)
            }

            #[inline]
            fn legal_actions(&self, out: &mut Vec<u16>) {
                $crate::engine::State::legal_actions(self.state, self.seat, out)
            }

            #[inline]
            fn can_act(&self) -> bool {
                $crate::engine::State::can_act(self.state, self.seat)
            }

            #[inline]
            fn is_legal(&self, action: u16) -> bool {
                $crate::engine::State::is_legal(self.state, self.seat, action)
            }

            #[inline]
            fn determinize(&self, rng: &mut $crate::rng::GameRng) -> $state {
                $crate::engine::State::determinize(self.state, self.seat, rng)
            }
        }
    };
}
pub(crate) use seat_view;
