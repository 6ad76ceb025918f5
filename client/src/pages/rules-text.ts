// The how-to-play page's words in each language: a short form of docs/rules.md (the
// project's rule text; where they differ, that file is right and this one is wrong).
// Kept out of the catalogues: it is prose, not interface words. TypeScript checks that
// every language has every part.

import type { Lang } from "../i18n";

/** The diagrams of the page, drawn by rules.ts. */
export type Diagram = "setup" | "move-before" | "move-after" | "row";

export interface RulesSection {
  id: string;
  heading: string;
  paragraphs: string[];
  list?: string[];
  /** Paragraphs after the list. */
  after?: string[];
  figures?: { diagram: Diagram; caption: string }[];
}

export interface RulesText {
  title: string;
  intro: string;
  sections: RulesSection[];
  tryIt: string;
  tryLink: string;
}

const en: RulesText = {
  title: "How to play YINSH",
  intro:
    "YINSH is a game for two players, White and Black. Each has five rings; 51 markers, white on one side and black on the other, form a shared pool.",
  sections: [
    {
      id: "goal",
      heading: "Goal",
      paragraphs: [
        "Make rows of five markers of your colour. Each row you make lets you take one of your rings off the board. The first player to remove three rings wins (in the blitz variant: one ring).",
        "The fewer rings you have left, the fewer moves you have: every ring you win makes the rest harder.",
      ],
    },
    {
      id: "setup",
      heading: "Placing the rings",
      paragraphs: [
        "The board has 85 points where its lines cross, edge points included. It starts empty. The players take turns placing one of their rings on any empty point, White first, until all ten rings are on the board. Then White makes the first ring move.",
      ],
      figures: [{ diagram: "setup", caption: "All ten rings placed: White's five and Black's five." }],
    },
    {
      id: "move",
      heading: "Moving a ring and flipping markers",
      paragraphs: [
        "On your turn, take a marker from the pool, put it with your colour up into one of your rings, then move that ring in a straight line along one of the board's lines. The marker stays behind on the point the ring left.",
      ],
      list: [
        "The ring must move at least one point and lands on an empty point.",
        "It may pass over any number of empty points.",
        "It may jump over one unbroken group of markers of any colours; then it must land on the first empty point directly behind the group (it may not go on, nor jump a second group).",
        "It may never pass over or land on a ring.",
      ],
      after: [
        "Every marker the ring jumped over flips to the other colour. The marker just left at the start point does not flip.",
        "Only a ring that can go somewhere may be chosen. A player who cannot move any ring passes: no marker is taken and the opponent plays.",
      ],
      figures: [
        {
          diagram: "move-before",
          caption: "White's ring on e2 moves up its line. It may stop on e3 or e4, or jump the three markers and land on e8 — not on e9.",
        },
        {
          diagram: "move-after",
          caption: "After e2-e8: a white marker stays on e2, and the three markers jumped over have flipped.",
        },
      ],
    },
    {
      id: "rows",
      heading: "Rows and removing a ring",
      paragraphs: [
        "A row is five markers of one colour next to each other on one line (a ring in between breaks it). A row belongs to the player whose colour it shows, whoever made it — a move can make a row for the opponent.",
        "The owner removes the row's five markers (they go back to the pool), then removes one of their own rings, any one they choose. That ring counts as a point.",
      ],
      list: [
        "A line of more than five: the owner picks any five markers in a row of it.",
        "Several rows: one row and one ring at a time, as long as the player still has a row (rows that cross share a marker, so only one of them can be taken).",
        "After a move, the mover removes their rows first, then the opponent removes theirs, and then the opponent moves.",
      ],
      figures: [{ diagram: "row", caption: "Five white markers from c3 to g3: White removes them, then one white ring." }],
    },
    {
      id: "end",
      heading: "End of the game",
      paragraphs: [],
      list: [
        "A player who removes their third ring (in blitz: their first) wins at once. If one move gives both players their last row, the player who moved wins.",
        "When the pool runs out — the last marker is used and no row is left to remove (a removed row puts its five markers back, and play goes on) — the game ends: whoever has removed more rings wins; equal is a draw.",
        "If neither player can move a ring, the game ends and is scored the same way.",
        "A game can also end by resignation, on time, or by an agreed draw. Tables can set a handicap (each player's own number of rings to win) and a turn limit (after that many ring moves the game is scored as above).",
      ],
    },
    {
      id: "correspondence",
      heading: "Games across days (correspondence)",
      paragraphs: [
        "A correspondence game gives each turn days instead of a clock: 1, 2, 3, 5, 7, 10 or 14 days per turn, or no limit at all. Every turn begins with the whole allowance again, and a turn is all of it: the ring move and any rows and rings removed after it.",
      ],
      list: [
        "Start one from the lobby's “Games across days” (a seek that stays open while you are away, for anyone to accept), by a challenge with a pace in days, or at a table with the Pace option.",
        "Play when it suits you: the game waits, and nobody can claim it because you are away. My games lists the games waiting for your move, and the bell tells you when it is your turn — by mail too, once you add a verified address on your account page.",
        "You are warned 24 hours and 1 hour before a deadline. A player who lets the deadline pass loses on time — unless they have vacation left.",
        "Vacation: an account has 10 days a year. When your deadline passes, an hour is spent by itself and the deadline moves an hour on, hour after hour, until you play or the days are used up. Both players see how much is left beside the clocks. Guests and bots have none.",
        "Confirm turn, below the board, is on in correspondence games: your ring move and the rows and rings you remove after it are shown first, and sent together when you press Confirm (Undo starts the turn again). Switch it off there, or on for live games.",
        "Rated correspondence games have ratings of their own (Standard or Blitz · Correspondence); games without a limit are never rated.",
      ],
    },
  ],
  tryIt: "Ready to try?",
  tryLink: "Play the engine from the lobby",
};

const nl: RulesText = {
  title: "Zo speel je YINSH",
  intro:
    "YINSH is een spel voor twee spelers, Wit en Zwart. Elk heeft vijf ringen; 51 markers, aan de ene kant wit en aan de andere zwart, vormen een gezamenlijke voorraad.",
  sections: [
    {
      id: "goal",
      heading: "Doel",
      paragraphs: [
        "Maak rijen van vijf markers in je eigen kleur. Voor elke rij die je maakt, haal je een van je ringen van het bord. Wie als eerste drie ringen heeft weggenomen, wint (in de variant blitz: één ring).",
        "Hoe minder ringen je over hebt, hoe minder zetten je hebt: elke ring die je wint, maakt de rest moeilijker.",
      ],
    },
    {
      id: "setup",
      heading: "Ringen plaatsen",
      paragraphs: [
        "Het bord heeft 85 punten waar de lijnen elkaar kruisen, de randpunten meegeteld. Het begint leeg. De spelers plaatsen om de beurt een van hun ringen op een leeg punt naar keuze, Wit eerst, tot alle tien ringen op het bord staan. Daarna doet Wit de eerste ringzet.",
      ],
      figures: [{ diagram: "setup", caption: "Alle tien ringen geplaatst: de vijf van Wit en de vijf van Zwart." }],
    },
    {
      id: "move",
      heading: "Een ring verzetten en markers omdraaien",
      paragraphs: [
        "Als je aan de beurt bent, neem je een marker uit de voorraad, leg je die met je eigen kleur boven in een van je ringen en verzet je die ring in een rechte lijn langs een van de lijnen van het bord. De marker blijft achter op het punt dat de ring verlaat.",
      ],
      list: [
        "De ring gaat minstens één punt verder en landt op een leeg punt.",
        "Hij mag over willekeurig veel lege punten gaan.",
        "Hij mag over één aaneengesloten groep markers springen, van welke kleuren ook; dan moet hij landen op het eerste lege punt direct achter de groep (hij mag niet verder, en niet over een tweede groep).",
        "Hij mag nooit over een ring gaan of op een ring landen.",
      ],
      after: [
        "Elke marker waar de ring overheen sprong, wordt omgedraaid naar de andere kleur. De marker die net op het beginpunt achterbleef, draait niet om.",
        "Alleen een ring die ergens heen kan, mag gekozen worden. Een speler die geen enkele ring kan verzetten, past: er wordt geen marker genomen en de tegenstander is aan de beurt.",
      ],
      figures: [
        {
          diagram: "move-before",
          caption: "De ring van Wit op e2 gaat omhoog langs zijn lijn. Hij mag stoppen op e3 of e4, of over de drie markers springen en op e8 landen — niet op e9.",
        },
        {
          diagram: "move-after",
          caption: "Na e2-e8: op e2 blijft een witte marker achter, en de drie overgesprongen markers zijn omgedraaid.",
        },
      ],
    },
    {
      id: "rows",
      heading: "Rijen en een ring wegnemen",
      paragraphs: [
        "Een rij is vijf markers van één kleur naast elkaar op één lijn (een ring ertussen onderbreekt hem). Een rij hoort bij de speler wiens kleur hij toont, wie hem ook maakte — een zet kan een rij voor de tegenstander maken.",
        "De eigenaar neemt de vijf markers van de rij weg (ze gaan terug naar de voorraad) en neemt daarna een van zijn eigen ringen weg, welke hij wil. Die ring telt als een punt.",
      ],
      list: [
        "Een lijn van meer dan vijf: de eigenaar kiest er vijf aaneengesloten markers uit.",
        "Meerdere rijen: telkens één rij en één ring, zolang de speler nog een rij heeft (rijen die elkaar kruisen delen een marker, dus maar één ervan kan worden genomen).",
        "Na een zet neemt eerst de speler die zette zijn rijen weg, daarna de tegenstander de zijne, en dan zet de tegenstander.",
      ],
      figures: [{ diagram: "row", caption: "Vijf witte markers van c3 tot g3: Wit neemt ze weg, en daarna een witte ring." }],
    },
    {
      id: "end",
      heading: "Einde van de partij",
      paragraphs: [],
      list: [
        "Wie zijn derde ring wegneemt (in blitz: zijn eerste), wint meteen. Geeft één zet beide spelers hun laatste rij, dan wint de speler die zette.",
        "Raakt de voorraad op — de laatste marker is gebruikt en er is geen rij meer weg te nemen (een weggenomen rij legt haar vijf markers terug, en het spel gaat door) — dan eindigt de partij: wie meer ringen heeft weggenomen, wint; gelijk is remise.",
        "Kan geen van beide spelers een ring verzetten, dan eindigt de partij en telt het op dezelfde manier.",
        "Een partij kan ook eindigen door opgeven, door tijd of door een afgesproken remise. Tafels kunnen een handicap instellen (voor elke speler een eigen aantal ringen om te winnen) en een limiet van beurten (na zoveel ringzetten telt de partij zoals hierboven).",
      ],
    },
    {
      id: "correspondence",
      heading: "Partijen over dagen (correspondentie)",
      paragraphs: [
        "Een correspondentiepartij geeft elke beurt dagen in plaats van een klok: 1, 2, 3, 5, 7, 10 of 14 dagen per beurt, of helemaal geen limiet. Elke beurt begint weer met de hele tijd, en een beurt is alles samen: de ringzet en de rijen en ringen die daarna worden weggenomen.",
      ],
      list: [
        "Begin er een via “Partijen over dagen” in de lobby (een verzoek dat open blijft terwijl je weg bent, voor wie het maar aanneemt), met een uitdaging met een tempo in dagen, of aan een tafel met de optie Tempo.",
        "Speel wanneer het je uitkomt: de partij wacht, en niemand kan haar opeisen omdat je weg bent. Mijn partijen toont de partijen die op je zet wachten, en de bel meldt wanneer je aan de beurt bent — ook per mail, zodra je op je accountpagina een bevestigd adres opgeeft.",
        "Je wordt 24 uur en 1 uur voor een termijn gewaarschuwd. Wie de termijn laat verlopen, verliest op tijd — tenzij er nog vakantie over is.",
        "Vakantie: een account heeft 10 dagen per jaar. Verloopt je termijn, dan gaat er vanzelf een uur af en schuift de termijn een uur op, uur na uur, tot je speelt of de dagen op zijn. Beide spelers zien naast de klokken hoeveel er over is. Gasten en bots hebben geen vakantie.",
        "Beurt bevestigen, onder het bord, staat aan in correspondentiepartijen: je ringzet en de rijen en ringen die je daarna wegneemt worden eerst getoond, en samen verstuurd als je op Bevestigen drukt (Ongedaan maken begint de beurt opnieuw). Zet het daar uit, of aan voor livepartijen.",
        "Correspondentiepartijen voor de rating hebben hun eigen ratings (Standaard of Blitz · Correspondentie); partijen zonder limiet tellen nooit voor de rating.",
      ],
    },
  ],
  tryIt: "Klaar om het te proberen?",
  tryLink: "Speel vanuit de lobby tegen de engine",
};

const pl: RulesText = {
  title: "Jak grać w YINSH",
  intro:
    "YINSH to gra dla dwóch graczy, Białego i Czarnego. Każdy ma pięć pierścieni; 51 znaczników, z jednej strony białych, z drugiej czarnych, tworzy wspólną pulę.",
  sections: [
    {
      id: "goal",
      heading: "Cel gry",
      paragraphs: [
        "Układaj rzędy z pięciu znaczników swojego koloru. Za każdy ułożony rząd zdejmujesz z planszy jeden ze swoich pierścieni. Wygrywa ten, kto pierwszy zdejmie trzy pierścienie (w wariancie blitz: jeden).",
        "Im mniej masz pierścieni, tym mniej masz ruchów: każdy zdobyty pierścień utrudnia dalszą grę.",
      ],
    },
    {
      id: "setup",
      heading: "Rozstawianie pierścieni",
      paragraphs: [
        "Plansza ma 85 punktów na przecięciach linii, łącznie z punktami na brzegu. Na początku jest pusta. Gracze na zmianę stawiają po jednym swoim pierścieniu na dowolnym wolnym punkcie, zaczyna Biały, aż wszystkie dziesięć pierścieni stanie na planszy. Potem Biały wykonuje pierwszy ruch pierścieniem.",
      ],
      figures: [{ diagram: "setup", caption: "Wszystkie dziesięć pierścieni na planszy: pięć Białego i pięć Czarnego." }],
    },
    {
      id: "move",
      heading: "Ruch pierścieniem i odwracanie znaczników",
      paragraphs: [
        "W swoim ruchu weź znacznik z puli, włóż go swoim kolorem do góry do jednego ze swoich pierścieni, a potem przesuń ten pierścień po linii prostej wzdłuż jednej z linii planszy. Znacznik zostaje na punkcie, z którego pierścień wyruszył.",
      ],
      list: [
        "Pierścień przesuwa się co najmniej o jeden punkt i staje na wolnym punkcie.",
        "Może minąć dowolnie wiele wolnych punktów.",
        "Może przeskoczyć jedną nieprzerwaną grupę znaczników w dowolnych kolorach; wtedy musi stanąć na pierwszym wolnym punkcie tuż za grupą (nie może iść dalej ani przeskoczyć drugiej grupy).",
        "Nigdy nie może przejść nad pierścieniem ani na nim stanąć.",
      ],
      after: [
        "Każdy przeskoczony znacznik zostaje odwrócony na drugi kolor. Znacznik pozostawiony właśnie na punkcie startowym się nie odwraca.",
        "Wybrać można tylko pierścień, który ma dokąd pójść. Gracz, który nie może ruszyć żadnym pierścieniem, pasuje: nie bierze znacznika, a ruch ma przeciwnik.",
      ],
      figures: [
        {
          diagram: "move-before",
          caption: "Biały pierścień z e2 idzie w górę swojej linii. Może stanąć na e3 lub e4 albo przeskoczyć trzy znaczniki i stanąć na e8 — nie na e9.",
        },
        {
          diagram: "move-after",
          caption: "Po e2-e8: na e2 zostaje biały znacznik, a trzy przeskoczone znaczniki są odwrócone.",
        },
      ],
    },
    {
      id: "rows",
      heading: "Rzędy i zdejmowanie pierścienia",
      paragraphs: [
        "Rząd to pięć znaczników jednego koloru obok siebie na jednej linii (pierścień pomiędzy nimi go przerywa). Rząd należy do gracza, którego kolor pokazuje, niezależnie od tego, kto go ułożył — ruch może ułożyć rząd przeciwnikowi.",
        "Właściciel zdejmuje pięć znaczników rzędu (wracają do puli), a potem zdejmuje jeden ze swoich pierścieni, dowolnie wybrany. Ten pierścień liczy się jako punkt.",
      ],
      list: [
        "Linia dłuższa niż pięć: właściciel wybiera z niej dowolne pięć znaczników leżących obok siebie.",
        "Kilka rzędów: po jednym rzędzie i jednym pierścieniu, dopóki gracz ma jeszcze jakiś rząd (rzędy, które się krzyżują, mają wspólny znacznik, więc zdjąć można tylko jeden z nich).",
        "Po ruchu najpierw gracz, który go wykonał, zdejmuje swoje rzędy, potem przeciwnik swoje, a potem przeciwnik wykonuje ruch.",
      ],
      figures: [{ diagram: "row", caption: "Pięć białych znaczników od c3 do g3: Biały zdejmuje je, a potem jeden biały pierścień." }],
    },
    {
      id: "end",
      heading: "Koniec gry",
      paragraphs: [],
      list: [
        "Gracz, który zdejmie swój trzeci pierścień (w blitzu: pierwszy), od razu wygrywa. Jeśli jeden ruch daje obu graczom ich ostatni rząd, wygrywa ten, kto wykonał ruch.",
        "Gdy pula się wyczerpie — ostatni znacznik został użyty i nie ma już rzędu do zdjęcia (zdjęty rząd oddaje swoje pięć znaczników do puli i gra toczy się dalej) — gra się kończy: wygrywa ten, kto zdjął więcej pierścieni; przy równej liczbie jest remis.",
        "Jeśli żaden z graczy nie może ruszyć pierścieniem, gra się kończy i liczy się tak samo.",
        "Partia może się też zakończyć poddaniem, przekroczeniem czasu albo uzgodnionym remisem. Stół może ustawić forę (każdy gracz ma własną liczbę pierścieni do wygranej) i limit tur (po tylu ruchach pierścieniem partia liczy się jak wyżej).",
      ],
    },
    {
      id: "correspondence",
      heading: "Partie na wiele dni (korespondencyjne)",
      paragraphs: [
        "Partia korespondencyjna daje na każdą turę dni zamiast zegara: 1, 2, 3, 5, 7, 10 lub 14 dni na turę albo bez limitu. Każda tura zaczyna się znów z pełnym czasem, a tura to wszystko razem: ruch pierścieniem oraz usunięte po nim rzędy i pierścienie.",
      ],
      list: [
        "Zacznij ją z „Partii na wiele dni” w poczekalni (ogłoszenie czeka, gdy cię nie ma, aż ktoś je przyjmie), wyzwaniem z tempem w dniach albo przy stole z opcją Tempo.",
        "Graj, kiedy ci pasuje: partia czeka i nikt nie może jej przejąć z powodu twojej nieobecności. Moje partie pokazują partie czekające na twój ruch, a dzwonek mówi, kiedy twoja kolej — także pocztą, gdy podasz potwierdzony adres na stronie konta.",
        "Dostajesz ostrzeżenie 24 godziny i 1 godzinę przed terminem. Kto przekroczy termin, przegrywa na czas — chyba że zostały mu dni urlopu.",
        "Urlop: konto ma 10 dni w roku. Gdy mija twój termin, sama odlicza się godzina, a termin przesuwa się o godzinę, godzina po godzinie, aż zagrasz albo dni się skończą. Obaj gracze widzą przy zegarach, ile zostało. Goście i boty nie mają urlopu.",
        "Potwierdzanie tury, pod planszą, jest włączone w partiach korespondencyjnych: ruch pierścieniem oraz rzędy i pierścienie usuwane po nim najpierw się pokazują, a wysyłają razem po naciśnięciu Potwierdź (Cofnij zaczyna turę od nowa). Tam też je wyłączysz albo włączysz dla partii na żywo.",
        "Rankingowe partie korespondencyjne mają własne rankingi (Standard lub Blitz · Korespondencja); partie bez limitu nigdy nie są rankingowe.",
      ],
    },
  ],
  tryIt: "Chcesz spróbować?",
  tryLink: "Zagraj z komputerem w poczekalni",
};

const de: RulesText = {
  title: "So wird YINSH gespielt",
  intro:
    "YINSH ist ein Spiel für zwei, Weiß und Schwarz. Jeder hat fünf Ringe; 51 Markierungen, auf einer Seite weiß und auf der anderen schwarz, bilden einen gemeinsamen Vorrat.",
  sections: [
    {
      id: "goal",
      heading: "Ziel",
      paragraphs: [
        "Bilde Reihen aus fünf Markierungen deiner Farbe. Für jede Reihe nimmst du einen deiner Ringe vom Brett. Wer zuerst drei Ringe entfernt hat, gewinnt (in der Variante Blitz: einen Ring).",
        "Je weniger Ringe du noch hast, desto weniger Züge hast du: Jeder gewonnene Ring macht den Rest schwerer.",
      ],
    },
    {
      id: "setup",
      heading: "Ringe setzen",
      paragraphs: [
        "Das Brett hat 85 Punkte, wo sich seine Linien kreuzen, die Randpunkte eingeschlossen. Es ist anfangs leer. Die Spieler setzen abwechselnd einen ihrer Ringe auf einen beliebigen freien Punkt, Weiß zuerst, bis alle zehn Ringe auf dem Brett stehen. Dann macht Weiß den ersten Ringzug.",
      ],
      figures: [{ diagram: "setup", caption: "Alle zehn Ringe gesetzt: die fünf von Weiß und die fünf von Schwarz." }],
    },
    {
      id: "move",
      heading: "Einen Ring ziehen und Markierungen umdrehen",
      paragraphs: [
        "Wenn du dran bist, nimm eine Markierung aus dem Vorrat, lege sie mit deiner Farbe nach oben in einen deiner Ringe und ziehe diesen Ring geradeaus entlang einer der Linien des Bretts. Die Markierung bleibt auf dem Punkt liegen, den der Ring verlässt.",
      ],
      list: [
        "Der Ring zieht mindestens einen Punkt weit und landet auf einem freien Punkt.",
        "Er darf beliebig viele freie Punkte überqueren.",
        "Er darf eine zusammenhängende Gruppe von Markierungen beliebiger Farben überspringen; dann muss er auf dem ersten freien Punkt direkt hinter der Gruppe landen (er darf nicht weiter und keine zweite Gruppe überspringen).",
        "Er darf nie über einen Ring ziehen oder auf einem Ring landen.",
      ],
      after: [
        "Jede übersprungene Markierung wird auf die andere Farbe umgedreht. Die gerade am Startpunkt gelassene Markierung wird nicht umgedreht.",
        "Nur ein Ring, der irgendwohin ziehen kann, darf gewählt werden. Wer keinen Ring ziehen kann, passt: Es wird keine Markierung genommen, und der Gegner ist dran.",
      ],
      figures: [
        {
          diagram: "move-before",
          caption: "Der Ring von Weiß auf e2 zieht seine Linie hinauf. Er darf auf e3 oder e4 halten oder die drei Markierungen überspringen und auf e8 landen — nicht auf e9.",
        },
        {
          diagram: "move-after",
          caption: "Nach e2-e8: Auf e2 bleibt eine weiße Markierung, und die drei übersprungenen Markierungen sind umgedreht.",
        },
      ],
    },
    {
      id: "rows",
      heading: "Reihen und einen Ring entfernen",
      paragraphs: [
        "Eine Reihe sind fünf Markierungen einer Farbe nebeneinander auf einer Linie (ein Ring dazwischen unterbricht sie). Eine Reihe gehört dem Spieler, dessen Farbe sie zeigt, egal wer sie gebildet hat — ein Zug kann dem Gegner eine Reihe bilden.",
        "Der Besitzer nimmt die fünf Markierungen der Reihe weg (sie gehen zurück in den Vorrat) und entfernt dann einen seiner eigenen Ringe, welchen er will. Dieser Ring zählt als Punkt.",
      ],
      list: [
        "Eine Linie aus mehr als fünf: Der Besitzer wählt beliebige fünf nebeneinanderliegende Markierungen daraus.",
        "Mehrere Reihen: jeweils eine Reihe und ein Ring, solange der Spieler noch eine Reihe hat (Reihen, die sich kreuzen, teilen eine Markierung, also kann nur eine von ihnen genommen werden).",
        "Nach einem Zug entfernt zuerst der Ziehende seine Reihen, dann der Gegner seine, und dann zieht der Gegner.",
      ],
      figures: [{ diagram: "row", caption: "Fünf weiße Markierungen von c3 bis g3: Weiß nimmt sie weg und danach einen weißen Ring." }],
    },
    {
      id: "end",
      heading: "Ende der Partie",
      paragraphs: [],
      list: [
        "Wer seinen dritten Ring entfernt (im Blitz: seinen ersten), gewinnt sofort. Gibt ein Zug beiden Spielern ihre letzte Reihe, gewinnt der Ziehende.",
        "Ist der Vorrat erschöpft — die letzte Markierung ist verbraucht und keine Reihe mehr zu entfernen (eine entfernte Reihe legt ihre fünf Markierungen zurück, und das Spiel geht weiter) —, endet die Partie: Wer mehr Ringe entfernt hat, gewinnt; Gleichstand ist remis.",
        "Kann keiner der beiden einen Ring ziehen, endet die Partie und wird genauso gewertet.",
        "Eine Partie kann auch durch Aufgabe, durch Zeitüberschreitung oder durch ein vereinbartes Remis enden. Tische können eine Vorgabe (für jeden Spieler eine eigene Zahl Ringe zum Sieg) und ein Zuglimit einstellen (nach so vielen Ringzügen wird die Partie wie oben gewertet).",
      ],
    },
    {
      id: "correspondence",
      heading: "Partien über Tage (Fernschach-Art)",
      paragraphs: [
        "Eine Fernpartie gibt jedem Zug Tage statt einer Uhr: 1, 2, 3, 5, 7, 10 oder 14 Tage je Zug oder gar kein Limit. Jeder Zug beginnt wieder mit der ganzen Zeit, und ein Zug ist alles zusammen: der Ringzug und die Reihen und Ringe, die danach entfernt werden.",
      ],
      list: [
        "Beginne eine über „Partien über Tage“ in der Lobby (ein Gesuch, das offen bleibt, während du weg bist, bis es jemand annimmt), mit einer Herausforderung mit einem Tempo in Tagen oder an einem Tisch mit der Option Tempo.",
        "Spiel, wann es dir passt: Die Partie wartet, und niemand kann sie beanspruchen, weil du weg bist. Meine Partien zeigt die Partien, die auf deinen Zug warten, und die Glocke sagt dir, wann du am Zug bist — auch per Mail, sobald du auf deiner Kontoseite eine bestätigte Adresse angibst.",
        "Du wirst 24 Stunden und 1 Stunde vor einer Frist gewarnt. Wer die Frist verstreichen lässt, verliert auf Zeit — außer es ist noch Urlaub übrig.",
        "Urlaub: Ein Konto hat 10 Tage im Jahr. Läuft deine Frist ab, wird von selbst eine Stunde verbraucht und die Frist rückt eine Stunde weiter, Stunde um Stunde, bis du ziehst oder die Tage aufgebraucht sind. Beide Spieler sehen neben den Uhren, wie viel übrig ist. Gäste und Bots haben keinen Urlaub.",
        "Zug bestätigen, unter dem Brett, ist in Fernpartien an: Dein Ringzug und die Reihen und Ringe, die du danach entfernst, werden erst gezeigt und zusammen gesendet, wenn du Bestätigen drückst (Zurücknehmen beginnt den Zug neu). Dort schaltest du es aus oder für Livepartien an.",
        "Gewertete Fernpartien haben eigene Wertungen (Standard oder Blitz · Fernpartie); Partien ohne Limit werden nie gewertet.",
      ],
    },
  ],
  tryIt: "Lust, es auszuprobieren?",
  tryLink: "In der Lobby gegen die Engine spielen",
};

export const RULES: Record<Lang, RulesText> = { en, nl, pl, de };
