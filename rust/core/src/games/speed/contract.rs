//! Speed under the engine layer's `Game` and `State` traits (the real-time
//! contract: simultaneous decisions, bounces, engine timers).

use super::*;
use crate::bots::speed as bots;
use crate::engine::realtime::SessionRules;

impl engine::Game for SpeedGame {
    type State = SpeedState;

    const NAME: &'static str = "speed";

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
        SpeedGame::from_options(options)
    }

    fn to_options(&self) -> Vec<(String, OptionValue)> {
        self.config.to_options()
    }

    fn players(&self) -> usize {
        PLAYERS
    }

    fn num_distinct_actions(&self) -> usize {
        SpeedGame::num_distinct_actions(self)
    }

    fn observation_size(&self) -> usize {
        super::view::OBSERVATION_SIZE
    }

    /// Speed has no dealer: `dealer` is ignored.
    fn deal(&self, seed: u64, _dealer: Option<u8>) -> Result<SpeedState> {
        Ok(self.new_game(seed))
    }

    fn session_rules(&self, seed: u64) -> SessionRules {
        SpeedGame::session_rules(self, seed)
    }

    fn action_to_string(&self, action: u16) -> Result<String> {
        SpeedState::action_to_string(action)
    }

    fn string_to_action(&self, text: &str) -> Result<u16> {
        Ok(parse_action(text)?.encode())
    }

    type BotSpec = SpeedBotSpec;

    fn parse_bot(spec: &str) -> Result<SpeedBotSpec> {
        bots::parse_bot(spec)
    }

    fn bot_name(spec: &SpeedBotSpec) -> String {
        spec.name()
    }

    fn new_bot(&self, spec: &SpeedBotSpec, seed: u64) -> Box<dyn engine::Controller<SpeedState>> {
        bots::new_bot(spec, seed)
    }
}

impl engine::State for SpeedState {
    type View = SpeedView;

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

    fn legal_actions(&self, seat: u8, out: &mut Vec<u16>) {
        self.legal_actions_into(seat, out);
    }

    fn is_legal(&self, seat: u8, action: u16) -> bool {
        SpeedState::is_legal(self, seat, action)
    }

    fn is_over(&self) -> bool {
        self.is_terminal()
    }

    fn can_act(&self, seat: u8) -> bool {
        seat < 2 && self.active_mask() >> seat & 1 == 1
    }

    fn apply(&mut self, seat: u8, action: u16, now: Millis) -> Result<engine::Applied> {
        self.apply_action(seat, action, now)
    }

    fn next_timer(&self) -> Option<Millis> {
        SpeedState::next_timer(self)
    }

    fn fire_timer(&mut self, now: Millis) {
        SpeedState::fire_timer(self, now);
    }

    fn view(&self, seat: u8) -> SpeedView {
        SpeedState::view(self, seat)
    }

    fn observation(&self, seat: u8) -> Vec<f32> {
        SpeedState::observation(self, seat)
    }

    fn determinize(&self, seat: u8, rng: &mut GameRng) -> Self {
        SpeedState::determinize(self, seat, rng)
    }

    fn returns(&self) -> Vec<i64> {
        SpeedState::returns(self)
    }

    fn ending(&self) -> Option<&'static str> {
        self.ending_category()
    }

    fn history(&self) -> &[u16] {
        SpeedState::history(self)
    }

    /// SD-4.1: the deal is won by emptying both hand and draw pile.
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

    fn audit(&self) -> std::result::Result<(), String> {
        self.audit_detail()
    }

    fn fingerprint(&self) -> u64 {
        SpeedState::fingerprint(self)
    }
}
