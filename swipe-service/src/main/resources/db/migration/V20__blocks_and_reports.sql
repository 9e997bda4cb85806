-- Blocks and reports (MySQL 8.0+ and MariaDB 10.6+).

-- The serialisation point of a pair: the transaction that may write the pair's match (a swipe's TX 2) and a
-- block of the pair both take this row's lock first (an upsert makes the row the first time and locks it), so
-- whichever commits second sees what the first did: a block made first is seen by the match's transaction,
-- which then makes no match; a match made first is ended by the block. Holds under any isolation level, with no
-- gap locks. One row per pair that ever came this far: those that liked each other and those with a block.
CREATE TABLE pair_locks (
    user_id_1 BIGINT NOT NULL,
    user_id_2 BIGINT NOT NULL,
    PRIMARY KEY (user_id_1, user_id_2),
    CONSTRAINT ck_pair_locks_ordered_pair CHECK (user_id_1 < user_id_2)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- user_blocks (V10) is written now: GET /api/blocks pages a user's blocks newest first, keyset on
-- (created_at, blocked_user_id); the primary key's columns complete every entry of this index.
CREATE INDEX idx_user_blocks_newest ON user_blocks (user_id, created_at);

-- Why a match ended: the MATCH_REMOVED event says it, and so does the row after the event is gone.
-- Every match removed so far was an unmatch.
ALTER TABLE matches ADD COLUMN removal_reason VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NULL AFTER removed_by;
UPDATE matches SET removal_reason = 'UNMATCHED' WHERE removed_at IS NOT NULL;
ALTER TABLE matches ADD CONSTRAINT ck_matches_removal_reason
    CHECK ((removed_at IS NULL AND removal_reason IS NULL)
        OR (removed_at IS NOT NULL AND removal_reason IN ('UNMATCHED', 'BLOCKED')));

-- Reports, kept for moderation. The reasons are a fixed list (ReportReason, docs/swipes.md); a report also
-- blocks, in the same transaction.
CREATE TABLE user_reports (
    report_id        BIGINT        NOT NULL AUTO_INCREMENT,
    reporter_id      BIGINT        NOT NULL,
    reported_user_id BIGINT        NOT NULL,
    reason           VARCHAR(32)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    details          VARCHAR(1000) NULL,
    created_at       TIMESTAMP(6)  NOT NULL,
    PRIMARY KEY (report_id),
    KEY idx_user_reports_reported (reported_user_id, created_at),  -- moderation: reports about a user
    KEY idx_user_reports_reporter (reporter_id, created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
