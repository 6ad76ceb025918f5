//! Turns in the official long form (RULES.md §7).
