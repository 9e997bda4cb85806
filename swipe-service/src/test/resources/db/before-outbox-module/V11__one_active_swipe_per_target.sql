-- One active swipe per (user, target), kept by the database instead of a read before the insert.
-- active_target is the target while the swipe stands and NULL once it is rewound; a unique key allows
-- any number of NULLs, so a rewound swipe frees the target for a new one. TX 1's insert then refuses a
-- second swipe on the same target atomically, even from two devices at once, and the swipe needs no
-- separate "already swiped?" statement.
--
-- A database that already holds two active swipes of one user on one target (possible before this
-- key, under a race) stops this migration: rewind all but the first, then run it again.
ALTER TABLE swipe_history
    ADD COLUMN active_target BIGINT AS (IF(undone_at IS NULL, target_user_id, NULL)) STORED,
    ADD UNIQUE KEY uk_swipe_user_active_target (user_id, active_target),
    -- the new key answers every lookup this one did ("did they like me?" is active_target = me)
    DROP KEY idx_swipe_user_target,
    -- no statement reads swipes by target first; every insert paid for it
    DROP KEY idx_swipe_target_user;
