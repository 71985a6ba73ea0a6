//! Shared test support: the exact reference for triangle predicates and the generators of
//! triangle-pair configurations.

#![allow(dead_code, unreachable_pub)]

pub mod configurations;
pub mod reference;
