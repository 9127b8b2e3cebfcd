//! Spit under the engine layer's `Game` and `State` traits.

use super::*;
use crate::bots::spit::{self as bots, SpitBotSpec};

impl engine::Game for SpitGame {
    type State = SpitState;

    const NAME: &'static str = "spit";

    const REAL_TIME: bool = true;

    fn schema() -> &'static Schema {
        &SCHEMA
    }

    fn ending_categories() -> &'static [&'static str] {
        &ENDINGS
    }

    fn guard_endings() -> &'static [&'static str] {
        &GUARD_ENDINGS
    }

    fn from_options(options: &[(String, OptionValue)]) -> Result<Self> {
        SpitGame::from_options(options)
    }

    fn to_options(&self) -> Vec<(String, OptionValue)> {
        self.config.to_options()
    }

    fn players(&self) -> usize {
        2
    }

    fn num_distinct_actions(&self) -> usize {
        usize::from(action::COUNT)
    }

    fn observation_size(&self) -> usize {
        super::view::OBSERVATION_SIZE
    }

    /// The dealer is irrelevant in Spit (always 0).
    fn deal(&self, seed: u64, _dealer: Option<u8>) -> Result<SpitState> {
        Ok(self.new_game(seed))
    }

    fn session_rules(&self, seed: u64) -> SessionRules {
        SessionRules {
            tie_break: self.config.tie_break,
            hands: self.config.hands,
            queue_inputs: self.config.queue_inputs,
            tie_seed: derive_seed(seed, realtime::TIE_STREAM),
            max_virtual_ms: self.config.max_virtual_ms,
        }
    }

    fn action_to_string(&self, action: u16) -> Result<String> {
        Ok(Action::decode(action)?.to_string())
    }

    fn string_to_action(&self, text: &str) -> Result<u16> {
        Ok(parse_action(text)?.encode())
    }

    type BotSpec = SpitBotSpec;

    fn parse_bot(spec: &str) -> Result<SpitBotSpec> {
        bots::parse_bot(spec)
    }

    fn bot_name(spec: &SpitBotSpec) -> String {
        spec.name()
    }

    fn new_bot(&self, spec: &SpitBotSpec, seed: u64) -> Box<dyn engine::Controller<SpitState>> {
        bots::new_bot(spec, seed)
    }
}

impl engine::State for SpitState {
    type View = SpitView;

    fn decision(&self) -> engine::Decision {
        if self.is_terminal() {
            return engine::Decision::Terminal;
        }
        let mask = u64::from(self.can_act(0)) | (u64::from(self.can_act(1)) << 1);
        if mask == 0 {
            engine::Decision::Waiting
        } else {
            engine::Decision::Simultaneous(mask)
        }
    }

    fn legal_actions(&self, seat: u8, out: &mut Vec<u16>) {
        self.legal_actions_into(seat, out);
    }

    fn is_legal(&self, seat: u8, action: u16) -> bool {
        SpitState::is_legal(self, seat, action)
    }

    fn is_over(&self) -> bool {
        self.is_terminal()
    }

    fn can_act(&self, seat: u8) -> bool {
        SpitState::can_act(self, seat)
    }

    fn apply(&mut self, seat: u8, action: u16, now: Millis) -> Result<engine::Applied> {
        self.apply_action(seat, action, now)
    }

    fn next_timer(&self) -> Option<Millis> {
        SpitState::next_timer(self)
    }

    fn fire_timer(&mut self, now: Millis) {
        self.fire(now);
    }

    fn view(&self, seat: u8) -> SpitView {
        SpitState::view(self, seat)
    }

    fn observation(&self, seat: u8) -> Vec<f32> {
        SpitState::observation(self, seat)
    }

    fn determinize(&self, seat: u8, rng: &mut GameRng) -> Self {
        SpitState::determinize(self, seat, rng)
    }

    fn returns(&self) -> Vec<i64> {
        SpitState::returns(self).to_vec()
    }

    fn ending(&self) -> Option<&'static str> {
        self.ending_category()
    }

    fn history(&self) -> &[u16] {
        SpitState::history(self)
    }

    /// SP-5.1: the game is won by having no cards at all.
    fn cards_left(&self, seat: u8) -> Option<usize> {
        Some(self.cards_held(seat))
    }

    fn phase_name(&self) -> Option<&'static str> {
        Some(self.phase().name())
    }

    fn deals_played(&self) -> u32 {
        self.deals()
    }

    fn deal_source(&self) -> engine::DealSource {
        if self.unrecordable {
            engine::DealSource::Unrecordable
        } else {
            engine::DealSource::Seed(self.seed)
        }
    }

    fn audit(&self) -> std::result::Result<(), String> {
        self.check_invariants()
    }

    fn fingerprint(&self) -> u64 {
        SpitState::fingerprint(self)
    }
}
