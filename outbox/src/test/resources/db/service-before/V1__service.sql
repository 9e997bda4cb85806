-- A service's first migration as it was while services wrote their outbox table's DDL themselves.
CREATE TABLE facts (
    id   BIGINT       NOT NULL AUTO_INCREMENT,
    what VARCHAR(100) NOT NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB;

CREATE TABLE service_outbox (
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
    PRIMARY KEY (id),
    UNIQUE KEY uk_outbox_event_id (event_id),
    KEY idx_outbox_unpublished (published_at, key_hash, id)
) ENGINE = InnoDB;
