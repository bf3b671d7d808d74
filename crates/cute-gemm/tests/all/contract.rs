//! `contract` against a naive loop nest on random tensors.
