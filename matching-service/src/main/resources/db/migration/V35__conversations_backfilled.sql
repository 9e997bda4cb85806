-- Backfill (MySQL 8.0+ and MariaDB 10.6+): a room of three that lost someone early seats one newcomer, once.
-- When the newcomer was seated: the backfill's transaction sets it only while it is NULL (and the room has not
-- ended), so a second backfill of the same room is refused here whatever Redis offered.
ALTER TABLE conversations ADD COLUMN backfilled_at TIMESTAMP(6) NULL;

-- A room's seats by room: the backfill counts who still sits in a room (locking those rows), and the last leave
-- asks whether anyone does; both read by room id, which had no index.
CREATE INDEX ix_seats_room ON seats (room_id);
