//! What every game shares. Today: the option schema ([`options`]); the game,
//! state and controller traits, the session, the arena and the record format
//! follow as the games move onto this layer.

pub mod options;
