//! Game records: headers and numbered turns.
