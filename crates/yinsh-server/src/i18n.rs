//! Server replies in the players' languages: English, Dutch, Polish and German.
//!
//! A reply or error is a [`Msg`]: a stable key (sent to clients too) and named
//! arguments; [`Msg::render`] fills the template of the connection's [`Lang`].

use std::fmt;

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

    /// The text in `lang` (English when a template is missing).
    pub fn render(&self, lang: Lang) -> String {
        let template = template(lang, self.key)
            .or_else(|| template(Lang::En, self.key))
            .unwrap_or(self.key);
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
    ("opened", "You are at table {table}."),
    ("closed", "You left table {table}."),
    ("lang_set", "Replies are now in English."),
    ("joined", "You sit at {color}."),
    ("left", "You left your seat."),
    ("started", "The game begins, {color} to play."),
    ("option_set", "Option changed: {option}."),
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
    (
        "help",
        "Commands: /join [white|black], /leave, /start, /option log on|off, \
         /option time <min>[+<sec>]|off, /option variant standard|blitz, \
         /option handicap <white> <black>, /option turns <n>|off, /bot [level], \
         /resign, /draw, /takeback, /accept, /decline, /who, /help.",
    ),
    ("white", "white"),
    ("black", "black"),
    // Errors.
    ("bad_message", "That message could not be read: {reason}."),
    (
        "too_large",
        "That message is too large (at most {limit} bytes).",
    ),
    (
        "rate_limited",
        "Too many messages; wait a moment before sending more.",
    ),
    ("no_table", "There is no table {table}."),
    ("not_open", "Open table {table} first."),
    (
        "too_many_tables",
        "Too many tables are open; try again later.",
    ),
    (
        "too_many_own_tables",
        "You have {limit} tables open already; close one first.",
    ),
    (
        "unknown_command",
        "Unknown command {command}. Type /help for the list.",
    ),
    ("command_usage", "Usage: {usage}"),
    ("empty_chat", "Write something first."),
    (
        "chat_too_long",
        "Chat lines are at most {limit} characters.",
    ),
    ("seat_taken", "The {color} seat is taken."),
    ("no_free_seat", "Both seats are taken."),
    ("already_seated", "You already sit at {color}."),
    ("not_seated", "Only the players in the seats can do that."),
    ("game_running", "Not while the game runs."),
    ("leave_running", "Your game runs: resign before you leave."),
    ("need_two_players", "Both seats must be taken to start."),
    ("no_game", "No game is running."),
    ("not_your_turn", "It is not your turn."),
    ("stale", "The game has moved on; look again."),
    ("bad_action", "{reason}."),
    ("illegal_action", "Illegal: {reason}."),
    ("out_of_time", "Your time ran out."),
    ("bad_option", "Invalid option: {reason}."),
    ("bad_level", "The engine's level is 1 to 10."),
    (
        "bots_disabled",
        "The engine is not available on this server.",
    ),
    ("nothing_to_take_back", "You have not played yet."),
    ("nothing_pending", "There is no offer to answer."),
    (
        "already_pending",
        "An offer is already waiting for an answer.",
    ),
    ("own_offer", "You cannot answer your own offer."),
    (
        "store_unavailable",
        "The game could not be saved, so nothing changed; try again in a moment.",
    ),
    ("busy", "The table is busy; try again."),
];

/// Dutch templates.
pub const NL: &[(&str, &str)] = &[
    // Replies.
    ("created", "Tafel {table} aangemaakt."),
    ("opened", "Je bent aan tafel {table}."),
    ("closed", "Je hebt tafel {table} verlaten."),
    ("lang_set", "Antwoorden zijn nu in het Nederlands."),
    ("joined", "Je speelt met {color}."),
    ("left", "Je hebt je plaats verlaten."),
    ("started", "Het spel begint. Als eerste aan zet: {color}."),
    ("option_set", "Optie gewijzigd: {option}."),
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
    (
        "help",
        "Commando's: /join [white|black], /leave, /start, /option log on|off, \
         /option time <min>[+<sec>]|off, /option variant standard|blitz, \
         /option handicap <white> <black>, /option turns <n>|off, /bot [level], \
         /resign, /draw, /takeback, /accept, /decline, /who, /help.",
    ),
    ("white", "wit"),
    ("black", "zwart"),
    // Errors.
    (
        "bad_message",
        "Dat bericht kon niet worden gelezen: {reason}.",
    ),
    (
        "too_large",
        "Dat bericht is te groot (maximaal {limit} bytes).",
    ),
    (
        "rate_limited",
        "Te veel berichten; wacht even voordat je meer stuurt.",
    ),
    ("no_table", "Tafel {table} bestaat niet."),
    ("not_open", "Open eerst tafel {table}."),
    (
        "too_many_tables",
        "Er zijn te veel tafels open; probeer het later opnieuw.",
    ),
    (
        "too_many_own_tables",
        "Je hebt al {limit} tafels open; sluit er eerst een.",
    ),
    (
        "unknown_command",
        "Onbekend commando {command}. Typ /help voor de lijst.",
    ),
    ("command_usage", "Gebruik: {usage}"),
    ("empty_chat", "Schrijf eerst iets."),
    (
        "chat_too_long",
        "Chatregels zijn maximaal {limit} tekens lang.",
    ),
    ("seat_taken", "De plaats van {color} is al bezet."),
    ("no_free_seat", "Beide plaatsen zijn bezet."),
    ("already_seated", "Je speelt al met {color}."),
    ("not_seated", "Dat kunnen alleen de spelers doen."),
    ("game_running", "Niet terwijl het spel loopt."),
    (
        "leave_running",
        "Je spel loopt nog: geef op voordat je weggaat.",
    ),
    (
        "need_two_players",
        "Beide plaatsen moeten bezet zijn om te beginnen.",
    ),
    ("no_game", "Er loopt geen spel."),
    ("not_your_turn", "Je bent niet aan de beurt."),
    ("stale", "Het spel is intussen verdergegaan; kijk nog eens."),
    ("bad_action", "{reason}."),
    ("illegal_action", "Niet toegestaan: {reason}."),
    ("out_of_time", "Je tijd is op."),
    ("bad_option", "Ongeldige optie: {reason}."),
    ("bad_level", "Het niveau van de engine loopt van 1 tot 10."),
    (
        "bots_disabled",
        "De engine is niet beschikbaar op deze server.",
    ),
    ("nothing_to_take_back", "Je hebt nog niet gespeeld."),
    ("nothing_pending", "Er is geen aanbod om te beantwoorden."),
    ("already_pending", "Er wacht al een aanbod op antwoord."),
    ("own_offer", "Je kunt je eigen aanbod niet beantwoorden."),
    (
        "store_unavailable",
        "Het spel kon niet worden opgeslagen, dus er is niets veranderd; probeer het zo opnieuw.",
    ),
    ("busy", "De tafel is even bezig; probeer het opnieuw."),
];

/// Polish templates.
pub const PL: &[(&str, &str)] = &[
    // Replies.
    ("created", "Utworzono stół {table}."),
    ("opened", "Jesteś przy stole {table}."),
    ("closed", "Nie jesteś już przy stole {table}."),
    ("lang_set", "Odpowiedzi są teraz po polsku."),
    ("joined", "Siedzisz po stronie: {color}."),
    ("left", "Twoje miejsce jest już wolne."),
    ("started", "Gra się zaczyna. Pierwszy ruch: {color}."),
    ("option_set", "Zmieniono opcję: {option}."),
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
    (
        "help",
        "Polecenia: /join [white|black], /leave, /start, /option log on|off, \
         /option time <min>[+<sec>]|off, /option variant standard|blitz, \
         /option handicap <white> <black>, /option turns <n>|off, /bot [level], \
         /resign, /draw, /takeback, /accept, /decline, /who, /help.",
    ),
    ("white", "biały"),
    ("black", "czarny"),
    // Errors.
    (
        "bad_message",
        "Nie udało się odczytać tej wiadomości: {reason}.",
    ),
    (
        "too_large",
        "Ta wiadomość jest za duża (najwyżej {limit} bajtów).",
    ),
    (
        "rate_limited",
        "Za dużo wiadomości; odczekaj chwilę, zanim wyślesz kolejne.",
    ),
    ("no_table", "Nie ma stołu {table}."),
    ("not_open", "Najpierw otwórz stół {table}."),
    (
        "too_many_tables",
        "Otwartych jest zbyt wiele stołów; spróbuj później.",
    ),
    (
        "too_many_own_tables",
        "Masz już otwarte stoły: {limit}; najpierw zamknij któryś z nich.",
    ),
    (
        "unknown_command",
        "Nieznane polecenie {command}. Wpisz /help, aby zobaczyć listę.",
    ),
    ("command_usage", "Użycie: {usage}"),
    ("empty_chat", "Najpierw coś napisz."),
    (
        "chat_too_long",
        "Wiadomość na czacie może mieć najwyżej {limit} znaków.",
    ),
    ("seat_taken", "Kolor {color} jest już zajęty."),
    ("no_free_seat", "Oba miejsca są zajęte."),
    ("already_seated", "Już siedzisz po stronie: {color}."),
    ("not_seated", "Mogą to zrobić tylko gracze."),
    ("game_running", "Nie w trakcie gry."),
    (
        "leave_running",
        "Twoja gra trwa: poddaj się, zanim wyjdziesz.",
    ),
    (
        "need_two_players",
        "Aby zacząć, oba miejsca muszą być zajęte.",
    ),
    ("no_game", "Nie trwa żadna gra."),
    ("not_your_turn", "Teraz nie twoja kolej."),
    ("stale", "Gra poszła już dalej; spójrz jeszcze raz."),
    ("bad_action", "{reason}."),
    ("illegal_action", "Niedozwolone: {reason}."),
    ("out_of_time", "Skończył ci się czas."),
    ("bad_option", "Nieprawidłowa opcja: {reason}."),
    ("bad_level", "Poziom silnika to liczba od 1 do 10."),
    ("bots_disabled", "Silnik nie jest dostępny na tym serwerze."),
    ("nothing_to_take_back", "Nie masz jeszcze czego cofnąć."),
    (
        "nothing_pending",
        "Nie ma propozycji, na którą można odpowiedzieć.",
    ),
    (
        "already_pending",
        "Jedna propozycja już czeka na odpowiedź.",
    ),
    ("own_offer", "Nie możesz odpowiedzieć na własną propozycję."),
    (
        "store_unavailable",
        "Nie udało się zapisać gry, więc nic się nie zmieniło; spróbuj ponownie za chwilę.",
    ),
    ("busy", "Stół jest chwilowo zajęty; spróbuj ponownie."),
];

/// German templates.
pub const DE: &[(&str, &str)] = &[
    // Replies.
    ("created", "Tisch {table} erstellt."),
    ("opened", "Du bist an Tisch {table}."),
    ("closed", "Du hast Tisch {table} verlassen."),
    ("lang_set", "Antworten kommen jetzt auf Deutsch."),
    ("joined", "Du spielst {color}."),
    ("left", "Du hast deinen Platz verlassen."),
    ("started", "Das Spiel beginnt. {color} zieht zuerst."),
    ("option_set", "Option geändert: {option}."),
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
    (
        "help",
        "Befehle: /join [white|black], /leave, /start, /option log on|off, \
         /option time <min>[+<sec>]|off, /option variant standard|blitz, \
         /option handicap <white> <black>, /option turns <n>|off, /bot [level], \
         /resign, /draw, /takeback, /accept, /decline, /who, /help.",
    ),
    ("white", "Weiß"),
    ("black", "Schwarz"),
    // Errors.
    (
        "bad_message",
        "Diese Nachricht konnte nicht gelesen werden: {reason}.",
    ),
    (
        "too_large",
        "Diese Nachricht ist zu groß (höchstens {limit} Bytes).",
    ),
    (
        "rate_limited",
        "Zu viele Nachrichten; warte kurz, bevor du weitere sendest.",
    ),
    ("no_table", "Es gibt keinen Tisch {table}."),
    ("not_open", "Öffne zuerst Tisch {table}."),
    (
        "too_many_tables",
        "Es sind zu viele Tische offen; versuch es später noch einmal.",
    ),
    (
        "too_many_own_tables",
        "Du hast schon {limit} Tische offen; schließe zuerst einen.",
    ),
    (
        "unknown_command",
        "Unbekannter Befehl {command}. Gib /help ein, um die Liste zu sehen.",
    ),
    ("command_usage", "Verwendung: {usage}"),
    ("empty_chat", "Schreib zuerst etwas."),
    (
        "chat_too_long",
        "Chatzeilen haben höchstens {limit} Zeichen.",
    ),
    ("seat_taken", "Der Platz für {color} ist besetzt."),
    ("no_free_seat", "Beide Plätze sind besetzt."),
    ("already_seated", "Du spielst schon {color}."),
    ("not_seated", "Das können nur die Spieler."),
    ("game_running", "Nicht, solange das Spiel läuft."),
    (
        "leave_running",
        "Dein Spiel läuft: Gib auf, bevor du gehst.",
    ),
    (
        "need_two_players",
        "Zum Starten müssen beide Plätze besetzt sein.",
    ),
    ("no_game", "Es läuft kein Spiel."),
    ("not_your_turn", "Du bist nicht am Zug."),
    (
        "stale",
        "Das Spiel ist weitergegangen; schau noch einmal hin.",
    ),
    ("bad_action", "{reason}."),
    ("illegal_action", "Nicht erlaubt: {reason}."),
    ("out_of_time", "Deine Zeit ist abgelaufen."),
    ("bad_option", "Ungültige Option: {reason}."),
    ("bad_level", "Die Stufe der Engine reicht von 1 bis 10."),
    (
        "bots_disabled",
        "Die Engine ist auf diesem Server nicht verfügbar.",
    ),
    ("nothing_to_take_back", "Du hast noch keinen Zug gemacht."),
    ("nothing_pending", "Es gibt kein Angebot zu beantworten."),
    ("already_pending", "Ein Angebot wartet bereits auf Antwort."),
    (
        "own_offer",
        "Du kannst dein eigenes Angebot nicht beantworten.",
    ),
    (
        "store_unavailable",
        "Das Spiel konnte nicht gespeichert werden, daher hat sich nichts geändert; versuch es \
         gleich noch einmal.",
    ),
    (
        "busy",
        "Der Tisch ist gerade beschäftigt; versuch es noch einmal.",
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
