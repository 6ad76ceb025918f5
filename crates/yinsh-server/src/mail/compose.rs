//! The mails' words, in the recipient's language: a notice, the daily digest, an
//! address's verification and a password reset, each as plain text and as HTML, with
//! the links the site's pages open.

use crate::game::protocol::NowPlaying;
use crate::i18n::Lang;
use crate::notify::protocol::{Notice, Outcome};

/// A mail's subject and bodies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composed {
    /// The subject.
    pub subject: String,
    /// The plain text.
    pub text: String,
    /// The HTML.
    pub html: String,
}

/// The sentences of one language. `{name}` marks what is filled in.
struct Words {
    hello: &'static str,
    your_turn_subject: &'static str,
    your_turn: &'static str,
    deadline_subject: &'static str,
    deadline: &'static str,
    challenge_subject: &'static str,
    challenge: &'static str,
    won: &'static str,
    lost: &'static str,
    drawn: &'static str,
    game_over: &'static str,
    analysis_subject: &'static str,
    analysis: &'static str,
    tournament_subject: &'static str,
    tournament: &'static str,
    digest_subject: &'static str,
    digest: &'static str,
    digest_line: &'static str,
    no_deadline: &'static str,
    open: &'static str,
    verify_subject: &'static str,
    verify: &'static str,
    reset_subject: &'static str,
    reset: &'static str,
    not_you: &'static str,
    why: &'static str,
    stop: &'static str,
}

const EN: Words = Words {
    hello: "Hello,",
    your_turn_subject: "Your turn against {opponent}",
    your_turn: "It is your move in your correspondence game against {opponent}.",
    deadline_subject: "{hours} h left to move against {opponent}",
    deadline: "You have {hours} hours or less left to move in your game against {opponent}; then the game is lost on time.",
    challenge_subject: "{from} challenged you",
    challenge: "{from} challenged you to a game of YINSH. The challenge waits in the lobby while they are online.",
    won: "You won against {opponent}",
    lost: "You lost against {opponent}",
    drawn: "Your game against {opponent} was drawn",
    game_over: "Your game against {opponent} ended while you were away.",
    analysis_subject: "The analysis of game {game} is ready",
    analysis: "The computer analysis of game {game} is done.",
    tournament_subject: "{name} has begun",
    tournament: "{name}, the tournament you joined, has begun: open it to be paired.",
    digest_subject: "YINSH: games waiting for your move: {count}",
    digest: "These correspondence games wait for your move, the most urgent first:",
    digest_line: "against {opponent}: {left}",
    no_deadline: "no deadline",
    open: "Open it:",
    verify_subject: "Verify your address for YINSH",
    verify: "Open this link to verify that this address is yours. It works for 24 hours.",
    reset_subject: "Reset your YINSH password",
    reset: "Someone (we hope you) asked to reset the password of the account {name}. Open this link to choose a new one. It works for one hour, once.",
    not_you: "If you did not ask for this, ignore this mail: nothing changes.",
    why: "You get this mail because you chose it on your account page:",
    stop: "Stop these mails with one click:",
};

const NL: Words = Words {
    hello: "Hallo,",
    your_turn_subject: "Jouw beurt tegen {opponent}",
    your_turn: "Je bent aan zet in je correspondentiepartij tegen {opponent}.",
    deadline_subject: "Nog {hours} u om te zetten tegen {opponent}",
    deadline: "Je hebt nog {hours} uur of minder om te zetten in je partij tegen {opponent}; daarna is de partij verloren op tijd.",
    challenge_subject: "{from} daagt je uit",
    challenge: "{from} daagt je uit voor een partij YINSH. De uitdaging wacht in de lobby zolang die speler online is.",
    won: "Je hebt gewonnen van {opponent}",
    lost: "Je hebt verloren van {opponent}",
    drawn: "Je partij tegen {opponent} is remise",
    game_over: "Je partij tegen {opponent} is afgelopen terwijl je weg was.",
    analysis_subject: "De analyse van partij {game} is klaar",
    analysis: "De computeranalyse van partij {game} is klaar.",
    tournament_subject: "{name} is begonnen",
    tournament: "{name}, het toernooi waaraan je meedoet, is begonnen: open het om ingedeeld te worden.",
    digest_subject: "YINSH: partijen die op je zet wachten: {count}",
    digest: "Deze correspondentiepartijen wachten op je zet, de dringendste eerst:",
    digest_line: "tegen {opponent}: {left}",
    no_deadline: "geen termijn",
    open: "Openen:",
    verify_subject: "Bevestig je adres voor YINSH",
    verify: "Open deze link om te bevestigen dat dit adres van jou is. Hij werkt 24 uur.",
    reset_subject: "Nieuw wachtwoord voor YINSH",
    reset: "Iemand (hopelijk jij) vroeg een nieuw wachtwoord voor het account {name}. Open deze link om er een te kiezen. Hij werkt een uur, één keer.",
    not_you: "Heb je hier niet om gevraagd, negeer deze mail dan: er verandert niets.",
    why: "Je krijgt deze mail omdat je dat koos op je accountpagina:",
    stop: "Stop deze mails met één klik:",
};

const PL: Words = Words {
    hello: "Cześć,",
    your_turn_subject: "Twój ruch w partii z {opponent}",
    your_turn: "Twój ruch w partii korespondencyjnej z {opponent}.",
    deadline_subject: "Zostało {hours} h na ruch w partii z {opponent}",
    deadline: "Zostało ci {hours} godzin lub mniej na ruch w partii z {opponent}; potem partia jest przegrana na czas.",
    challenge_subject: "{from} wyzywa cię na partię",
    challenge: "{from} wyzywa cię na partię YINSH. Wyzwanie czeka w poczekalni, dopóki ten gracz jest online.",
    won: "Wygrałeś z {opponent}",
    lost: "Przegrałeś z {opponent}",
    drawn: "Twoja partia z {opponent} zakończyła się remisem",
    game_over: "Twoja partia z {opponent} zakończyła się podczas twojej nieobecności.",
    analysis_subject: "Analiza partii {game} jest gotowa",
    analysis: "Komputerowa analiza partii {game} jest gotowa.",
    tournament_subject: "{name} się zaczął",
    tournament: "{name}, turniej, do którego dołączyłeś, się zaczął: otwórz go, by dostać przeciwnika.",
    digest_subject: "YINSH: partie czekające na twój ruch: {count}",
    digest: "Te partie korespondencyjne czekają na twój ruch, najpilniejsze najpierw:",
    digest_line: "z {opponent}: {left}",
    no_deadline: "bez terminu",
    open: "Otwórz:",
    verify_subject: "Potwierdź swój adres w YINSH",
    verify: "Otwórz ten link, aby potwierdzić, że ten adres należy do ciebie. Działa przez 24 godziny.",
    reset_subject: "Nowe hasło do YINSH",
    reset: "Ktoś (mamy nadzieję, że ty) poprosił o nowe hasło do konta {name}. Otwórz ten link, aby je wybrać. Działa przez godzinę, jeden raz.",
    not_you: "Jeśli to nie ty, zignoruj tę wiadomość: nic się nie zmieni.",
    why: "Dostajesz tę wiadomość, bo tak wybrałeś na stronie konta:",
    stop: "Wyłącz te wiadomości jednym kliknięciem:",
};

const DE: Words = Words {
    hello: "Hallo,",
    your_turn_subject: "Du bist am Zug gegen {opponent}",
    your_turn: "Du bist am Zug in deiner Fernpartie gegen {opponent}.",
    deadline_subject: "Noch {hours} h für deinen Zug gegen {opponent}",
    deadline: "Dir bleiben {hours} Stunden oder weniger für deinen Zug in der Partie gegen {opponent}; danach ist die Partie auf Zeit verloren.",
    challenge_subject: "{from} fordert dich heraus",
    challenge: "{from} fordert dich zu einer Partie YINSH heraus. Die Herausforderung wartet in der Lobby, solange dieser Spieler online ist.",
    won: "Du hast gegen {opponent} gewonnen",
    lost: "Du hast gegen {opponent} verloren",
    drawn: "Deine Partie gegen {opponent} endete remis",
    game_over: "Deine Partie gegen {opponent} endete, während du weg warst.",
    analysis_subject: "Die Analyse der Partie {game} ist fertig",
    analysis: "Die Computeranalyse der Partie {game} ist fertig.",
    tournament_subject: "{name} hat begonnen",
    tournament: "{name}, das Turnier, bei dem du mitspielst, hat begonnen: öffne es, um gepaart zu werden.",
    digest_subject: "YINSH: Partien, die auf deinen Zug warten: {count}",
    digest: "Diese Fernpartien warten auf deinen Zug, die dringendste zuerst:",
    digest_line: "gegen {opponent}: {left}",
    no_deadline: "ohne Frist",
    open: "Öffnen:",
    verify_subject: "Bestätige deine Adresse für YINSH",
    verify: "Öffne diesen Link, um zu bestätigen, dass diese Adresse dir gehört. Er gilt 24 Stunden.",
    reset_subject: "Neues Passwort für YINSH",
    reset: "Jemand (hoffentlich du) hat ein neues Passwort für das Konto {name} angefordert. Öffne diesen Link, um eins zu wählen. Er gilt eine Stunde, einmal.",
    not_you: "Wenn du das nicht warst, ignoriere diese Mail: Es ändert sich nichts.",
    why: "Du bekommst diese Mail, weil du sie auf deiner Kontoseite gewählt hast:",
    stop: "Diese Mails mit einem Klick abbestellen:",
};

fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::Nl => &NL,
        Lang::Pl => &PL,
        Lang::De => &DE,
    }
}

/// `template` with each `{name}` of `args` filled in.
fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// Text made safe inside HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Where a mail's links lead: the site's address (no trailing slash).
#[derive(Debug, Clone)]
pub struct Links {
    /// `https://yinsh.example`.
    pub base: String,
}

impl Links {
    /// A page of the client (`#/table/k3`).
    pub fn page(&self, hash: &str) -> String {
        format!("{}/#/{hash}", self.base)
    }

    /// The one-click unsubscription of `token`.
    pub fn unsubscribe(&self, token: &str) -> String {
        format!("{}/mail/unsubscribe/{token}", self.base)
    }

    /// The verification of `token`.
    pub fn verify(&self, token: &str) -> String {
        format!("{}/mail/verify/{token}", self.base)
    }

    /// The password reset of `token`.
    pub fn reset(&self, token: &str) -> String {
        format!("{}/mail/reset/{token}", self.base)
    }
}

/// A mail of paragraphs, a link to open, and the footer (why it came, how to stop it)
/// when it has an unsubscription link.
fn mail(
    lang: Lang,
    subject: String,
    paragraphs: &[String],
    list: &[String],
    link: (&str, &str),
    footer: Option<(&str, &str)>,
) -> Composed {
    let w = words(lang);
    let mut text = format!("{}\n\n", w.hello);
    let mut html = format!(
        "<!DOCTYPE html><html lang=\"{}\"><body style=\"font-family:sans-serif;line-height:1.5\"><p>{}</p>",
        lang.code(),
        escape(w.hello)
    );
    for p in paragraphs {
        text.push_str(p);
        text.push_str("\n\n");
        html.push_str(&format!("<p>{}</p>", escape(p)));
    }
    if !list.is_empty() {
        html.push_str("<ul>");
        for item in list {
            text.push_str(&format!("- {item}\n"));
            html.push_str(&format!("<li>{}</li>", escape(item)));
        }
        html.push_str("</ul>");
        text.push('\n');
    }
    let (label, url) = link;
    text.push_str(&format!("{label} {url}\n"));
    html.push_str(&format!(
        "<p>{} <a href=\"{}\">{}</a></p>",
        escape(label),
        escape(url),
        escape(url)
    ));
    if let Some((settings, unsubscribe)) = footer {
        text.push_str(&format!(
            "\n-- \n{} {settings}\n{} {unsubscribe}\n",
            w.why, w.stop
        ));
        html.push_str(&format!(
            "<hr><p style=\"color:#666;font-size:90%\">{} <a href=\"{}\">{}</a><br>{} <a href=\"{}\">{}</a></p>",
            escape(w.why),
            escape(settings),
            escape(settings),
            escape(w.stop),
            escape(unsubscribe),
            escape(unsubscribe)
        ));
    }
    html.push_str("</body></html>");
    Composed {
        subject,
        text,
        html,
    }
}

/// The mail of a notice, with its unsubscription link.
pub fn notice_mail(lang: Lang, notice: &Notice, links: &Links, unsubscribe: &str) -> Composed {
    let w = words(lang);
    let (subject, paragraph, page) = match notice {
        Notice::YourTurn { table, opponent } => {
            let args = [("opponent", opponent.as_str())];
            (
                fill(w.your_turn_subject, &args),
                fill(w.your_turn, &args),
                format!("table/{table}"),
            )
        }
        Notice::Deadline {
            table,
            opponent,
            hours,
        } => {
            let hours = hours.to_string();
            let args = [("opponent", opponent.as_str()), ("hours", hours.as_str())];
            (
                fill(w.deadline_subject, &args),
                fill(w.deadline, &args),
                format!("table/{table}"),
            )
        }
        Notice::Challenge { from, .. } => {
            let args = [("from", from.as_str())];
            (
                fill(w.challenge_subject, &args),
                fill(w.challenge, &args),
                String::new(),
            )
        }
        Notice::GameOver {
            game,
            opponent,
            outcome,
            ..
        } => {
            let args = [("opponent", opponent.as_str())];
            let subject = match outcome {
                Outcome::Win => w.won,
                Outcome::Loss => w.lost,
                Outcome::Draw => w.drawn,
            };
            (
                fill(subject, &args),
                fill(w.game_over, &args),
                format!("replay/{game}"),
            )
        }
        Notice::Tournament { tournament, name } => {
            let args = [("name", name.as_str())];
            (
                fill(w.tournament_subject, &args),
                fill(w.tournament, &args),
                format!("tournament/{tournament}"),
            )
        }
        Notice::AnalysisReady { game } => {
            let game_id = game.to_string();
            let args = [("game", game_id.as_str())];
            (
                fill(w.analysis_subject, &args),
                fill(w.analysis, &args),
                format!("replay/{game}"),
            )
        }
    };
    let page = links.page(&page);
    let settings = links.page("account");
    mail(
        lang,
        subject,
        &[paragraph],
        &[],
        (w.open, &page),
        Some((&settings, unsubscribe)),
    )
}

/// `2 d 4 h`, `3 h 12 min`, `12 min`: the time left to move.
pub fn left_words(seconds: u64) -> String {
    let (days, hours, minutes) = (
        seconds / 86_400,
        seconds % 86_400 / 3_600,
        seconds % 3_600 / 60,
    );
    if days > 0 {
        format!("{days} d {hours} h")
    } else if hours > 0 {
        format!("{hours} h {minutes} min")
    } else {
        format!("{minutes} min")
    }
}

/// The daily digest of the games waiting for the player (the most urgent first), with
/// its unsubscription link.
pub fn digest_mail(lang: Lang, games: &[NowPlaying], links: &Links, unsubscribe: &str) -> Composed {
    let w = words(lang);
    let count = games.len().to_string();
    let list: Vec<String> = games
        .iter()
        .map(|g| {
            let left = g
                .seconds_left
                .map_or_else(|| w.no_deadline.to_owned(), left_words);
            format!(
                "{} — {}",
                fill(
                    w.digest_line,
                    &[("opponent", g.opponent.username.as_str()), ("left", &left)]
                ),
                links.page(&format!("table/{}", g.game_id))
            )
        })
        .collect();
    let games_page = links.page("games");
    let settings = links.page("account");
    mail(
        lang,
        fill(w.digest_subject, &[("count", &count)]),
        &[w.digest.to_owned()],
        &list,
        (w.open, &games_page),
        Some((&settings, unsubscribe)),
    )
}

/// The verification of an address.
pub fn verify_mail(lang: Lang, link: &str) -> Composed {
    let w = words(lang);
    mail(
        lang,
        w.verify_subject.to_owned(),
        &[w.verify.to_owned(), w.not_you.to_owned()],
        &[],
        (w.open, link),
        None,
    )
}

/// A password reset for the account `name`.
pub fn reset_mail(lang: Lang, name: &str, link: &str) -> Composed {
    let w = words(lang);
    mail(
        lang,
        w.reset_subject.to_owned(),
        &[fill(w.reset, &[("name", name)]), w.not_you.to_owned()],
        &[],
        (w.open, link),
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links() -> Links {
        Links {
            base: "https://yinsh.example".into(),
        }
    }

    #[test]
    fn a_turn_mail_links_the_table_and_its_unsubscription() {
        let notice = Notice::YourTurn {
            table: "k3".into(),
            opponent: "Ann <b>".into(),
        };
        let m = notice_mail(
            Lang::En,
            &notice,
            &links(),
            "https://yinsh.example/mail/unsubscribe/t1",
        );
        assert_eq!(m.subject, "Your turn against Ann <b>");
        assert!(
            m.text.contains("https://yinsh.example/#/table/k3"),
            "{}",
            m.text
        );
        assert!(m.text.contains("https://yinsh.example/mail/unsubscribe/t1"));
        assert!(m.html.contains("Ann &lt;b&gt;"), "{}", m.html);
        assert!(!m.html.contains("<b>"));
        let nl = notice_mail(Lang::Nl, &notice, &links(), "u");
        assert_eq!(nl.subject, "Jouw beurt tegen Ann <b>");
        assert!(nl.html.starts_with("<!DOCTYPE html><html lang=\"nl\">"));
    }

    #[test]
    fn every_language_fills_every_sentence() {
        for lang in Lang::ALL {
            let m = notice_mail(
                lang,
                &Notice::Deadline {
                    table: "k3".into(),
                    opponent: "Bob".into(),
                    hours: 24,
                },
                &links(),
                "u",
            );
            assert!(
                m.subject.contains("24") && m.subject.contains("Bob"),
                "{lang:?}"
            );
            for composed in [m, verify_mail(lang, "v"), reset_mail(lang, "Ann", "r")] {
                assert!(!composed.text.contains('{'), "{lang:?}: {}", composed.text);
            }
        }
    }

    #[test]
    fn the_time_left_is_said_in_its_largest_units() {
        assert_eq!(left_words(2 * 86_400 + 4 * 3_600 + 59), "2 d 4 h");
        assert_eq!(left_words(3 * 3_600 + 12 * 60), "3 h 12 min");
        assert_eq!(left_words(12 * 60 + 30), "12 min");
    }
}
