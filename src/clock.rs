//! The timestamps specmint writes (the stores' rows, the passports, the handoff audit rows):
//! RFC 3339 in UTC, formatted by `humantime`.

use std::time::SystemTime;

/// The current time as RFC 3339 UTC with seconds (`2026-08-03T09:15:00Z`).
#[cfg(any(feature = "taskpack", feature = "sqlite", feature = "postgres"))]
pub(crate) fn now_utc() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// The current time as RFC 3339 UTC with milliseconds (`2026-11-30T10:15:14.123Z`).
#[cfg(feature = "handoff")]
pub(crate) fn now_utc_millis() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    fn at(secs: u64, millis: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_millis(millis)
    }
    use super::SystemTime;

    #[test]
    fn rfc3339_of_known_instants() {
        let seconds = |t| humantime::format_rfc3339_seconds(t).to_string();
        assert_eq!(seconds(at(0, 0)), "1970-01-01T00:00:00Z");
        // 2000-02-29 (a leap day in a century leap year) 12:34:56.
        assert_eq!(seconds(at(951_827_696, 0)), "2000-02-29T12:34:56Z");
        assert_eq!(seconds(at(1_785_748_500, 999)), "2026-08-03T09:15:00Z");
        let millis = |t| humantime::format_rfc3339_millis(t).to_string();
        assert_eq!(millis(at(1_785_748_500, 7)), "2026-08-03T09:15:00.007Z");
    }
}
