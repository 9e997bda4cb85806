-- A room's conversation (MySQL 8.0+ and MariaDB 10.6+). Its messages live in Redis for the room's life and a
-- grace after, never here, with one exception: a report keeps the reported members' last messages.

-- When the last member left: the conversation is over, and its socket answers 410 from then on. NULL while
-- someone is in it (or their seats ran out without a leave, which ends it for each of them just the same).
ALTER TABLE conversations ADD COLUMN ended_at TIMESTAMP(6) NULL;

-- Evidence for moderators: up to 50 of a reported member's last messages in the room, copied from Redis in the
-- transaction of the first report of that member from that room (Redis forgets the room after its grace), as the
-- room showed them: the alias, the text, when. Later reports of the same member from the same room read the same
-- rows.
CREATE TABLE room_report_messages (
    id              BIGINT        NOT NULL AUTO_INCREMENT,
    conversation_id BIGINT        NOT NULL,
    reported_key    CHAR(64)      NOT NULL,                                          -- SHA-256 (hex) of the token
    entry_id        VARCHAR(41)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,     -- the room stream's <ms>-<seq>
    sender          CHAR(1)       CHARACTER SET ascii COLLATE ascii_bin NOT NULL,     -- the alias (A, B, C)
    text            VARCHAR(1000) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, -- 1,000 characters
    sent_at         TIMESTAMP(6)  NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uk_room_report_messages (conversation_id, reported_key, entry_id),
    CONSTRAINT fk_room_report_messages_conversation FOREIGN KEY (conversation_id) REFERENCES conversations (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
