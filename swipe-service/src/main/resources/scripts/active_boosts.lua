-- Active boosted users of a geohash cell, expired boosts removed first, and whether the set is known to be
-- complete.
-- KEYS[1]: boosted_users:{<geohashPrefix>}  ZSET member = user id, score = boost expiry (ms)
-- KEYS[2]: boosts_loaded:{<geohashPrefix>}  set when KEYS[1] was last loaded from MySQL (the boosts table); missing
--          after a flush, a failover that lost it, or its short expiry: then the cell is loaded again
-- ARGV[1]: now (ms)
-- Returns {1 if loaded else 0, user id...}, the users whose boost has not expired.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local boosted = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')
table.insert(boosted, 1, redis.call('EXISTS', KEYS[2]))
return boosted
