-- Loads a user's active super likes as MySQL has them (after a flush, or once the last load is old), marks the
-- set as loaded, and reads it as active_super_likes.lua does. A super like added meanwhile by the swipe path
-- stays: members are only added.
-- KEYS[1]: super_likes:{<targetId>}, KEYS[2]: super_likes_loaded:{<targetId>}
-- ARGV[1]: now (ms), ARGV[2]: how many at most, ARGV[3]: how long the load is trusted (ms),
-- ARGV[4..]: sender id, expiry (ms), sender id, expiry (ms), ...
-- Returns the sender ids whose super like has not expired, soonest expiry first.
for i = 4, #ARGV, 2 do
  redis.call('ZADD', KEYS[1], ARGV[i + 1], ARGV[i])
end
if #ARGV >= 4 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf', 'LIMIT', 0, tonumber(ARGV[2]))
