//! Matches: a sequence of games of one configuration with the deal passing
//! left after each and a running ledger of returns (TK-1.3, TK-4.2; a Three
//! Thirteen match is a sequence of whole schedules).

use super::{DealSource, Game, State};
use crate::error::{CoreError, Result};
use crate::rng::derive_seed;

/// Seeds of a match's games come from this child stream of its seed (CM-6).
const GAME_STREAM: u64 = 1000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match<G: Game> {
    pub game: G,
    pub seed: u64,
    pub games_played: u64,
    pub dealer: u8,
    pub ledger: Vec<i64>,
}

impl<G: Game> Match<G> {
    /// The first dealer is the one the rules choose for the match seed
    /// (TK-4.1, TT-3.1).
    pub fn new(game: G, seed: u64) -> Result<Match<G>> {
        let dealer = game.deal(seed, None)?.dealer();
        let players = game.players();
        Ok(Match {
            game,
            seed,
            games_played: 0,
            dealer,
            ledger: vec![0; players],
        })
    }

    /// Seed of game `i` of this match.
    pub fn game_seed(&self, i: u64) -> u64 {
        derive_seed(self.seed, GAME_STREAM + i)
    }

    /// The next game, dealt by the current dealer.
    pub fn next_game(&self) -> Result<G::State> {
        self.game
            .deal(self.game_seed(self.games_played), Some(self.dealer))
    }

    /// Books a finished game into the ledger and passes the deal left.
    pub fn record(&mut self, finished: &G::State) -> Result<()> {
        if finished.ending().is_none() {
            return Err(CoreError::IllegalAction("the game is not over".into()));
        }
        let current = finished.deal_source() == DealSource::Seed(self.game_seed(self.games_played))
            && finished.dealer() == self.dealer;
        if !current {
            return Err(CoreError::IllegalAction(
                "this is not the match's current game: record the state next_game() dealt".into(),
            ));
        }
        for (l, r) in self.ledger.iter_mut().zip(finished.returns()) {
            *l += r;
        }
        self.games_played += 1;
        self.dealer = ((usize::from(self.dealer) + 1) % self.game.players()) as u8;
        Ok(())
    }
}
