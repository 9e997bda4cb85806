-- Rooms: topic catalogue, ban list and conversations formed from the queues.
-- MySQL 8.0+ and MariaDB 10.6+.

CREATE TABLE topics (
    id         BIGINT       NOT NULL AUTO_INCREMENT,
    name       VARCHAR(100) NOT NULL,
    active     BOOLEAN      NOT NULL DEFAULT TRUE,
    created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    PRIMARY KEY (id),
    UNIQUE KEY uk_topics_name (name)
) ENGINE = InnoDB;

INSERT INTO topics (id, name, active) VALUES
    (1, 'Books', TRUE),
    (2, 'Films', TRUE),
    (3, 'Music', TRUE),
    (4, 'Travel', TRUE),
    (42, 'Late-night thoughts', TRUE),
    (99, 'Retired topic', FALSE);

-- A ban names an IP address or a session (by the SHA-256 of its token: tokens are credentials, never stored).
CREATE TABLE bans (
    id         BIGINT       NOT NULL AUTO_INCREMENT,
    ban_type   VARCHAR(16)  NOT NULL,
    subject    VARCHAR(191) NOT NULL,
    reason     VARCHAR(500) NULL,
    created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    expires_at TIMESTAMP(6) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uk_bans_subject (ban_type, subject),
    CONSTRAINT ck_bans_type CHECK (ban_type IN ('IP', 'SESSION'))
) ENGINE = InnoDB;

CREATE TABLE conversations (
    id         BIGINT       NOT NULL AUTO_INCREMENT,
    room_id    CHAR(36)     NOT NULL,
    topic_id   BIGINT       NOT NULL,
    size       TINYINT      NOT NULL,            -- the queue the room came from
    room_type  TINYINT      NOT NULL,            -- how many are in it: 2 from a size-3 queue after the fallback
    fallback   BOOLEAN      NOT NULL,
    formed_at  TIMESTAMP(6) NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uk_conversations_room (room_id),
    KEY idx_conversations_topic (topic_id, formed_at),
    CONSTRAINT ck_conversations_size CHECK (size IN (2, 3)),
    CONSTRAINT ck_conversations_room_type CHECK (room_type IN (2, 3) AND room_type <= size),
    CONSTRAINT fk_conversations_topic FOREIGN KEY (topic_id) REFERENCES topics (id)
) ENGINE = InnoDB;

-- participant_key is the SHA-256 (hex) of the session token: the chat service can check a bearer against it.
CREATE TABLE conversation_participants (
    conversation_id BIGINT       NOT NULL,
    participant_key CHAR(64)     NOT NULL,
    waiting_since   TIMESTAMP(6) NOT NULL,
    PRIMARY KEY (conversation_id, participant_key),
    KEY idx_participants_key (participant_key),
    CONSTRAINT fk_participants_conversation FOREIGN KEY (conversation_id) REFERENCES conversations (id)
) ENGINE = InnoDB;

-- room_outbox, which the relay publishes to kindling.rooms, is made by the outbox module's own migrations
-- (OutboxSchema, kindling.outbox.table), right after these.
