-- Puts a token in a queue, unless it is already waiting anywhere or already in a room.
-- One script so that the check and the write cannot be split by another instance.
-- KEYS[1] matching:queue:<topicId>:<size>   the queue (ZSET, member token, score ms when waiting began)
-- KEYS[2] matching:waiting:<token>          the token's waiting marker (hash: queue, topic_id, size, since)
-- KEYS[3] matching:room:<token>             the token's room (hash), if any
-- KEYS[4] matching:queues                   the set of queue keys that may hold someone (for the sweeper)
-- ARGV[1] token, ARGV[2] now (ms), ARGV[3] topic id, ARGV[4] size
-- Returns {1, waiting count} when queued, {0, 'waiting'} or {0, 'room'} when refused.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return {0, 'waiting'}
end
if redis.call('EXISTS', KEYS[3]) == 1 then
  return {0, 'room'}
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], 'queue', KEYS[1], 'topic_id', ARGV[3], 'size', ARGV[4], 'since', ARGV[2])
redis.call('SADD', KEYS[4], KEYS[1])
return {1, redis.call('ZCARD', KEYS[1])}
