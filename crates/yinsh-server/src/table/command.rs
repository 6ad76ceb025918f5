//! Chat slash commands (`/join white`, `/option time 10+5`, …) read into [`Command`]s,
//! the same values the buttons send.

use crate::protocol::{
    Command, Correspondence, OptionChange, SeatColor, TableOptions, TimeSetting, VariantName,
};
use crate::refusal::Refusal;

/// Reads a chat line that starts with `/`.
pub fn parse(text: &str) -> Result<Command, Refusal> {
    let mut words = text.trim().trim_start_matches('/').split_whitespace();
    let name = words.next().unwrap_or("").to_ascii_lowercase();
    let args: Vec<&str> = words.collect();
    let usage = |usage: &'static str| Refusal::CommandUsage { usage };
    let no_args = |cmd: Command, u: &'static str| {
        if args.is_empty() {
            Ok(cmd)
        } else {
            Err(usage(u))
        }
    };
    match name.as_str() {
        "join" => match args.as_slice() {
            [] => Ok(Command::Join { color: None }),
            [c] => Ok(Command::Join {
                color: Some(color(c).ok_or_else(|| usage("/join [white|black]"))?),
            }),
            _ => Err(usage("/join [white|black]")),
        },
        "leave" => no_args(Command::Leave, "/leave"),
        "start" => no_args(Command::Start, "/start"),
        "option" => Ok(Command::Option {
            change: option(&args)?,
        }),
        "bot" => match args.as_slice() {
            [] => Ok(Command::Bot { level: None }),
            [l] => Ok(Command::Bot {
                level: Some(
                    l.parse::<u8>()
                        .ok()
                        .filter(|l| (1..=10).contains(l))
                        .ok_or(Refusal::BadLevel)?,
                ),
            }),
            _ => Err(usage("/bot [level]")),
        },
        "resign" => no_args(Command::Resign, "/resign"),
        "draw" => no_args(Command::Draw, "/draw"),
        "takeback" => no_args(Command::Takeback, "/takeback"),
        "accept" => no_args(Command::Accept, "/accept"),
        "decline" => no_args(Command::Decline, "/decline"),
        "claim" => match args.as_slice() {
            [] => Ok(Command::Claim { draw: false }),
            [d] if d.eq_ignore_ascii_case("draw") => Ok(Command::Claim { draw: true }),
            _ => Err(usage("/claim [draw]")),
        },
        "abort" => no_args(Command::Abort, "/abort"),
        "berserk" => no_args(Command::Berserk, "/berserk"),
        "who" => no_args(Command::Who, "/who"),
        "help" => Ok(Command::Help),
        _ => Err(Refusal::UnknownCommand {
            command: format!("/{name}"),
        }),
    }
}

/// `/challenge <name> [<min>[+<sec>]|untimed] [rated|casual] [standard|blitz]
/// [white|black|random]`: whom to challenge, and what differs from the options of the
/// table where it is typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeLine {
    /// The player challenged.
    pub to: String,
    /// The game offered: `options` with what the line says.
    pub options: TableOptions,
    /// The challenger's colour; random when none.
    pub color: Option<SeatColor>,
}

/// The usage of `/challenge`.
pub const CHALLENGE_USAGE: &str = "/challenge <name> [<min>[+<sec>]|<days>d|unlimited|untimed] [rated|casual] [standard|blitz] [white|black|random]";

/// Whether a chat line is a `/challenge` command (which the connection handles, not
/// the table).
pub fn is_challenge(text: &str) -> bool {
    let text = text.trim_start();
    text.starts_with('/')
        && text[1..]
            .split_whitespace()
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("challenge"))
}

/// Reads a `/challenge` line ([`is_challenge`]) typed at a table with `options`.
pub fn challenge(text: &str, options: &TableOptions) -> Result<ChallengeLine, Refusal> {
    let mut words = text
        .trim()
        .trim_start_matches('/')
        .split_whitespace()
        .skip(1);
    let usage = Refusal::CommandUsage {
        usage: CHALLENGE_USAGE,
    };
    let Some(to) = words.next() else {
        return Err(usage);
    };
    let mut line = ChallengeLine {
        to: to.to_owned(),
        options: options.clone(),
        color: None,
    };
    for word in words {
        let w = word.to_ascii_lowercase();
        match w.as_str() {
            "rated" => line.options.rated = true,
            "casual" => line.options.rated = false,
            "standard" => line.options.variant = VariantName::Standard,
            "blitz" => line.options.variant = VariantName::Blitz,
            "untimed" => {
                line.options.time = None;
                line.options.correspondence = None;
            }
            "random" => line.color = None,
            _ => match (
                color(&w),
                time_setting(&w),
                w.strip_suffix('d').and_then(days),
            ) {
                (Some(c), _, _) => line.color = Some(c),
                (None, Some(t), _) => {
                    line.options.time = Some(t);
                    line.options.correspondence = None;
                }
                (None, None, Some(c)) => {
                    line.options.correspondence = Some(c);
                    line.options.time = None;
                }
                (None, None, None) if w == "unlimited" => {
                    line.options.correspondence = Some(Correspondence { days: None });
                    line.options.time = None;
                }
                (None, None, None) => return Err(usage),
            },
        }
    }
    if line.options.variant != options.variant {
        line.options.handicap = None;
    }
    Ok(line)
}

/// `3` (days per turn; whether 3 is allowed is for the options' check to say) or
/// `unlimited`.
fn days(word: &str) -> Option<Correspondence> {
    if word.eq_ignore_ascii_case("unlimited") {
        return Some(Correspondence { days: None });
    }
    word.parse().ok().map(|d| Correspondence { days: Some(d) })
}

fn color(word: &str) -> Option<SeatColor> {
    match word.to_ascii_lowercase().as_str() {
        "white" | "w" => Some(SeatColor::White),
        "black" | "b" => Some(SeatColor::Black),
        _ => None,
    }
}

fn on_off(word: &str) -> Option<bool> {
    match word.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" => Some(true),
        "off" | "no" | "false" => Some(false),
        _ => None,
    }
}

/// Reads `<minutes>[+<seconds>]`.
pub fn time_setting(text: &str) -> Option<TimeSetting> {
    let (min, inc) = text.split_once('+').unwrap_or((text, "0"));
    Some(TimeSetting {
        minutes: min.parse().ok()?,
        increment: inc.parse().ok()?,
    })
}

fn option(args: &[&str]) -> Result<OptionChange, Refusal> {
    let usage = |usage: &'static str| Refusal::CommandUsage { usage };
    let name = args
        .first()
        .map(|s| s.to_ascii_lowercase())
        .unwrap_or_default();
    let rest = &args[args.len().min(1)..];
    match (name.as_str(), rest) {
        ("log", [v]) => on_off(v)
            .map(|on| OptionChange::Log { on })
            .ok_or_else(|| usage("/option log on|off")),
        ("rated", [v]) => on_off(v)
            .map(|on| OptionChange::Rated { on })
            .ok_or_else(|| usage("/option rated on|off")),
        ("time", [v]) if v.eq_ignore_ascii_case("off") => Ok(OptionChange::Time { time: None }),
        ("time", [v]) => time_setting(v)
            .map(|t| OptionChange::Time { time: Some(t) })
            .ok_or_else(|| usage("/option time <min>[+<sec>]|off")),
        ("days", [v]) if v.eq_ignore_ascii_case("off") => Ok(OptionChange::Correspondence {
            correspondence: None,
        }),
        ("days", [v]) => days(v)
            .map(|c| OptionChange::Correspondence {
                correspondence: Some(c),
            })
            .ok_or_else(|| usage("/option days <n>|unlimited|off")),
        ("variant", [v]) => match v.to_ascii_lowercase().as_str() {
            "standard" => Ok(OptionChange::Variant {
                variant: VariantName::Standard,
            }),
            "blitz" => Ok(OptionChange::Variant {
                variant: VariantName::Blitz,
            }),
            _ => Err(usage("/option variant standard|blitz")),
        },
        ("handicap", [w, b]) => match (w.parse(), b.parse()) {
            (Ok(white), Ok(black)) => Ok(OptionChange::Handicap { white, black }),
            _ => Err(usage("/option handicap <white-target> <black-target>")),
        },
        ("turns", [v]) if v.eq_ignore_ascii_case("off") => Ok(OptionChange::Turns { limit: None }),
        ("turns", [v]) => v
            .parse()
            .map(|n| OptionChange::Turns { limit: Some(n) })
            .map_err(|_| usage("/option turns <n>|off")),
        ("engine", [v]) => match v.to_ascii_lowercase().as_str() {
            "full" => Ok(OptionChange::Engine { full: true }),
            "quick" => Ok(OptionChange::Engine { full: false }),
            _ => Err(usage("/option engine quick|full")),
        },
        ("log", _) => Err(usage("/option log on|off")),
        ("rated", _) => Err(usage("/option rated on|off")),
        ("time", _) => Err(usage("/option time <min>[+<sec>]|off")),
        ("days", _) => Err(usage("/option days <n>|unlimited|off")),
        ("variant", _) => Err(usage("/option variant standard|blitz")),
        ("handicap", _) => Err(usage("/option handicap <white-target> <black-target>")),
        ("turns", _) => Err(usage("/option turns <n>|off")),
        ("engine", _) => Err(usage("/option engine quick|full")),
        _ => Err(usage(
            "/option log|rated|time|days|variant|handicap|turns|engine …",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenge_lines_take_the_tables_options_and_change_what_they_say() {
        let table = TableOptions {
            time: Some(TimeSetting {
                minutes: 10,
                increment: 5,
            }),
            ..TableOptions::default()
        };
        assert!(!is_challenge("/join white") && !is_challenge("challenge bob"));
        assert!(is_challenge(" /CHALLENGE bob") && is_challenge("/challenge"));
        let line = challenge("/challenge Ann", &table).unwrap();
        assert_eq!(
            (line.to.as_str(), &line.options, line.color),
            ("Ann", &table, None)
        );
        let line = challenge("/Challenge bob 3+2 RATED blitz black", &table).unwrap();
        assert_eq!(line.to, "bob");
        assert_eq!(
            line.options.time,
            Some(TimeSetting {
                minutes: 3,
                increment: 2
            })
        );
        assert!(line.options.rated);
        assert_eq!(line.options.variant, VariantName::Blitz);
        assert_eq!(line.color, Some(SeatColor::Black));
        let line = challenge("/challenge bob untimed", &table).unwrap();
        assert_eq!(line.options.time, None);
        for bad in ["/challenge", "/challenge bob soon"] {
            assert_eq!(
                challenge(bad, &table),
                Err(Refusal::CommandUsage {
                    usage: CHALLENGE_USAGE
                }),
                "{bad}"
            );
        }
    }

    #[test]
    fn commands_read() {
        assert_eq!(
            parse("/join white"),
            Ok(Command::Join {
                color: Some(SeatColor::White)
            })
        );
        assert_eq!(parse("/JOIN"), Ok(Command::Join { color: None }));
        assert_eq!(parse("/bot 7"), Ok(Command::Bot { level: Some(7) }));
        assert_eq!(
            parse("/option time 10+5"),
            Ok(Command::Option {
                change: OptionChange::Time {
                    time: Some(TimeSetting {
                        minutes: 10,
                        increment: 5
                    })
                }
            })
        );
        assert_eq!(
            parse("/option handicap 2 3"),
            Ok(Command::Option {
                change: OptionChange::Handicap { white: 2, black: 3 }
            })
        );
        assert_eq!(
            parse("/option turns off"),
            Ok(Command::Option {
                change: OptionChange::Turns { limit: None }
            })
        );
        assert_eq!(
            parse("/option engine FULL"),
            Ok(Command::Option {
                change: OptionChange::Engine { full: true }
            })
        );
        assert_eq!(
            parse("/option engine slow"),
            Err(Refusal::CommandUsage {
                usage: "/option engine quick|full"
            })
        );
    }

    #[test]
    fn bad_commands_say_how() {
        assert_eq!(parse("/dance").unwrap_err().code(), "unknown_command");
        assert_eq!(parse("/join green").unwrap_err().code(), "command_usage");
        assert_eq!(parse("/bot 11").unwrap_err(), Refusal::BadLevel);
        assert_eq!(
            parse("/option time soon").unwrap_err().code(),
            "command_usage"
        );
        assert_eq!(parse("/resign now").unwrap_err().code(), "command_usage");
        assert_eq!(parse("/claim later").unwrap_err().code(), "command_usage");
        assert_eq!(parse("/claim DRAW"), Ok(Command::Claim { draw: true }));
        assert_eq!(parse("/abort"), Ok(Command::Abort));
        assert_eq!(parse("/berserk"), Ok(Command::Berserk));
    }
}
