-- Swipe matching schema (MySQL 8.0+ and MariaDB 10.6+). MySQL is the truth; Redis is a fast path.

CREATE TABLE profiles (
    user_id         BIGINT        NOT NULL,
    display_name    VARCHAR(50)   NOT NULL,
    gender          ENUM('WOMAN','MAN','NONBINARY') NOT NULL,
    interested_in   SET('WOMAN','MAN','NONBINARY')  NOT NULL,
    birth_date      DATE          NOT NULL,
    lat             DOUBLE        NOT NULL,
    lon             DOUBLE        NOT NULL,
    geohash         CHAR(9)       CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    age_min         SMALLINT      NOT NULL,
    age_max         SMALLINT      NOT NULL,
    max_distance_km INT           NOT NULL,
    desirability    DOUBLE        NOT NULL DEFAULT 1000,  -- Elo-style score, updated from swipes by the deck
    created_at      TIMESTAMP(6)  NOT NULL,
    updated_at      TIMESTAMP(6)  NOT NULL,
    last_active_at  TIMESTAMP(6)  NOT NULL,
    PRIMARY KEY (user_id),
    KEY idx_profiles_geohash (geohash)                    -- deck: candidates by geohash cell prefix
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE swipe_history (
    swipe_id        BIGINT        NOT NULL AUTO_INCREMENT,
    request_id      VARCHAR(64)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,  -- the Idempotency-Key
    request_hash    CHAR(64)      CHARACTER SET ascii COLLATE ascii_bin NOT NULL,  -- SHA-256 hex of the canonical payload
    user_id         BIGINT        NOT NULL,
    target_user_id  BIGINT        NOT NULL,
    action          ENUM('LIKE','PASS','SUPER_LIKE') NOT NULL,
    response_status TINYINT       NULL,                   -- NULL in flight, 1 matched, 0 final non-match
    match_id        BIGINT        NULL,
    matched_at      TIMESTAMP(6)  NULL,
    created_at      TIMESTAMP(6)  NOT NULL,
    undone_at       TIMESTAMP(6)  NULL,                   -- rewound
    replay_count    INT           NOT NULL DEFAULT 0,     -- retries seen; also tells TX 1 whether it inserted
    PRIMARY KEY (swipe_id),
    UNIQUE KEY uk_swipe_user_request (user_id, request_id),
    KEY idx_swipe_user_target (user_id, target_user_id),  -- already swiped? / did they like me?
    KEY idx_swipe_target_user (target_user_id, user_id),  -- who swiped on me
    KEY idx_swipe_user_daily (user_id, action, created_at), -- daily like / super-like counts
    KEY idx_swipe_user_latest (user_id, swipe_id),        -- rewind: the user's last swipe
    KEY idx_swipe_unfinished (response_status, created_at) -- reconciler: response_status IS NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE matches (
    match_id   BIGINT       NOT NULL AUTO_INCREMENT,
    user_id_1  BIGINT       NOT NULL,
    user_id_2  BIGINT       NOT NULL,
    matched_at TIMESTAMP(6) NOT NULL,
    removed_at TIMESTAMP(6) NULL,
    removed_by BIGINT       NULL,
    PRIMARY KEY (match_id),
    UNIQUE KEY uk_matches_pair (user_id_1, user_id_2),
    KEY idx_matches_user_1_newest (user_id_1, matched_at, match_id),  -- keyset page, newest first
    KEY idx_matches_user_2_newest (user_id_2, matched_at, match_id),
    CONSTRAINT ck_matches_ordered_pair CHECK (user_id_1 < user_id_2)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- The shape of outbox/src/main/resources/db/outbox/outbox-table.sql, plus match_id so that the seed's
-- MATCH_CREATED insert (ON DUPLICATE KEY UPDATE) is idempotent per match.
CREATE TABLE match_outbox (
    id              BIGINT        NOT NULL AUTO_INCREMENT,
    event_id        CHAR(36)      NOT NULL,
    event_type      VARCHAR(64)   NOT NULL,
    event_key       VARCHAR(191)  NOT NULL,
    key_hash        BIGINT        NOT NULL,
    payload         MEDIUMTEXT    NOT NULL,
    created_at      TIMESTAMP(6)  NOT NULL,
    published_at    TIMESTAMP(6)  NULL,
    attempts        INT           NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP(6)  NULL,
    last_error      VARCHAR(1000) NULL,
    parked_at       TIMESTAMP(6)  NULL,
    match_id        BIGINT        NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uk_outbox_event_id (event_id),
    UNIQUE KEY uk_match_outbox_match_event (match_id, event_type),
    KEY idx_outbox_unpublished (published_at, key_hash, id),
    KEY idx_outbox_published_at (published_at)
) ENGINE = InnoDB;
