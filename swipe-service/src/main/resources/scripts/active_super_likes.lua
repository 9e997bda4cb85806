-- The active super likers of a user, expired ones removed first (ZREMRANGEBYSCORE, then ZRANGEBYSCORE), and
-- whether the set is known to be complete.
-- KEYS[1]: super_likes:{<targetId>}         ZSET member = sender id, score = expiry (ms)
-- KEYS[2]: super_likes_loaded:{<targetId>}  set when KEYS[1] was last loaded from MySQL; missing after a flush,
--          a failover that lost it, or its expiry: then the set may lack super likes and is loaded again
-- ARGV[1]: now (ms), ARGV[2]: how many at most
-- Returns {1 if loaded else 0, sender id...}, the senders whose super like has not expired, soonest expiry first.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local senders = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf', 'LIMIT', 0, tonumber(ARGV[2]))
table.insert(senders, 1, redis.call('EXISTS', KEYS[2]))
return senders
