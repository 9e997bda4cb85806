-- The consumer's own database: the events it has taken effect from, and the effect itself.
-- MySQL 8.0+ and MariaDB 10.6+.

-- One row per event that took effect, written in the transaction of that effect: an event id found here
-- was processed, and its repeat (delivery is at least once) is skipped.
CREATE TABLE processed_events (
    event_id     CHAR(36)     NOT NULL,
    processed_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    PRIMARY KEY (event_id)
) ENGINE = InnoDB;

-- The effect: what each person is told, in the order the events of their match happened.
CREATE TABLE match_notifications (
    id            BIGINT       NOT NULL AUTO_INCREMENT,
    user_id       BIGINT       NOT NULL,            -- who is told
    other_user_id BIGINT       NOT NULL,            -- about whom
    match_id      BIGINT       NOT NULL,
    kind          VARCHAR(16)  NOT NULL,            -- MATCHED, UNMATCHED
    event_id      CHAR(36)     NOT NULL,
    occurred_at   TIMESTAMP(6) NOT NULL,
    PRIMARY KEY (id),
    KEY idx_match_notifications_user (user_id, id),
    CONSTRAINT ck_match_notifications_two_people CHECK (user_id <> other_user_id)
) ENGINE = InnoDB;
