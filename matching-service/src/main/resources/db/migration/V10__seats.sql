-- One row per participant: the room it sits in and until when. MySQL, not Redis, decides whether a participant is
-- already in a live room (formed within room-ttl and not left): Redis replication is asynchronous, so a failover can
-- put a popped room's people back in their queue, and the next room to pop them must be refused here.
-- A row is written with the conversation, in its transaction, and ended by a leave; a leave that comes before its
-- room is written leaves a row of that room already ended, so the write does not seat that participant.
CREATE TABLE seats (
    participant_key CHAR(64)     NOT NULL,           -- SHA-256 (hex) of the session token
    room_id         CHAR(36)     NOT NULL,
    live_until      TIMESTAMP(6) NOT NULL,           -- formed_at + room-ttl
    left_at         TIMESTAMP(6) NULL,
    PRIMARY KEY (participant_key)
) ENGINE = InnoDB;
