//! Today's date and time in UTC, for records and default file names (no time zone
//! database needed).

use std::time::{SystemTime, UNIX_EPOCH};

use yinsh::notation::date::civil_from_days;

/// A UTC date and time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTime {
    /// The year.
    pub year: i64,
    /// The month, 1–12.
    pub month: u32,
    /// The day of the month, 1–31.
    pub day: u32,
    /// Seconds since midnight.
    pub seconds: u32,
}

impl DateTime {
    /// The current time (the epoch if the system clock is before it).
    pub fn now() -> DateTime {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        DateTime::from_unix(secs)
    }

    /// The time `secs` seconds after 1970-01-01 00:00 UTC.
    pub fn from_unix(secs: u64) -> DateTime {
        let days = (secs / 86_400) as i64;
        let (year, month, day) = civil_from_days(days);
        DateTime {
            year,
            month,
            day,
            seconds: (secs % 86_400) as u32,
        }
    }

    /// `YYYY.MM.DD`, as records write dates.
    pub fn record_date(&self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }

    /// `YYYYMMDD-HHMMSS`, for file names.
    pub fn stamp(&self) -> String {
        format!(
            "{:04}{:02}{:02}-{:02}{:02}{:02}",
            self.year,
            self.month,
            self.day,
            self.seconds / 3600,
            self.seconds / 60 % 60,
            self.seconds % 60
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        assert_eq!(DateTime::from_unix(0).record_date(), "1970.01.01");
        assert_eq!(DateTime::from_unix(0).stamp(), "19700101-000000");
        // 2000-02-29 12:34:56 UTC.
        let t = DateTime::from_unix(951_827_696);
        assert_eq!(t.record_date(), "2000.02.29");
        assert_eq!(t.stamp(), "20000229-123456");
        // 2026-03-21 00:00:00 UTC.
        assert_eq!(
            DateTime::from_unix(1_774_051_200).record_date(),
            "2026.03.21"
        );
    }
}
