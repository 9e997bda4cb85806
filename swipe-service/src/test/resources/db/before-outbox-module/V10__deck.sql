-- Discovery deck (MySQL 8.0+ and MariaDB 10.6+).

-- The organic pool is a range scan over geohash cells of the genders the viewer wants, filtered by
-- both sides' preferences and ranked by desirability and recency: this index holds every column that
-- query reads, so the scan never visits the table rows (the chosen few are read by primary key after).
CREATE INDEX idx_profiles_deck ON profiles (gender, geohash, birth_date, age_min, age_max, interested_in,
    max_distance_km, lat, lon, desirability, last_active_at);

-- Who blocked whom; the deck never shows either side to the other.
CREATE TABLE user_blocks (
    user_id         BIGINT       NOT NULL,
    blocked_user_id BIGINT       NOT NULL,
    created_at      TIMESTAMP(6) NOT NULL,
    PRIMARY KEY (user_id, blocked_user_id),
    KEY idx_user_blocks_blocked (blocked_user_id, user_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
