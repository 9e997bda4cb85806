-- Counts a new event stream of one principal (a session, a user), unless it already holds the most it may.
-- KEYS[1] <service>:streams:{<principal hash>}: a sorted set, member = a stream's id, score = when its lease ends (ms)
-- ARGV[1] now (ms)
-- ARGV[2] the new stream's id
-- ARGV[3] when its lease ends (ms)
-- ARGV[4] the most streams the principal may hold
-- Returns 0 when the stream is counted; else the ms until the first of the principal's leases ends.
-- Leases whose instance stopped renewing them (it died) end and are dropped here, so they do not count forever.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(first[2]) - tonumber(ARGV[1]))
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
-- a whole lease from now outlasts every lease in the set (relative: the scores are the service's clock, not Redis's)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) - tonumber(ARGV[1]))
return 0
