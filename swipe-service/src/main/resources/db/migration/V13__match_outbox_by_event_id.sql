-- match_outbox had a match_id column, unique with event_type, which made MATCH_CREATED and MATCH_REMOVED
-- idempotent per match. Their event ids are derived from the match and the type, and every outbox is now
-- appended idempotently by event id (OutboxWriter), so the column says nothing the row does not say twice
-- already: in event_id and in the payload's match_id. Dropping it leaves the shape of every outbox table.
--
-- Only a database built before the outbox module kept the table has the column; on a fresh one the table is
-- made after this, without it. MySQL has no ALTER TABLE ... DROP COLUMN IF EXISTS, hence the statement
-- chosen from information_schema.
SET @drop_match_id = IF(
    (SELECT COUNT(*) FROM information_schema.columns
      WHERE table_schema = DATABASE() AND table_name = 'match_outbox' AND column_name = 'match_id') > 0,
    'ALTER TABLE match_outbox DROP KEY uk_match_outbox_match_event, DROP COLUMN match_id',
    'DO 0');
PREPARE drop_match_id FROM @drop_match_id;
EXECUTE drop_match_id;
DEALLOCATE PREPARE drop_match_id;
