-- Loads a cell's active boosts as MySQL has them, marks the cell loaded for a while, and reads it as
-- active_boosts.lua does. A boost added meanwhile by POST /api/boosts stays: members are only added.
-- KEYS[1]: boosted_users:{<geohashPrefix>}, KEYS[2]: boosts_loaded:{<geohashPrefix>}
-- ARGV[1]: now (ms), ARGV[2]: how long the load is trusted (ms),
-- ARGV[3..]: user id, expiry (ms), user id, expiry (ms), ...
-- Returns the user ids whose boost has not expired.
local now = tonumber(ARGV[1])
local last = now
for i = 3, #ARGV, 2 do
  redis.call('ZADD', KEYS[1], ARGV[i + 1], ARGV[i])
  last = math.max(last, tonumber(ARGV[i + 1]))
end
-- the set lives as long as its last boost, as when a boost is started, and never shorter than it was
if last > now and redis.call('PTTL', KEYS[1]) < last - now then
  redis.call('PEXPIRE', KEYS[1], last - now)
end
redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')
