-- Moderation (MySQL 8.0+ and MariaDB 10.6+): the report queue, user bans and the operators' audit trail.

-- A report is open until a moderator resolves it: BAN (the reported user is banned) or DISMISS. resolved_by is
-- the operators' token id (never the token). The queue reads open reports oldest first and resolved ones newest
-- resolved first, each from its own index.
ALTER TABLE user_reports
    ADD COLUMN resolved_at     TIMESTAMP(6)  NULL,
    ADD COLUMN resolution      VARCHAR(16)   CHARACTER SET ascii COLLATE ascii_bin NULL,
    ADD COLUMN resolution_note VARCHAR(1000) NULL,
    ADD COLUMN resolved_by     VARCHAR(32)   CHARACTER SET ascii COLLATE ascii_bin NULL,
    ADD CONSTRAINT ck_user_reports_resolution
        CHECK ((resolved_at IS NULL AND resolution IS NULL AND resolved_by IS NULL)
            OR (resolved_at IS NOT NULL AND resolution IN ('BAN', 'DISMISS') AND resolved_by IS NOT NULL)),
    ADD KEY idx_user_reports_open (resolved_at, created_at),
    ADD KEY idx_user_reports_resolved (resolved_at, report_id);

-- One row per banned user: active while expires_at is NULL or in the future. Lifting a ban deletes its row (the
-- audit keeps who did it); banning again after an expiry overwrites it.
CREATE TABLE user_bans (
    user_id    BIGINT        NOT NULL,
    reason     VARCHAR(500)  NOT NULL,
    report_id  BIGINT        NULL,       -- the report whose resolution banned the user, if one did
    banned_by  VARCHAR(32)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    created_at TIMESTAMP(6)  NOT NULL,
    expires_at TIMESTAMP(6)  NULL,
    PRIMARY KEY (user_id),
    KEY idx_user_bans_newest (created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- A match ended because one of the two was banned.
ALTER TABLE matches DROP CONSTRAINT ck_matches_removal_reason;
ALTER TABLE matches ADD CONSTRAINT ck_matches_removal_reason
    CHECK ((removed_at IS NULL AND removal_reason IS NULL)
        OR (removed_at IS NOT NULL AND removal_reason IN ('UNMATCHED', 'BLOCKED', 'BANNED')));

-- Every operators' call: who (the token's id), what, about whom, when. Read newest first.
CREATE TABLE admin_audit (
    audit_id   BIGINT        NOT NULL AUTO_INCREMENT,
    token_id   VARCHAR(32)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    action     VARCHAR(32)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    subject    VARCHAR(64)   NULL,
    detail     VARCHAR(1000) NULL,
    created_at TIMESTAMP(6)  NOT NULL,
    PRIMARY KEY (audit_id),
    KEY idx_admin_audit_newest (created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
