-- Player names are unique, ignoring case (PostgreSQL).
--
-- Guests were named at random from 90,000 names without a check, so some share a name.
-- The oldest player (the lowest id) of each name keeps it; every later one gets `0` and
-- its id after it (`SwiftOtter7` with id 1234 becomes `SwiftOtter701234`). The names made
-- so far end in one or two digits, renamed ones in three or more (the old number, a 0,
-- an id, which never starts with 0): a renamed name is neither an old name nor another
-- renamed one. Should a name be taken anyway, creating the index fails and the
-- migration is rolled back whole (each migration runs in a transaction): the server
-- refuses to start rather than keep two players of one name.
--
-- Games keep the names their players had when they played (their record).
UPDATE players
SET name = name || '0' || CAST(id AS TEXT)
WHERE id NOT IN (SELECT MIN(id) FROM players GROUP BY LOWER(name));

CREATE UNIQUE INDEX players_name_unique ON players (LOWER(name));
