-- Active boosted users of a geohash cell, expired boosts removed first.
-- KEYS[1]: boosted_users:{<geohashPrefix>}  ZSET member = user id, score = boost expiry (ms)
-- ARGV[1]: now (ms)
-- Returns the user ids whose boost has not expired.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')
