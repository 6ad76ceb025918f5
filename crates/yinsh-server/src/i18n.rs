//! Server replies in the players' languages: English, Dutch, Polish and German.
//!
//! A reply or error is a [`Msg`]: a stable key (sent to clients too) and named
//! arguments; [`Msg::render`] fills the template of the connection's [`Lang`].

use std::fmt;

/// `white` or `black`: the catalogue's word for a colour.
pub fn color_key(color: yinsh::Color) -> &'static str {
    match color {
        yinsh::Color::White => "white",
        yinsh::Color::Black => "black",
    }
}

/// A language the server writes replies in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// English (the default).
    #[default]
    En,
    /// Dutch.
    Nl,
    /// Polish.
    Pl,
    /// German.
    De,
}

impl Lang {
    /// Every language.
    pub const ALL: [Lang; 4] = [Lang::En, Lang::Nl, Lang::Pl, Lang::De];

    /// The language code: `en`, `nl`, `pl` or `de`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Nl => "nl",
            Lang::Pl => "pl",
            Lang::De => "de",
        }
    }

    /// The language of a code (`nl`, `nl-BE`, `DE`, …), if it is one of ours.
    pub fn from_code(code: &str) -> Option<Lang> {
        let primary = code.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The first of ours in an `Accept-Language` header, by preference order.
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut choices: Vec<(f32, Lang)> = header
            .split(',')
            .filter_map(|part| {
                let mut pieces = part.split(';');
                let lang = Lang::from_code(pieces.next()?)?;
                let q = pieces
                    .find_map(|p| p.trim().strip_prefix("q="))
                    .and_then(|q| q.parse::<f32>().ok())
                    .unwrap_or(1.0);
                Some((q, lang))
            })
            .collect();
        choices.sort_by(|a, b| b.0.total_cmp(&a.0));
        choices.first().map(|c| c.1)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A message for one client: a key and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Msg {
    /// The key (also the error code of an error).
    pub key: &'static str,
    /// Named arguments filled into `{name}` places.
    pub args: Vec<(&'static str, Arg)>,
}

/// An argument of a [`Msg`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// Text put in as it is (a name, a number, a token).
    Text(String),
    /// A word of the catalogue, translated too (`white`, `black`).
    Key(&'static str),
    /// A message of its own, rendered in the same language (an engine's name).
    Msg(Box<Msg>),
}

impl Msg {
    /// A message without arguments.
    pub fn new(key: &'static str) -> Msg {
        Msg {
            key,
            args: Vec::new(),
        }
    }

    /// Adds an argument.
    pub fn arg(mut self, name: &'static str, value: impl ToString) -> Msg {
        self.args.push((name, Arg::Text(value.to_string())));
        self
    }

    /// Adds an argument that is itself a catalogue key, translated with the message.
    pub fn arg_key(mut self, name: &'static str, key: &'static str) -> Msg {
        self.args.push((name, Arg::Key(key)));
        self
    }

    /// Adds an argument that is a message of its own, rendered in the same language.
    pub fn arg_msg(mut self, name: &'static str, msg: Msg) -> Msg {
        self.args.push((name, Arg::Msg(Box::new(msg))));
        self
    }

    /// The text in `lang` (English when a template is missing).
    pub fn render(&self, lang: Lang) -> String {
        let template = template(lang, self.key)
            .or_else(|| template(Lang::En, self.key))
            .unwrap_or(self.key);
        self.render_in(lang, template)
    }

    /// `template` with this message's arguments filled in (`lang` for the arguments
    /// that are catalogue words).
    pub(crate) fn render_in(&self, lang: Lang, template: &str) -> String {
        let mut out = String::with_capacity(template.len() + 16);
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            match after.find('}') {
                Some(close) => {
                    let name = &after[..close];
                    match self.args.iter().find(|(n, _)| *n == name) {
                        Some((_, Arg::Text(v))) => out.push_str(v),
                        Some((_, Arg::Key(k))) => out.push_str(&Msg::new(k).render(lang)),
                        Some((_, Arg::Msg(m))) => out.push_str(&m.render(lang)),
                        None => {
                            out.push('{');
                            out.push_str(name);
                            out.push('}');
                        }
                    }
                    rest = &after[close + 1..];
                }
                None => {
                    out.push_str(&rest[open..]);
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// The template of `key` in `lang`.
fn template(lang: Lang, key: &str) -> Option<&'static str> {
    let table = match lang {
        Lang::En => EN,
        Lang::Nl => NL,
        Lang::Pl => PL,
        Lang::De => DE,
    };
    table.iter().find(|(k, _)| *k == key).map(|(_, t)| *t)
}

/// Every key with its English template.
pub const EN: &[(&str, &str)] = &[
    // Replies.
    ("created", "Table {table} created."),
    ("seeking", "Looking for an opponent…"),
    ("watching_analysis", "You follow the analysis of that game."),
    ("analysing", "The engine is thinking about that position."),
    (
        "analysis_queued",
        "The engine is busy: that position is next in line.",
    ),
    ("analysis_stopped", "The engine stopped thinking."),
    ("seek_canceled", "You stopped looking for an opponent."),
    ("challenge_sent", "You challenged {name}."),
    ("challenge_open", "Your challenge is open: share its link."),
    ("challenge_accepted", "Challenge accepted: the game begins."),
    ("challenge_declined", "You declined the challenge."),
    ("challenge_canceled", "You withdrew the challenge."),
    ("opened", "You are at table {table}."),
    ("closed", "You left table {table}."),
    ("lang_set", "Replies are now in English."),
    ("joined", "You sit at {color}."),
    ("left", "You left your seat."),
    ("started", "The game begins, {color} to play."),
    ("option_set", "Option changed: {option}."),
    ("option_unchanged", "The option is already {option}."),
    ("bot_seated", "The engine (level {level}) sits at {color}."),
    ("resigned", "You resigned."),
    ("draw_offered", "You offered a draw."),
    (
        "takeback_requested",
        "You asked to take back your last turn.",
    ),
    ("accepted", "Accepted."),
    ("declined", "Declined."),
    ("chat_sent", "Sent."),
    ("played", "Played {action}."),
    (
        "who",
        "White: {white}. Black: {black}. Spectators: {spectators}.",
    ),
    ("nobody", "nobody"),
    ("engine", "Engine (level {level})"),
    ("guest_name", "{name} (guest)"),
    (
        "help",
        "Commands: /join [white|black], /leave, /start, /option log on|off, /option rated on|off, \
         /option time <min>[+<sec>]|off, /option days <n>|unlimited|off, /option variant standard|blitz, \
         /option handicap <white> <black>, /option turns <n>|off, /option engine quick|full, \
         /bot [level], /resign, /draw, /takeback, /accept, /decline, /claim [draw], /abort, /berserk, /who, /help.",
    ),
    ("white", "white"),
    ("black", "black"),
    ("claimed", "You claimed the win."),
    ("claimed_draw", "You claimed a draw."),
    ("aborted", "The game was aborted."),
    (
        "berserked",
        "You went berserk: half your clock, and no increment.",
    ),
    (
        "result_held",
        "The database is not available: the result is saved as soon as it is back.",
    ),
];

/// Dutch templates.
pub const NL: &[(&str, &str)] = &[
    // Replies.
    ("created", "Tafel {table} aangemaakt."),
    ("seeking", "Op zoek naar een tegenstander…"),
    ("watching_analysis", "Je volgt de analyse van dat spel."),
    ("analysing", "De engine denkt na over die stelling."),
    (
        "analysis_queued",
        "De engine is bezig: die stelling komt zo aan de beurt.",
    ),
    ("analysis_stopped", "De engine denkt niet meer na."),
    ("seek_canceled", "Je zoekt geen tegenstander meer."),
    ("challenge_sent", "Je hebt {name} uitgedaagd."),
    ("challenge_open", "Je uitdaging staat open: deel de link."),
    (
        "challenge_accepted",
        "Uitdaging aangenomen: het spel begint.",
    ),
    ("challenge_declined", "Je hebt de uitdaging afgewezen."),
    ("challenge_canceled", "Je hebt de uitdaging ingetrokken."),
    ("opened", "Je bent aan tafel {table}."),
    ("closed", "Je hebt tafel {table} verlaten."),
    ("lang_set", "Antwoorden zijn nu in het Nederlands."),
    ("joined", "Je speelt met {color}."),
    ("left", "Je hebt je plaats verlaten."),
    ("started", "Het spel begint. Als eerste aan zet: {color}."),
    ("option_set", "Optie gewijzigd: {option}."),
    ("option_unchanged", "De optie is al {option}."),
    (
        "bot_seated",
        "De engine (niveau {level}) speelt met {color}.",
    ),
    ("resigned", "Je hebt opgegeven."),
    ("draw_offered", "Je hebt remise aangeboden."),
    (
        "takeback_requested",
        "Je hebt gevraagd om je laatste beurt terug te nemen.",
    ),
    ("accepted", "Geaccepteerd."),
    ("declined", "Afgewezen."),
    ("chat_sent", "Verzonden."),
    ("played", "{action} gespeeld."),
    (
        "who",
        "Wit: {white}. Zwart: {black}. Toeschouwers: {spectators}.",
    ),
    ("nobody", "niemand"),
    ("engine", "Engine (niveau {level})"),
    ("guest_name", "{name} (gast)"),
    (
        "help",
        "Commando's: /join [white|black], /leave, /start, /option log on|off, /option rated on|off, \
         /option time <min>[+<sec>]|off, /option days <n>|unlimited|off, /option variant standard|blitz, \
         /option handicap <white> <black>, /option turns <n>|off, /option engine quick|full, \
         /bot [level], /resign, /draw, /takeback, /accept, /decline, /claim [draw], /abort, /berserk, /who, /help.",
    ),
    ("white", "wit"),
    ("black", "zwart"),
    ("claimed", "Je hebt de winst opgeëist."),
    ("claimed_draw", "Je hebt remise opgeëist."),
    ("aborted", "Het spel is afgebroken."),
    (
        "berserked",
        "Je gaat berserk: de helft van je klok, en geen extra tijd.",
    ),
    (
        "result_held",
        "De database is niet bereikbaar: de uitslag wordt opgeslagen zodra die terug is.",
    ),
];

/// Polish templates.
pub const PL: &[(&str, &str)] = &[
    // Replies.
    ("created", "Utworzono stół {table}."),
    ("seeking", "Szukam przeciwnika…"),
    ("watching_analysis", "Śledzisz analizę tej partii."),
    ("analysing", "Silnik analizuje tę pozycję."),
    (
        "analysis_queued",
        "Silnik jest zajęty: ta pozycja czeka w kolejce.",
    ),
    ("analysis_stopped", "Silnik przestał analizować."),
    ("seek_canceled", "Przestajesz szukać przeciwnika."),
    ("challenge_sent", "Wyzwano gracza {name}."),
    (
        "challenge_open",
        "Twoje wyzwanie jest otwarte: udostępnij link.",
    ),
    ("challenge_accepted", "Wyzwanie przyjęte: gra się zaczyna."),
    ("challenge_declined", "Odrzucono wyzwanie."),
    ("challenge_canceled", "Wycofano wyzwanie."),
    ("opened", "Jesteś przy stole {table}."),
    ("closed", "Nie jesteś już przy stole {table}."),
    ("lang_set", "Odpowiedzi są teraz po polsku."),
    ("joined", "Siedzisz po stronie: {color}."),
    ("left", "Twoje miejsce jest już wolne."),
    ("started", "Gra się zaczyna. Pierwszy ruch: {color}."),
    ("option_set", "Zmieniono opcję: {option}."),
    ("option_unchanged", "Opcja już jest ustawiona: {option}."),
    (
        "bot_seated",
        "Silnik (poziom {level}) gra po stronie: {color}.",
    ),
    ("resigned", "Poddajesz się."),
    ("draw_offered", "Proponujesz remis."),
    (
        "takeback_requested",
        "Prosisz o cofnięcie swojego ostatniego ruchu.",
    ),
    ("accepted", "Przyjęto."),
    ("declined", "Odrzucono."),
    ("chat_sent", "Wysłano."),
    ("played", "Zagrano {action}."),
    (
        "who",
        "Białe: {white}. Czarne: {black}. Widzowie: {spectators}.",
    ),
    ("nobody", "nikt"),
    ("engine", "Silnik (poziom {level})"),
    ("guest_name", "{name} (gość)"),
    (
        "help",
        "Polecenia: /join [white|black], /leave, /start, /option log on|off, /option rated on|off, \
         /option time <min>[+<sec>]|off, /option days <n>|unlimited|off, /option variant standard|blitz, \
         /option handicap <white> <black>, /option turns <n>|off, /option engine quick|full, \
         /bot [level], /resign, /draw, /takeback, /accept, /decline, /claim [draw], /abort, /berserk, /who, /help.",
    ),
    ("white", "biały"),
    ("black", "czarny"),
    ("claimed", "Przejęto zwycięstwo."),
    ("claimed_draw", "Ogłoszono remis."),
    ("aborted", "Partia została przerwana."),
    (
        "berserked",
        "Berserk: połowa twojego zegara i bez dodawanego czasu.",
    ),
    (
        "result_held",
        "Baza danych jest niedostępna: wynik zostanie zapisany, gdy znów zadziała.",
    ),
];

/// German templates.
pub const DE: &[(&str, &str)] = &[
    // Replies.
    ("created", "Tisch {table} erstellt."),
    ("seeking", "Suche einen Gegner…"),
    ("analysing", "Die Engine denkt über diese Stellung nach."),
    (
        "analysis_queued",
        "Die Engine ist beschäftigt: diese Stellung ist als Nächste dran.",
    ),
    ("analysis_stopped", "Die Engine denkt nicht mehr nach."),
    (
        "watching_analysis",
        "Du verfolgst die Analyse dieser Partie.",
    ),
    ("seek_canceled", "Du suchst keinen Gegner mehr."),
    ("challenge_sent", "Du hast {name} herausgefordert."),
    (
        "challenge_open",
        "Deine Herausforderung ist offen: teile ihren Link.",
    ),
    (
        "challenge_accepted",
        "Herausforderung angenommen: die Partie beginnt.",
    ),
    (
        "challenge_declined",
        "Du hast die Herausforderung abgelehnt.",
    ),
    (
        "challenge_canceled",
        "Du hast die Herausforderung zurückgezogen.",
    ),
    ("opened", "Du bist an Tisch {table}."),
    ("closed", "Du hast Tisch {table} verlassen."),
    ("lang_set", "Antworten kommen jetzt auf Deutsch."),
    ("joined", "Du spielst {color}."),
    ("left", "Du hast deinen Platz verlassen."),
    ("started", "Das Spiel beginnt. {color} zieht zuerst."),
    ("option_set", "Option geändert: {option}."),
    ("option_unchanged", "Die Option ist bereits {option}."),
    ("bot_seated", "Die Engine (Stufe {level}) spielt {color}."),
    ("resigned", "Du hast aufgegeben."),
    ("draw_offered", "Du hast Remis angeboten."),
    (
        "takeback_requested",
        "Du hast um Zurücknahme deines letzten Zugs gebeten.",
    ),
    ("accepted", "Angenommen."),
    ("declined", "Abgelehnt."),
    ("chat_sent", "Gesendet."),
    ("played", "{action} gespielt."),
    (
        "who",
        "Weiß: {white}. Schwarz: {black}. Zuschauer: {spectators}.",
    ),
    ("nobody", "niemand"),
    ("engine", "Engine (Stufe {level})"),
    ("guest_name", "{name} (Gast)"),
    (
        "help",
        "Befehle: /join [white|black], /leave, /start, /option log on|off, /option rated on|off, \
         /option time <min>[+<sec>]|off, /option days <n>|unlimited|off, /option variant standard|blitz, \
         /option handicap <white> <black>, /option turns <n>|off, /option engine quick|full, \
         /bot [level], /resign, /draw, /takeback, /accept, /decline, /claim [draw], /abort, /berserk, /who, /help.",
    ),
    ("white", "Weiß"),
    ("black", "Schwarz"),
    ("claimed", "Du hast den Sieg beansprucht."),
    ("claimed_draw", "Du hast ein Remis beansprucht."),
    ("aborted", "Die Partie wurde abgebrochen."),
    (
        "berserked",
        "Du gehst berserk: die halbe Uhr und keine Zeitzugabe.",
    ),
    (
        "result_held",
        "Die Datenbank ist nicht erreichbar: das Ergebnis wird gespeichert, sobald sie wieder da ist.",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_from_codes_and_headers() {
        assert_eq!(Lang::from_code("nl-BE"), Some(Lang::Nl));
        assert_eq!(Lang::from_code("DE"), Some(Lang::De));
        assert_eq!(Lang::from_code("fr"), None);
        assert_eq!(
            Lang::from_accept_language("fr-FR,fr;q=0.9,pl;q=0.8,de;q=0.7"),
            Some(Lang::Pl)
        );
        assert_eq!(Lang::from_accept_language("de;q=0.5, nl"), Some(Lang::Nl));
        assert_eq!(Lang::from_accept_language("ja"), None);
    }

    #[test]
    fn arguments_fill_their_places() {
        let m = Msg::new("joined").arg_key("color", "white");
        assert_eq!(m.render(Lang::En), "You sit at white.");
        let m = Msg::new("played").arg("action", "e5-e9");
        assert_eq!(m.render(Lang::En), "Played e5-e9.");
        assert_eq!(Msg::new("no_such_key").render(Lang::En), "no_such_key");
    }

    #[test]
    fn every_language_has_every_key_with_the_same_places() {
        fn places(t: &str) -> Vec<&str> {
            let mut v: Vec<&str> = t
                .split('{')
                .skip(1)
                .filter_map(|s| s.split('}').next())
                .collect();
            v.sort_unstable();
            v
        }
        for (table, name) in [(NL, "nl"), (PL, "pl"), (DE, "de")] {
            for (key, en) in EN {
                let t = table
                    .iter()
                    .find(|(k, _)| k == key)
                    .unwrap_or_else(|| panic!("{name} lacks {key}"));
                assert_eq!(places(en), places(t.1), "{name} {key}");
            }
            for (key, _) in table {
                assert!(EN.iter().any(|(k, _)| k == key), "{name} has stray {key}");
            }
        }
    }
}
