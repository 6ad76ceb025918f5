//! Import of boardspace.net SGF records.
