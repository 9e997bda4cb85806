-- Reports from rooms: one row per reporter, reported participant and conversation (a repeated report adds
-- nothing). Sessions by the SHA-256 (hex) of their tokens, as everywhere in MySQL.
CREATE TABLE room_reports (
    id              BIGINT       NOT NULL AUTO_INCREMENT,
    conversation_id BIGINT       NOT NULL,
    reporter_key    CHAR(64)     NOT NULL,
    reported_key    CHAR(64)     NOT NULL,
    reason          VARCHAR(32)  NOT NULL,
    reported_at     TIMESTAMP(6) NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uk_room_reports (conversation_id, reporter_key, reported_key),
    KEY idx_room_reports_reported (reported_key, reported_at),
    CONSTRAINT fk_room_reports_conversation FOREIGN KEY (conversation_id) REFERENCES conversations (id)
) ENGINE = InnoDB;

-- One row per reported session, locked by every report of it: reports of one session are counted one after the
-- other, so three reporters at the same moment still make the third report see the other two.
CREATE TABLE reported_sessions (
    reported_key     CHAR(64)     NOT NULL,
    last_reported_at TIMESTAMP(6) NOT NULL,
    PRIMARY KEY (reported_key)
) ENGINE = InnoDB;
