-- Boosts (MySQL 8.0+ and MariaDB 10.6+). This table is their truth: a boost, its cooldown and its views survive a
-- lost Redis, whose boosted_users:{<cell>} sets are only the deck's fast path and are reloaded from here.
CREATE TABLE boosts (
    boost_id          BIGINT       NOT NULL AUTO_INCREMENT,
    user_id           BIGINT       NOT NULL,
    cell              VARCHAR(9)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,  -- geohash prefix the boost shows in
    started_at        TIMESTAMP(6) NOT NULL,
    expires_at        TIMESTAMP(6) NOT NULL,
    views             INT          NOT NULL DEFAULT 0,  -- distinct viewers served a page holding this boosted card
    views_recorded_at TIMESTAMP(6) NULL,                -- when its views went into the histogram, after expiry
    PRIMARY KEY (boost_id),
    KEY idx_boosts_user (user_id, started_at),          -- the user's last boost: active? cooling down?
    KEY idx_boosts_cell (cell, expires_at),             -- a cell's active boosts, to reload Redis
    KEY idx_boosts_unrecorded (views_recorded_at, expires_at)  -- expired boosts whose views are not recorded yet
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Who was served a boost: a view counts once per viewer per boost. Kept while the boost runs, deleted when its
-- views are recorded.
CREATE TABLE boost_views (
    boost_id  BIGINT       NOT NULL,
    viewer_id BIGINT       NOT NULL,
    served_at TIMESTAMP(6) NOT NULL,
    PRIMARY KEY (boost_id, viewer_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
