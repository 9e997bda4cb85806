-- Every outbox table (room_outbox in kindling_matching, match_outbox in kindling_swipe) is made and changed
-- only by the migrations in this folder, run by OutboxSchema once per table on the service's database with
-- ${outbox_table} the table's name and flyway_<table>_history the table's own migration history.
-- MySQL 8.0+ and MariaDB 10.6+.
CREATE TABLE ${outbox_table} (
    id              BIGINT        NOT NULL AUTO_INCREMENT,
    event_id        CHAR(36)      NOT NULL,            -- OutboxWriter appends each event id once
    event_type      VARCHAR(64)   NOT NULL,
    event_key       VARCHAR(191)  NOT NULL,
    key_hash        BIGINT        NOT NULL,            -- CRC32 of event_key: relays split keys by it
    payload         MEDIUMTEXT    NOT NULL,            -- the Kafka record value, exactly as written
    created_at      TIMESTAMP(6)  NOT NULL,
    published_at    TIMESTAMP(6)  NULL,
    attempts        INT           NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP(6)  NULL,
    last_error      VARCHAR(1000) NULL,
    parked_at       TIMESTAMP(6)  NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uk_outbox_event_id (event_id),
    -- the relay's claim (published_at IS NULL, by key_hash, id) and the retention cleanup
    -- (published_at < cutoff) both range-scan it: one index for both
    KEY idx_outbox_unpublished (published_at, key_hash, id)
) ENGINE = InnoDB;
