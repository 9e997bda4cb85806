-- A match's conversation (MySQL 8.0+ and MariaDB 10.6+). Every key starts with match_id, so a conversation's
-- rows sit together in each table, and the tables shard by match (docs/scaling.md).

-- The messages. message_id grows as messages are stored (AUTO_INCREMENT, which InnoDB wants first in an index of
-- its own); the primary key (match_id, message_id) keeps a thread's messages in order on disk, so a page of them,
-- newest first, is one range of it. A sender's client_message_id is unique in the match: a retried send finds its
-- message instead of storing a second. The text is never in an event: it stays here.
CREATE TABLE messages (
    match_id          BIGINT        NOT NULL,
    message_id        BIGINT        NOT NULL AUTO_INCREMENT,
    from_user_id      BIGINT        NOT NULL,
    client_message_id VARCHAR(64)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    text              VARCHAR(2000) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,  -- 2,000 characters
    sent_at           TIMESTAMP(6)  NOT NULL,
    PRIMARY KEY (match_id, message_id),
    UNIQUE KEY uk_messages_client_message (match_id, from_user_id, client_message_id),
    KEY idx_messages_id (message_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- How far each of the two people has read: messages of the other person after this id are unread. Moves forward
-- only.
CREATE TABLE message_reads (
    match_id             BIGINT NOT NULL,
    user_id              BIGINT NOT NULL,
    last_read_message_id BIGINT NOT NULL,
    PRIMARY KEY (match_id, user_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- message_outbox, which the relay publishes to kindling.messages, is made by the outbox module's migrations beside
-- match_outbox (OutboxTable).
