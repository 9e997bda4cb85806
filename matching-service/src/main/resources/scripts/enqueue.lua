-- Puts a token in a queue, unless it is already waiting anywhere or already in a room. It is the prelude of the
-- join: FormRoomScript runs this text followed by form_room.lua as one script, so the check, the write and the
-- joiner's first try at forming a room cannot be split by another instance or the sweeper. A joiner leaves the
-- call either refused, or in the room it formed, or still in the queue.
-- KEYS[1] matching:queue:<topicId>:<size>   the queue (ZSET, member token, score ms when waiting began)
-- KEYS[2] matching:queues                   the set of queue keys that may hold someone (for the sweeper)
-- KEYS[3] matching:waiting:<token>          the token's waiting marker (hash: queue, topic_id, size, since)
-- KEYS[4] matching:room:<token>             the token's room (hash), if any
-- ARGV as form_room.lua: ARGV[2] size, ARGV[3] topic id, ARGV[4] now (ms), ARGV[10] the joining token
-- Returns {-1, 'waiting'} or {-1, 'room'} when refused; otherwise form_room.lua goes on and returns.
if redis.call('EXISTS', KEYS[3]) == 1 then
  return {-1, 'waiting'}
end
if redis.call('EXISTS', KEYS[4]) == 1 then
  return {-1, 'room'}
end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[10])
redis.call('HSET', KEYS[3], 'queue', KEYS[1], 'topic_id', ARGV[3], 'size', ARGV[2], 'since', ARGV[4])
redis.call('SADD', KEYS[2], KEYS[1])
