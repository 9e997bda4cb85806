-- Today's likes and super likes per user, counted in the transaction that stores the swipe (MySQL 8.0+ and
-- MariaDB 10.6+). The row is also the lock that queues a user's concurrent likes, so that twenty at once cannot
-- all pass a limit of three; a rewound swipe stays counted, so "super like, rewind" cannot repeat without end.
-- One row per user and action, its count starting again when a swipe of a new UTC day finds an older day.
CREATE TABLE daily_swipe_counts (
    user_id BIGINT                       NOT NULL,
    action  ENUM('LIKE','SUPER_LIKE')    NOT NULL,
    day     DATE                         NOT NULL,  -- the UTC day that `used` counts
    used    INT                          NOT NULL,
    PRIMARY KEY (user_id, action)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- The daily counts were a COUNT over this index; nothing else reads it, and every swipe's insert paid for it.
ALTER TABLE swipe_history DROP KEY idx_swipe_user_daily;
