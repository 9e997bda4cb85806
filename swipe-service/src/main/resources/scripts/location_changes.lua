-- Counts one change of a user's location against the limit per window, atomically, so that requests racing
-- each other cannot pass the limit together: the changes of the last window are a sorted set, the older ones
-- dropped first.
-- KEYS[1]: location_changes:{<userId>}  ZSET member = an id of the change, score = when it was made (ms)
-- ARGV[1]: now (ms), ARGV[2]: the window (ms), ARGV[3]: changes allowed per window, ARGV[4]: this change's id
-- Returns 0 when the change is counted; else the ms until the oldest change in the window leaves it (>= 1),
-- and nothing is counted.
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
