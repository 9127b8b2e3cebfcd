//! Tonk under the engine layer's `Game` and `State` traits.

use super::*;

impl engine::Game for TonkGame {
    type State = TonkState;

    const NAME: &'static str = "tonk";

    fn schema() -> &'static Schema {
        &SCHEMA
    }

    fn ending_categories() -> &'static [&'static str] {
        &Ending::CATEGORIES
    }

    /// TK-10.7's stall guard (`max_idle_rounds`) cut the hand short.
    fn guard_endings() -> &'static [&'static str] {
        &["stalled"]
    }

    fn from_options(options: &[(String, OptionValue)]) -> Result<Self> {
        TonkGame::from_options(options)
    }

    fn to_options(&self) -> Vec<(String, OptionValue)> {
        self.config.to_options()
    }

    fn players(&self) -> usize {
        TonkGame::players(self)
    }

    fn num_distinct_actions(&self) -> usize {
        TonkGame::num_distinct_actions(self)
    }

    fn observation_size(&self) -> usize {
        TonkState::observation_size(self.players())
    }

    fn deal(&self, seed: u64, dealer: Option<u8>) -> Result<TonkState> {
        self.new_initial_state(seed, dealer)
    }

    fn deal_from_deck(&self, deck: &[Card], dealer: u8) -> Result<TonkState> {
        self.state_from_deck(deck, dealer)
    }

    fn action_to_string(&self, action: u16) -> Result<String> {
        TonkState::action_to_string(action)
    }

    fn string_to_action(&self, text: &str) -> Result<u16> {
        Ok(parse_action(text)?.encode())
    }

    type BotSpec = crate::bots::BotSpec;

    fn parse_bot(spec: &str) -> Result<crate::bots::BotSpec> {
        crate::bots::BotSpec::parse(spec)
    }

    fn bot_name(spec: &crate::bots::BotSpec) -> String {
        spec.name()
    }

    fn new_bot(
        &self,
        spec: &crate::bots::BotSpec,
        seed: u64,
    ) -> Box<dyn engine::Controller<TonkState>> {
        Box::new(crate::bots::tonk::Bot::new(*spec, seed))
    }
}

impl engine::State for TonkState {
    type View = TonkView;

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
        self.current_player() == Some(seat) && TonkState::is_legal(self, action)
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

    fn apply_current(&mut self, action: u16) -> Result<engine::Applied> {
        self.apply_action(action)?;
        Ok(engine::Applied::Done)
    }

    fn view(&self, seat: u8) -> TonkView {
        TonkState::view(self, seat)
    }

    fn observation(&self, seat: u8) -> Vec<f32> {
        TonkState::observation(self, seat)
    }

    fn write_observation(&self, seat: u8, out: &mut [f32]) {
        TonkState::write_observation(self, seat, out)
    }

    fn determinize(&self, seat: u8, rng: &mut GameRng) -> Self {
        TonkState::determinize(self, seat, rng)
    }

    fn returns(&self) -> Vec<i64> {
        TonkState::returns(self)
    }

    fn ending(&self) -> Option<&'static str> {
        self.ending.map(|e| e.category())
    }

    fn history(&self) -> &[u16] {
        TonkState::history(self)
    }

    fn dealer(&self) -> u8 {
        self.dealer
    }

    fn deal_source(&self) -> engine::DealSource {
        if self.is_resampled() {
            engine::DealSource::Unrecordable
        } else if let Some(deck) = self.stacked_deck() {
            engine::DealSource::Deck(deck.to_vec())
        } else {
            engine::DealSource::Seed(self.seed())
        }
    }

    fn audit(&self) -> std::result::Result<(), String> {
        if self.card_locations_ok() {
            Ok(())
        } else {
            Err("a card is missing or in two places".into())
        }
    }

    fn fingerprint(&self) -> u64 {
        let mut h = engine::Fingerprint::default();
        for p in 0..self.cfg.players {
            h.u64(self.hands[usize::from(p)])
                .u64(u64::from(self.lock[usize::from(p)]));
        }
        let cards = |h: &mut engine::Fingerprint, cards: &[Card]| {
            h.u64(cards.len() as u64);
            for c in cards {
                h.bytes(&[c.code()]);
            }
        };
        cards(&mut h, &self.stock);
        cards(&mut h, &self.pile);
        for s in &self.spreads {
            h.bytes(&[s.owner, s.lo, s.hi, u8::from(s.cleared)])
                .u64(s.cards);
        }
        h.bytes(&[self.current, self.turn_player, self.phase as u8]);
        h.bytes(self.ending.map_or("", |e| e.category()).as_bytes());
        for t in self.transfers.iter().chain(&self.side_transfers) {
            h.bytes(&[t.payer, t.payee]).u64(u64::from(t.amount));
        }
        h.finish()
    }
}
