-- The active super likers of a user, expired ones removed first (ZREMRANGEBYSCORE, then ZRANGEBYSCORE).
-- KEYS[1]: super_likes:{<targetId>}  ZSET member = sender id, score = expiry (ms)
-- ARGV[1]: now (ms), ARGV[2]: how many at most
-- Returns the sender ids whose super like has not expired, soonest expiry first.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf', 'LIMIT', 0, tonumber(ARGV[2]))
