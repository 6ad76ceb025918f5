//! The texts of the refusals: every variant in every language (a new refusal without
//! its texts does not compile).

use super::Refusal;
use crate::i18n::Lang;

/// The template of a refusal in `lang`: every variant in every language (a new
/// refusal without its texts does not compile).
pub(super) fn refusal_template(lang: Lang, refusal: &Refusal) -> &'static str {
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
        Refusal::TournamentTable => "This table belongs to a tournament, which pairs its games.",
        Refusal::CannotBerserk => {
            "Only in a tournament game with a clock, before your first action, and once."
        }
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
        Refusal::TooManySeeks { .. } => {
            "You have {limit} correspondence seeks open already; withdraw one first."
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
        Refusal::TournamentTable => {
            "Deze tafel hoort bij een toernooi, dat zijn partijen zelf indeelt."
        }
        Refusal::CannotBerserk => {
            "Alleen in een toernooipartij met klok, vóór je eerste zet, en één keer."
        }
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
        Refusal::TooManySeeks { .. } => {
            "Je hebt al {limit} correspondentieverzoeken open; trek er eerst een in."
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
        Refusal::TournamentTable => "Ten stół należy do turnieju, który sam kojarzy swoje partie.",
        Refusal::CannotBerserk => {
            "Tylko w partii turniejowej z zegarem, przed twoim pierwszym ruchem, i raz."
        }
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
        Refusal::TooManySeeks { .. } => {
            "Masz już {limit} otwartych ogłoszeń partii korespondencyjnych; najpierw wycofaj jedno."
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
        Refusal::TournamentTable => {
            "Dieser Tisch gehört zu einem Turnier, das seine Partien selbst paart."
        }
        Refusal::CannotBerserk => {
            "Nur in einer Turnierpartie mit Uhr, vor deinem ersten Zug, und einmal."
        }
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
        Refusal::TooManySeeks { .. } => {
            "Du hast schon {limit} Fernpartie-Gesuche offen; ziehe zuerst eines zurück."
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
