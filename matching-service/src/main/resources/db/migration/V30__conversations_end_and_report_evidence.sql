-- A room's conversation (MySQL 8.0+ and MariaDB 10.6+). Its messages live in Redis for the room's life and a
-- grace after, never here, with one exception: a report keeps the reported members' last messages with it.

-- When the last member left: the conversation is over, and its socket answers 410 from then on. NULL while
-- someone is in it (or their seats ran out without a leave, which ends it for each of them just the same).
ALTER TABLE conversations ADD COLUMN ended_at TIMESTAMP(6) NULL;

-- Evidence for moderators: up to 50 of the reported member's last messages in the room, copied from Redis in the
-- report's transaction, one row each, as the room showed them (alias, text, when). Written once, with the report
-- row (reporter, reported, conversation); a repeated report adds nothing.
CREATE TABLE room_report_messages (
    report_id  BIGINT        NOT NULL,
    entry_id   VARCHAR(41)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,  -- the room stream's id, <ms>-<seq>
    sender     CHAR(1)       CHARACTER SET ascii COLLATE ascii_bin NOT NULL,  -- the alias (A, B, C)
    text       VARCHAR(1000) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,  -- 1,000 characters
    sent_at    TIMESTAMP(6)  NOT NULL,
    PRIMARY KEY (report_id, entry_id),
    CONSTRAINT fk_room_report_messages_report FOREIGN KEY (report_id) REFERENCES room_reports (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
