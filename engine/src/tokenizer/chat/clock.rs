//! `strftime_now`, the function Hugging Face offers templates for today's date (gpt-oss's
//! writes it into its system message; Llama 3.1's uses it when present): the current UTC
//! time in Python's `strftime` codes `%Y %y %m %d %e %j %H %M %S %b %B %a %A %p %%`, other
//! codes kept as written.

use std::time::{SystemTime, UNIX_EPOCH};

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
/// From Monday, as the epoch's day (1970-01-01, a Thursday) is counted from.
const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

pub(super) fn strftime_now(format: String) -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    strftime(&format, seconds)
}

/// `format` at `seconds` after the epoch, UTC.
fn strftime(format: &str, seconds: u64) -> String {
    let days = seconds / 86_400;
    let (year, month, day) = civil_from_days(days);
    let (hour, minute, second) = (seconds / 3600 % 24, seconds / 60 % 60, seconds % 60);
    let weekday = ((days + 3) % 7) as usize;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][month as usize - 1];
    let yday = before + day + u64::from(leap && month > 2);
    let month_name = MONTHS[month as usize - 1];
    let mut out = String::with_capacity(format.len() + 16);
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(code) = chars.next() else {
            out.push('%');
            break;
        };
        let piece = match code {
            'Y' => year.to_string(),
            'y' => format!("{:02}", year % 100),
            'm' => format!("{month:02}"),
            'd' => format!("{day:02}"),
            'e' => format!("{day:>2}"),
            'j' => format!("{yday:03}"),
            'H' => format!("{hour:02}"),
            'M' => format!("{minute:02}"),
            'S' => format!("{second:02}"),
            'p' => (if hour < 12 { "AM" } else { "PM" }).to_string(),
            'b' => month_name[..3].to_string(),
            'B' => month_name.to_string(),
            'a' => WEEKDAYS[weekday][..3].to_string(),
            'A' => WEEKDAYS[weekday].to_string(),
            '%' => "%".to_string(),
            other => format!("%{other}"),
        };
        out.push_str(&piece);
    }
    out
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times_format_as_python_does() {
        // 2024-07-26 13:05:09 UTC, a Friday, day 208 of a leap year.
        let t = 1_722_000_000 - 1_722_000_000 % 86_400 + 13 * 3600 + 5 * 60 + 9;
        assert_eq!(strftime("%Y-%m-%d", t), "2024-07-26");
        assert_eq!(strftime("%d %b %Y", t), "26 Jul 2024");
        assert_eq!(
            strftime("%A %B %e, %H:%M:%S %p %j %y %% %Q", t),
            "Friday July 26, 13:05:09 PM 208 24 % %Q"
        );
        assert_eq!(strftime("%a", 0), "Thu");
        assert_eq!(strftime("%Y-%m-%d", 0), "1970-01-01");
        // Leap days and the turn of a century.
        assert_eq!(strftime("%Y-%m-%d %j", 951_782_400), "2000-02-29 060");
        assert_eq!(strftime("%Y-%m-%d", 4_107_542_400), "2100-03-01");
        assert_eq!(strftime("trailing %", 0), "trailing %");
    }
}
