-- Takes a join's entry and its recent partners out of its queue, in the queue's slot; its claim must be gone first.
-- KEYS[1] matching:queue:{<topicId>:<size>}, KEYS[2] matching:entry-partners:{<topicId>:<size>}
-- ARGV[1] the entry's member
-- Returns 1 when the entry was there.
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])
