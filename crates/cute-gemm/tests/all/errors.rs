//! Error cases: category and message.
