-- "Who liked me?" (GET /api/likes, and the super likes rebuilt after a Redis flush) reads swipes by target:
-- the standing likes and super likes of one target, newest first, a range of this index per action. The swipe
-- id that InnoDB appends to every entry orders ties, which the keyset cursor needs. It costs each swipe's
-- insert one more index entry; V11 dropped the former (target_user_id, user_id) index when nothing read by target.
CREATE INDEX idx_swipe_liked_me ON swipe_history (active_target, action, created_at);
