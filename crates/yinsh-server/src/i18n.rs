//! Server replies in the players' languages: English, Dutch, Polish and German.
//!
//! A reply or error is a [`Msg`]: a stable key (sent to clients too) and named
//! arguments; [`Msg::render`] fills the template of the connection's [`Lang`].

use std::fmt;

use crate::refusal::Refusal;

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

/// The template of a refusal in `lang`: every variant in every language (a new
/// refusal without its texts does not compile).
pub fn refusal_template(lang: Lang, refusal: &Refusal) -> &'static str {
    match lang {
        Lang::En => en_refusal(refusal),
        Lang::Nl => nl_refusal(refusal),
        Lang::Pl => pl_refusal(refusal),
        Lang::De => de_refusal(refusal),
    }
}

/// The English text of each refusal.
fn en_refusal(r: &Refusal) -> &'static str {
    match r {
        Refusal::BadMessage { .. } => "That message could not be read: {reason}.",
        Refusal::TooLarge { .. } => "That message is too large (at most {limit} bytes).",
        Refusal::RateLimited => "Too many messages; wait a moment before sending more.",
        Refusal::NoTable { .. } => "There is no table {table}.",
        Refusal::NotOpen { .. } => "Open table {table} first.",
        Refusal::TooManyTables => "Too many tables are open; try again later.",
        Refusal::TooManyOwnTables { .. } => {
            "You have {limit} tables open already; close one first."
        }
        Refusal::UnknownCommand { .. } => "Unknown command {command}. Type /help for the list.",
        Refusal::CommandUsage { .. } => "Usage: {usage}",
        Refusal::EmptyChat => "Write something first.",
        Refusal::ChatTooLong { .. } => "Chat lines are at most {limit} characters.",
        Refusal::ChatControl => {
            "Chat lines cannot hold control characters such as line breaks or tabs."
        }
        Refusal::ChatBidi => {
            "Chat lines cannot hold characters that turn the direction of the text."
        }
        Refusal::ChatInvisible => "Write something visible.",
        Refusal::SeatTaken { .. } => "The {color} seat is taken.",
        Refusal::NoFreeSeat => "Both seats are taken.",
        Refusal::AlreadySeated { .. } => "You already sit at {color}.",
        Refusal::NotSeated => "Only the players in the seats can do that.",
        Refusal::GameRunning => "Not while the game runs.",
        Refusal::LeaveRunning => "Your game runs: resign before you leave.",
        Refusal::NeedTwoPlayers => "Both seats must be taken to start.",
        Refusal::OpponentAway => "Both players must be at the table to start.",
        Refusal::NoGame => "No game is running.",
        Refusal::NotYourTurn => "It is not your turn.",
        Refusal::Stale => "The game has moved on; look again.",
        Refusal::BadAction { .. } => "{reason}.",
        Refusal::IllegalAction { .. } => "Illegal: {reason}.",
        Refusal::OutOfTime => "Your time ran out.",
        Refusal::BadOption { .. } => "Invalid option: {reason}.",
        Refusal::BadLevel => "The engine's level is 1 to 10.",
        Refusal::BotsDisabled => "The engine is not available on this server.",
        Refusal::RatedGuest => {
            "Rated games are for registered players: sign in, or make the game casual."
        }
        Refusal::RatedEngine => "The engine does not play rated games: make the game casual first.",
        Refusal::NoSeek => "That seek is gone: someone was paired with it, or it was cancelled.",
        Refusal::OwnSeek => "That is your own seek.",
        Refusal::NoChallenge => "That challenge is gone: accepted, declined or withdrawn.",
        Refusal::BadPosition => "That is not a legal position string (see the notation page).",
        Refusal::BotPairing => {
            "A bot account is paired only with players whose seek welcomes bots."
        }
        Refusal::OwnChallenge => "You cannot challenge yourself.",
        Refusal::PlayerOffline { .. } => "Nobody called {name} is online.",
        Refusal::TooManyChallenges { .. } => {
            "You have {limit} challenges out already; withdraw one first."
        }
        Refusal::NothingToTakeBack => "You have not played yet.",
        Refusal::TakebackLimit { .. } => "You have used all {limit} takebacks of this game.",
        Refusal::NothingPending => "There is no offer to answer.",
        Refusal::AlreadyPending => "An offer is already waiting for an answer.",
        Refusal::OwnOffer => "You cannot answer your own offer.",
        Refusal::CannotClaim { .. } => {
            "You can claim the game only when your opponent has been away for {seconds} seconds."
        }
        Refusal::AbortTooLate => {
            "A game can be aborted only until one of the players has made two actions."
        }
        Refusal::ResultPending => {
            "The game is over; its result is saved as soon as the database is back."
        }
        Refusal::StoreUnavailable => {
            "The game could not be saved, so nothing changed; try again in a moment."
        }
        Refusal::Busy => "The table is busy; try again.",
        Refusal::TableMoved => "This table moved to another server; reconnect to play on.",
    }
}

/// The Dutch text of each refusal.
fn nl_refusal(r: &Refusal) -> &'static str {
    match r {
        Refusal::BadMessage { .. } => "Dat bericht kon niet worden gelezen: {reason}.",
        Refusal::TooLarge { .. } => "Dat bericht is te groot (maximaal {limit} bytes).",
        Refusal::RateLimited => "Te veel berichten; wacht even voordat je meer stuurt.",
        Refusal::NoTable { .. } => "Tafel {table} bestaat niet.",
        Refusal::NotOpen { .. } => "Open eerst tafel {table}.",
        Refusal::TooManyTables => "Er zijn te veel tafels open; probeer het later opnieuw.",
        Refusal::TooManyOwnTables { .. } => "Je hebt al {limit} tafels open; sluit er eerst een.",
        Refusal::UnknownCommand { .. } => "Onbekend commando {command}. Typ /help voor de lijst.",
        Refusal::CommandUsage { .. } => "Gebruik: {usage}",
        Refusal::EmptyChat => "Schrijf eerst iets.",
        Refusal::ChatTooLong { .. } => "Chatregels zijn maximaal {limit} tekens lang.",
        Refusal::ChatControl => {
            "Chatregels mogen geen regeleinden, tabs of andere besturingstekens bevatten."
        }
        Refusal::ChatBidi => {
            "Chatregels mogen geen tekens bevatten die de schrijfrichting veranderen."
        }
        Refusal::ChatInvisible => "Die regel bevat niets zichtbaars.",
        Refusal::SeatTaken { .. } => "De plaats van {color} is al bezet.",
        Refusal::NoFreeSeat => "Beide plaatsen zijn bezet.",
        Refusal::AlreadySeated { .. } => "Je speelt al met {color}.",
        Refusal::NotSeated => "Dat kunnen alleen de spelers doen.",
        Refusal::GameRunning => "Niet terwijl het spel loopt.",
        Refusal::LeaveRunning => "Je spel loopt nog: geef op voordat je weggaat.",
        Refusal::NeedTwoPlayers => "Beide plaatsen moeten bezet zijn om te beginnen.",
        Refusal::OpponentAway => "Beide spelers moeten aan tafel zijn om te beginnen.",
        Refusal::NoGame => "Er loopt geen spel.",
        Refusal::NotYourTurn => "Je bent niet aan de beurt.",
        Refusal::Stale => "Het spel is intussen verdergegaan; kijk nog eens.",
        Refusal::BadAction { .. } => "{reason}.",
        Refusal::IllegalAction { .. } => "Niet toegestaan: {reason}.",
        Refusal::OutOfTime => "Je tijd is op.",
        Refusal::BadOption { .. } => "Ongeldige optie: {reason}.",
        Refusal::BadLevel => "Het niveau van de engine loopt van 1 tot 10.",
        Refusal::BotsDisabled => "De engine is niet beschikbaar op deze server.",
        Refusal::RatedGuest => {
            "Spellen met rating zijn voor geregistreerde spelers: meld je aan, of speel zonder rating."
        }
        Refusal::RatedEngine => {
            "De engine speelt geen spellen met rating: zet de rating eerst uit."
        }
        Refusal::NoSeek => {
            "Dat zoekverzoek is weg: iemand is er al mee gekoppeld, of het is ingetrokken."
        }
        Refusal::OwnSeek => "Dat is je eigen zoekverzoek.",
        Refusal::NoChallenge => "Die uitdaging is weg: aangenomen, afgewezen of ingetrokken.",
        Refusal::BadPosition => "Dat is geen geldige stellingsnotatie (zie de notatiepagina).",
        Refusal::BotPairing => {
            "Een bot-account wordt alleen gekoppeld aan spelers die in hun zoekverzoek bots toelaten."
        }
        Refusal::OwnChallenge => "Je kunt jezelf niet uitdagen.",
        Refusal::PlayerOffline { .. } => "Er is niemand online die {name} heet.",
        Refusal::TooManyChallenges { .. } => {
            "Je hebt al {limit} uitdagingen uitstaan; trek er eerst een in."
        }
        Refusal::NothingToTakeBack => "Je hebt nog niet gespeeld.",
        Refusal::TakebackLimit { .. } => "Je hebt alle {limit} terugnames van dit spel gebruikt.",
        Refusal::NothingPending => "Er is geen aanbod om te beantwoorden.",
        Refusal::AlreadyPending => "Er wacht al een aanbod op antwoord.",
        Refusal::OwnOffer => "Je kunt je eigen aanbod niet beantwoorden.",
        Refusal::CannotClaim { .. } => {
            "Je kunt het spel pas opeisen als je tegenstander {seconds} seconden weg is."
        }
        Refusal::AbortTooLate => {
            "Een spel kan alleen worden afgebroken zolang geen van de spelers twee acties heeft gedaan."
        }
        Refusal::ResultPending => {
            "Het spel is voorbij; de uitslag wordt opgeslagen zodra de database terug is."
        }
        Refusal::StoreUnavailable => {
            "Het spel kon niet worden opgeslagen, dus er is niets veranderd; probeer het zo opnieuw."
        }
        Refusal::Busy => "De tafel is even bezig; probeer het opnieuw.",
        Refusal::TableMoved => {
            "Deze tafel is naar een andere server verhuisd; maak opnieuw verbinding om verder te spelen."
        }
    }
}

/// The Polish text of each refusal.
fn pl_refusal(r: &Refusal) -> &'static str {
    match r {
        Refusal::BadMessage { .. } => "Nie udało się odczytać tej wiadomości: {reason}.",
        Refusal::TooLarge { .. } => "Ta wiadomość jest za duża (najwyżej {limit} bajtów).",
        Refusal::RateLimited => "Za dużo wiadomości; odczekaj chwilę, zanim wyślesz kolejne.",
        Refusal::NoTable { .. } => "Nie ma stołu {table}.",
        Refusal::NotOpen { .. } => "Najpierw otwórz stół {table}.",
        Refusal::TooManyTables => "Otwartych jest zbyt wiele stołów; spróbuj później.",
        Refusal::TooManyOwnTables { .. } => {
            "Masz już otwarte stoły: {limit}; najpierw zamknij któryś z nich."
        }
        Refusal::UnknownCommand { .. } => {
            "Nieznane polecenie {command}. Wpisz /help, aby zobaczyć listę."
        }
        Refusal::CommandUsage { .. } => "Użycie: {usage}",
        Refusal::EmptyChat => "Najpierw coś napisz.",
        Refusal::ChatTooLong { .. } => "Wiadomość na czacie może mieć najwyżej {limit} znaków.",
        Refusal::ChatControl => {
            "Wiersz czatu nie może zawierać znaków końca wiersza, tabulatorów ani innych znaków sterujących."
        }
        Refusal::ChatBidi => "Wiersz czatu nie może zawierać znaków zmieniających kierunek pisma.",
        Refusal::ChatInvisible => "Ten wiersz nie zawiera nic widocznego.",
        Refusal::SeatTaken { .. } => "Kolor {color} jest już zajęty.",
        Refusal::NoFreeSeat => "Oba miejsca są zajęte.",
        Refusal::AlreadySeated { .. } => "Już siedzisz po stronie: {color}.",
        Refusal::NotSeated => "Mogą to zrobić tylko gracze.",
        Refusal::GameRunning => "Nie w trakcie gry.",
        Refusal::LeaveRunning => "Twoja gra trwa: poddaj się, zanim wyjdziesz.",
        Refusal::NeedTwoPlayers => "Aby zacząć, oba miejsca muszą być zajęte.",
        Refusal::OpponentAway => "Aby zacząć, obaj gracze muszą być przy stole.",
        Refusal::NoGame => "Nie trwa żadna gra.",
        Refusal::NotYourTurn => "Teraz nie twoja kolej.",
        Refusal::Stale => "Gra poszła już dalej; spójrz jeszcze raz.",
        Refusal::BadAction { .. } => "{reason}.",
        Refusal::IllegalAction { .. } => "Niedozwolone: {reason}.",
        Refusal::OutOfTime => "Skończył ci się czas.",
        Refusal::BadOption { .. } => "Nieprawidłowa opcja: {reason}.",
        Refusal::BadLevel => "Poziom silnika to liczba od 1 do 10.",
        Refusal::BotsDisabled => "Silnik nie jest dostępny na tym serwerze.",
        Refusal::RatedGuest => {
            "Partie rankingowe są dla zarejestrowanych graczy: zaloguj się albo graj bez rankingu."
        }
        Refusal::RatedEngine => "Silnik nie gra partii rankingowych: najpierw wyłącz ranking.",
        Refusal::NoSeek => {
            "To zgłoszenie już nie istnieje: ktoś został z nim sparowany albo je wycofano."
        }
        Refusal::OwnSeek => "To twoje własne zgłoszenie.",
        Refusal::NoChallenge => "To wyzwanie już nie istnieje: przyjęte, odrzucone albo wycofane.",
        Refusal::BadPosition => "To nie jest poprawny zapis pozycji (zob. stronę o notacji).",
        Refusal::BotPairing => {
            "Konto bota jest parowane tylko z graczami, którzy w swoim zgłoszeniu dopuszczają boty."
        }
        Refusal::OwnChallenge => "Nie możesz wyzwać samego siebie.",
        Refusal::PlayerOffline { .. } => "Nikt o nazwie {name} nie jest teraz online.",
        Refusal::TooManyChallenges { .. } => {
            "Masz już {limit} wysłanych wyzwań; najpierw wycofaj jedno."
        }
        Refusal::NothingToTakeBack => "Nie masz jeszcze czego cofnąć.",
        Refusal::TakebackLimit { .. } => {
            "Wykorzystano już wszystkie cofnięcia w tej partii ({limit})."
        }
        Refusal::NothingPending => "Nie ma propozycji, na którą można odpowiedzieć.",
        Refusal::AlreadyPending => "Jedna propozycja już czeka na odpowiedź.",
        Refusal::OwnOffer => "Nie możesz odpowiedzieć na własną propozycję.",
        Refusal::CannotClaim { .. } => {
            "Partię można przejąć dopiero, gdy przeciwnika nie ma od {seconds} sekund."
        }
        Refusal::AbortTooLate => {
            "Partię można przerwać tylko, dopóki żaden z graczy nie wykonał dwóch ruchów."
        }
        Refusal::ResultPending => {
            "Partia jest skończona; wynik zostanie zapisany, gdy baza danych znów zadziała."
        }
        Refusal::StoreUnavailable => {
            "Nie udało się zapisać gry, więc nic się nie zmieniło; spróbuj ponownie za chwilę."
        }
        Refusal::Busy => "Stół jest chwilowo zajęty; spróbuj ponownie.",
        Refusal::TableMoved => {
            "Ten stół przeniesiono na inny serwer; połącz się ponownie, aby grać dalej."
        }
    }
}

/// The German text of each refusal.
fn de_refusal(r: &Refusal) -> &'static str {
    match r {
        Refusal::BadMessage { .. } => "Diese Nachricht konnte nicht gelesen werden: {reason}.",
        Refusal::TooLarge { .. } => "Diese Nachricht ist zu groß (höchstens {limit} Bytes).",
        Refusal::RateLimited => "Zu viele Nachrichten; warte kurz, bevor du weitere sendest.",
        Refusal::NoTable { .. } => "Es gibt keinen Tisch {table}.",
        Refusal::NotOpen { .. } => "Öffne zuerst Tisch {table}.",
        Refusal::TooManyTables => "Es sind zu viele Tische offen; versuch es später noch einmal.",
        Refusal::TooManyOwnTables { .. } => {
            "Du hast schon {limit} Tische offen; schließe zuerst einen."
        }
        Refusal::UnknownCommand { .. } => {
            "Unbekannter Befehl {command}. Gib /help ein, um die Liste zu sehen."
        }
        Refusal::CommandUsage { .. } => "Verwendung: {usage}",
        Refusal::EmptyChat => "Schreib zuerst etwas.",
        Refusal::ChatTooLong { .. } => "Chatzeilen haben höchstens {limit} Zeichen.",
        Refusal::ChatControl => {
            "Chatzeilen dürfen keine Zeilenumbrüche, Tabulatoren oder andere Steuerzeichen enthalten."
        }
        Refusal::ChatBidi => {
            "Chatzeilen dürfen keine Zeichen enthalten, die die Schreibrichtung ändern."
        }
        Refusal::ChatInvisible => "Diese Zeile enthält nichts Sichtbares.",
        Refusal::SeatTaken { .. } => "Der Platz für {color} ist besetzt.",
        Refusal::NoFreeSeat => "Beide Plätze sind besetzt.",
        Refusal::AlreadySeated { .. } => "Du spielst schon {color}.",
        Refusal::NotSeated => "Das können nur die Spieler.",
        Refusal::GameRunning => "Nicht, solange das Spiel läuft.",
        Refusal::LeaveRunning => "Dein Spiel läuft: Gib auf, bevor du gehst.",
        Refusal::NeedTwoPlayers => "Zum Starten müssen beide Plätze besetzt sein.",
        Refusal::OpponentAway => "Beide Spieler müssen zum Beginnen am Tisch sein.",
        Refusal::NoGame => "Es läuft kein Spiel.",
        Refusal::NotYourTurn => "Du bist nicht am Zug.",
        Refusal::Stale => "Das Spiel ist weitergegangen; schau noch einmal hin.",
        Refusal::BadAction { .. } => "{reason}.",
        Refusal::IllegalAction { .. } => "Nicht erlaubt: {reason}.",
        Refusal::OutOfTime => "Deine Zeit ist abgelaufen.",
        Refusal::BadOption { .. } => "Ungültige Option: {reason}.",
        Refusal::BadLevel => "Die Stufe der Engine reicht von 1 bis 10.",
        Refusal::BotsDisabled => "Die Engine ist auf diesem Server nicht verfügbar.",
        Refusal::RatedGuest => {
            "Gewertete Partien sind für registrierte Spieler: melde dich an oder spiele ungewertet."
        }
        Refusal::RatedEngine => {
            "Die Engine spielt keine gewerteten Partien: stelle die Partie zuerst auf ungewertet."
        }
        Refusal::NoSeek => {
            "Diese Suche gibt es nicht mehr: jemand wurde schon gepaart, oder sie wurde abgebrochen."
        }
        Refusal::OwnSeek => "Das ist deine eigene Suche.",
        Refusal::NoChallenge => {
            "Diese Herausforderung gibt es nicht mehr: angenommen, abgelehnt oder zurückgezogen."
        }
        Refusal::BadPosition => {
            "Das ist keine gültige Stellungsnotation (siehe die Notationsseite)."
        }
        Refusal::BotPairing => {
            "Ein Bot-Konto wird nur mit Spielern gepaart, deren Suche Bots zulässt."
        }
        Refusal::OwnChallenge => "Du kannst dich nicht selbst herausfordern.",
        Refusal::PlayerOffline { .. } => "Niemand namens {name} ist online.",
        Refusal::TooManyChallenges { .. } => {
            "Du hast schon {limit} Herausforderungen offen; ziehe zuerst eine zurück."
        }
        Refusal::NothingToTakeBack => "Du hast noch keinen Zug gemacht.",
        Refusal::TakebackLimit { .. } => {
            "Du hast alle {limit} Rücknahmen dieser Partie verbraucht."
        }
        Refusal::NothingPending => "Es gibt kein Angebot zu beantworten.",
        Refusal::AlreadyPending => "Ein Angebot wartet bereits auf Antwort.",
        Refusal::OwnOffer => "Du kannst dein eigenes Angebot nicht beantworten.",
        Refusal::CannotClaim { .. } => {
            "Du kannst die Partie erst beanspruchen, wenn dein Gegner {seconds} Sekunden weg ist."
        }
        Refusal::AbortTooLate => {
            "Eine Partie kann nur abgebrochen werden, solange keiner der Spieler zwei Aktionen gemacht hat."
        }
        Refusal::ResultPending => {
            "Die Partie ist vorbei; das Ergebnis wird gespeichert, sobald die Datenbank wieder da ist."
        }
        Refusal::StoreUnavailable => {
            "Das Spiel konnte nicht gespeichert werden, daher hat sich nichts geändert; versuch es \
         gleich noch einmal."
        }
        Refusal::Busy => "Der Tisch ist gerade beschäftigt; versuch es noch einmal.",
        Refusal::TableMoved => {
            "Dieser Tisch ist auf einen anderen Server umgezogen; verbinde dich neu, um weiterzuspielen."
        }
    }
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
         /option time <min>[+<sec>]|off, /option variant standard|blitz, \
         /option handicap <white> <black>, /option turns <n>|off, /option engine quick|full, \
         /bot [level], /resign, /draw, /takeback, /accept, /decline, /claim [draw], /abort, /who, /help.",
    ),
    ("white", "white"),
    ("black", "black"),
    ("claimed", "You claimed the win."),
    ("claimed_draw", "You claimed a draw."),
    ("aborted", "The game was aborted."),
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
         /option time <min>[+<sec>]|off, /option variant standard|blitz, \
         /option handicap <white> <black>, /option turns <n>|off, /option engine quick|full, \
         /bot [level], /resign, /draw, /takeback, /accept, /decline, /claim [draw], /abort, /who, /help.",
    ),
    ("white", "wit"),
    ("black", "zwart"),
    ("claimed", "Je hebt de winst opgeëist."),
    ("claimed_draw", "Je hebt remise opgeëist."),
    ("aborted", "Het spel is afgebroken."),
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
         /option time <min>[+<sec>]|off, /option variant standard|blitz, \
         /option handicap <white> <black>, /option turns <n>|off, /option engine quick|full, \
         /bot [level], /resign, /draw, /takeback, /accept, /decline, /claim [draw], /abort, /who, /help.",
    ),
    ("white", "biały"),
    ("black", "czarny"),
    ("claimed", "Przejęto zwycięstwo."),
    ("claimed_draw", "Ogłoszono remis."),
    ("aborted", "Partia została przerwana."),
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
         /option time <min>[+<sec>]|off, /option variant standard|blitz, \
         /option handicap <white> <black>, /option turns <n>|off, /option engine quick|full, \
         /bot [level], /resign, /draw, /takeback, /accept, /decline, /claim [draw], /abort, /who, /help.",
    ),
    ("white", "Weiß"),
    ("black", "Schwarz"),
    ("claimed", "Du hast den Sieg beansprucht."),
    ("claimed_draw", "Du hast ein Remis beansprucht."),
    ("aborted", "Die Partie wurde abgebrochen."),
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
