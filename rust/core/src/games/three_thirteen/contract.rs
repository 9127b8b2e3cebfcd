//! Three Thirteen under the engine layer's `Game` and `State` traits.

use super::*;
use crate::bots::three_thirteen::{Bot, ThreeThirteenBotSpec};

impl engine::Game for ThreeThirteenGame {
    type State = ThreeThirteenState;

    const NAME: &'static str = "three_thirteen";

    fn schema() -> &'static Schema {
        &SCHEMA
    }

    fn ending_categories() -> &'static [&'static str] {
        &ENDINGS
    }

    /// None: the stock and stall guards (TT-9.3) end rounds, which are
    /// scored, never the game.
    fn guard_endings() -> &'static [&'static str] {
        &[]
    }

    fn from_options(options: &[(String, OptionValue)]) -> Result<Self> {
        ThreeThirteenGame::from_options(options)
    }

    fn to_options(&self) -> Vec<(String, OptionValue)> {
        self.config.to_options()
    }

    fn players(&self) -> usize {
        ThreeThirteenGame::players(self)
    }

    fn num_distinct_actions(&self) -> usize {
        ThreeThirteenGame::num_distinct_actions(self)
    }

    fn observation_size(&self) -> usize {
        ThreeThirteenState::observation_size(self.players())
    }

    fn deal(&self, seed: u64, dealer: Option<u8>) -> Result<ThreeThirteenState> {
        self.new_game(seed, dealer)
    }

    fn action_to_string(&self, action: u16) -> Result<String> {
        ThreeThirteenState::action_to_string(action)
    }

    fn string_to_action(&self, text: &str) -> Result<u16> {
        Ok(parse_action(text)?.encode())
    }

    type BotSpec = ThreeThirteenBotSpec;

    fn parse_bot(spec: &str) -> Result<ThreeThirteenBotSpec> {
        ThreeThirteenBotSpec::parse(spec)
    }

    fn bot_name(spec: &ThreeThirteenBotSpec) -> String {
        spec.name()
    }

    fn new_bot(
        &self,
        spec: &ThreeThirteenBotSpec,
        seed: u64,
    ) -> Box<dyn engine::Controller<ThreeThirteenState>> {
        Box::new(Bot::new(*spec, seed))
    }
}

impl engine::State for ThreeThirteenState {
    type View = ThreeThirteenView;

    fn decision(&self) -> engine::Decision {
        match self.current_player() {
            Some(p) => engine::Decision::Seat(p),
            None => engine::Decision::Terminal,
        }
    }

    fn legal_actions(&self, seat: u8, out: &mut Vec<u16>) {
        if self.current_player() == Some(seat) {
            self.legal_actions_into(out);
        } else {
            out.clear();
        }
    }

    fn is_legal(&self, seat: u8, action: u16) -> bool {
        self.current_player() == Some(seat) && ThreeThirteenState::is_legal(self, action)
    }

    fn apply(&mut self, seat: u8, action: u16, _now: engine::Millis) -> Result<engine::Applied> {
        match self.current_player() {
            Some(p) if p == seat => {
                self.apply_action(action)?;
                Ok(engine::Applied::Done)
            }
            Some(p) => Err(CoreError::IllegalAction(format!(
                "it is seat {p}'s decision, not seat {seat}'s"
            ))),
            None => Err(CoreError::GameOver),
        }
    }

    fn view(&self, seat: u8) -> ThreeThirteenView {
        ThreeThirteenState::view(self, seat)
    }

    fn observation(&self, seat: u8) -> Vec<f32> {
        ThreeThirteenState::observation(self, seat)
    }

    fn determinize(&self, seat: u8, rng: &mut GameRng) -> Self {
        ThreeThirteenState::determinize(self, seat, rng)
    }

    fn returns(&self) -> Vec<i64> {
        ThreeThirteenState::returns(self)
    }

    fn running_returns(&self) -> Vec<i64> {
        ThreeThirteenState::running_returns(self)
    }

    fn write_observation(&self, seat: u8, out: &mut [f32]) {
        ThreeThirteenState::write_observation(self, seat, out)
    }

    fn won(&self, seat: u8) -> bool {
        ThreeThirteenState::won(self, seat)
    }

    fn ending(&self) -> Option<&'static str> {
        self.ending_category()
    }

    fn history(&self) -> &[u16] {
        ThreeThirteenState::history(self)
    }

    fn deals_played(&self) -> u32 {
        u32::try_from(self.round())
            .unwrap_or(u32::MAX)
            .saturating_add(1)
    }

    /// The first round's dealer: with the seed, all a record needs (TT-3.1).
    fn dealer(&self) -> u8 {
        self.first_dealer
    }

    fn deal_source(&self) -> engine::DealSource {
        if self.unrecordable {
            engine::DealSource::Unrecordable
        } else {
            engine::DealSource::Seed(self.seed)
        }
    }

    fn audit(&self) -> std::result::Result<(), String> {
        if self.card_counts_ok() {
            Ok(())
        } else {
            Err("a physical card is missing or counted twice".into())
        }
    }

    fn fingerprint(&self) -> u64 {
        ThreeThirteenState::fingerprint(self)
    }
}
