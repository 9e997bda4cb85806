-- A person who would rather see people slightly out of range than an empty deck: once the people within their own
-- distance and age preferences are used up, their deck goes on beyond them (docs/deck.md).
ALTER TABLE profiles ADD COLUMN expand_when_out BOOLEAN NOT NULL DEFAULT FALSE;
