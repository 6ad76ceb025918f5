//! The arenas the server makes by itself, so that one is always coming: by default an
//! hourly arena and a daily one (`Config::arenas`; `yinsh serve --no-arena-schedule`
//! makes none). The director makes the next of each as soon as the one before has
//! begun; its id comes from its schedule and start, so a restart or two nodes making it
//! at once make it once.

use super::store::{ArenaSettings, Status, StoredArena};
use crate::protocol::{TimeSetting, VariantName};

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;

/// When a scheduled arena comes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Every {
    /// Every hour, on the hour.
    Hour,
    /// Every day at this hour (UTC).
    Day {
        /// 0–23.
        hour: u8,
    },
}

/// One arena of the schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scheduled {
    /// A letter of its own, the first of its arenas' ids.
    pub key: char,
    /// Its arenas' name.
    pub name: String,
    /// When it comes back.
    pub every: Every,
    /// What its arenas are.
    pub settings: ArenaSettings,
}

/// The schedule a server keeps unless told otherwise: an hourly arena of 3+2 for 55
/// minutes and a daily one at 18:00 UTC of 5+3 for 90 minutes, rated, for people.
pub fn default_schedule() -> Vec<Scheduled> {
    let arena = |minutes, clock_minutes, increment| ArenaSettings {
        minutes,
        clock: TimeSetting {
            minutes: clock_minutes,
            increment,
        },
        variant: VariantName::Standard,
        rated: true,
        bots: false,
    };
    vec![
        Scheduled {
            key: 'h',
            name: "Hourly Arena".to_owned(),
            every: Every::Hour,
            settings: arena(55, 3, 2),
        },
        Scheduled {
            key: 'd',
            name: "Daily Arena".to_owned(),
            every: Every::Day { hour: 18 },
            settings: arena(90, 5, 3),
        },
    ]
}

/// The first start of `every` after `now` (ms since 1970).
pub fn next_start(every: Every, now: i64) -> i64 {
    match every {
        Every::Hour => (now.div_euclid(HOUR_MS) + 1) * HOUR_MS,
        Every::Day { hour } => {
            let today = now.div_euclid(DAY_MS) * DAY_MS + i64::from(hour) * HOUR_MS;
            if today > now { today } else { today + DAY_MS }
        }
    }
}

/// The id of `scheduled`'s arena starting at `starts_at`: its key and the minute it
/// starts, in base 36.
pub fn id_of(scheduled: &Scheduled, starts_at: i64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut minute = starts_at.div_euclid(60_000).max(0);
    let mut digits = Vec::new();
    while minute > 0 {
        digits.push(DIGITS[(minute % 36) as usize] as char);
        minute /= 36;
    }
    let digits: String = digits.iter().rev().collect();
    format!("{}{digits:0>7}", scheduled.key)
}

/// The next arena of `scheduled` after `now`.
pub fn next_arena(scheduled: &Scheduled, now: i64) -> StoredArena {
    let starts_at = next_start(scheduled.every, now);
    StoredArena {
        id: id_of(scheduled, starts_at),
        name: scheduled.name.clone(),
        created_by: None,
        settings: scheduled.settings,
        starts_at,
        ends_at: starts_at + i64::from(scheduled.settings.minutes) * 60_000,
        status: Status::Created,
        created_at: now,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_start_is_the_next_hour_or_the_days_hour_after_now() {
        // 2026-12-08 00:07:01 UTC.
        let now = 1_796_688_421_000;
        let hour = next_start(Every::Hour, now);
        assert_eq!(hour % HOUR_MS, 0);
        assert!(hour > now && hour - now <= HOUR_MS);
        let evening = next_start(Every::Day { hour: 18 }, now);
        assert_eq!(evening % DAY_MS, 18 * HOUR_MS);
        assert!(evening > now && evening - now < DAY_MS);
        // On the hour itself, the next one.
        assert_eq!(next_start(Every::Hour, hour), hour + HOUR_MS);
        assert_eq!(
            next_start(Every::Day { hour: 18 }, evening),
            evening + DAY_MS
        );
    }

    #[test]
    fn each_start_has_an_id_of_its_own_and_always_the_same() {
        let hourly = &default_schedule()[0];
        let a = next_arena(hourly, 1_796_688_421_000);
        let b = next_arena(hourly, 1_796_688_421_000 + 5_000);
        assert_eq!(a.id, b.id);
        assert_eq!(a.id.len(), 8);
        assert!(a.id.starts_with('h'));
        let later = next_arena(hourly, a.starts_at);
        assert_ne!(later.id, a.id);
        assert_eq!(later.starts_at, a.starts_at + HOUR_MS);
        assert_eq!(a.ends_at - a.starts_at, 55 * 60_000);
    }
}
