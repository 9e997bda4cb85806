-- Drops a queue from the sweeper's index once a sweep found it empty, unless someone joined it since the cutoff: a
-- join marks its queue before its entry goes in, so a queue joined lately stays until its entries are seen.
-- KEYS[1] matching:queues   ZSET, member the queue's key, score ms of the last join (or put-back)
-- ARGV[1] the queue's key, ARGV[2] cutoff (ms)
-- Returns 1 when dropped.
local last = redis.call('ZSCORE', KEYS[1], ARGV[1])
if last and tonumber(last) <= tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
