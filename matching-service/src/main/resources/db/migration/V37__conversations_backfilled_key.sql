-- Who the newcomer of a backfilled room is (MySQL 8.0+ and MariaDB 10.6+): the SHA-256 (hex) of its token, set with
-- backfilled_at by the backfill's transaction. A claim restored from MySQL (a crash after that transaction, or a
-- Redis failover that lost the claim) tells the newcomer apart by it: its answer says "backfilled" and its
-- matched_at is backfilled_at, not formed_at, as its join answered.
ALTER TABLE conversations ADD COLUMN backfilled_key CHAR(64) NULL AFTER backfilled_at;
