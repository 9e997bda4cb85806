-- Where a join's entry is, in its queue's slot, changing nothing but forgetting stale popped records: still queued,
-- popped into a room whose claims are being moved, or neither (it left, timed out, or a crash or failover lost it).
-- KEYS[1] matching:queue:{<topicId>:<size>}, KEYS[2] matching:popped:{<topicId>:<size>}
-- ARGV[1] the entry's member, ARGV[2] popped records older than this are forgotten (ms)
-- Returns 'queued', 'popped' or 'none'.
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 'queued'
end
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  return 'popped'
end
return 'none'
