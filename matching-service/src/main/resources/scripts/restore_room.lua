-- Undoes a formed room whose conversation could not be written: each participant still in it goes back to
-- the queue with the score it had, so nobody loses their place.
-- KEYS[1] matching:queue:<topicId>:<size>
-- KEYS[2] matching:queues
-- ARGV[1] key prefix, ARGV[2] room id, ARGV[3] topic id, ARGV[4] size, ARGV[5..] token, since, token, since, ...
-- Returns how many went back.
local restored = 0
for i = 5, #ARGV, 2 do
  local token = ARGV[i]
  local since = ARGV[i + 1]
  local room = ARGV[1] .. 'room:' .. token
  if redis.call('HGET', room, 'room_id') == ARGV[2] then
    redis.call('DEL', room)
    redis.call('ZADD', KEYS[1], since, token)
    redis.call('HSET', ARGV[1] .. 'waiting:' .. token, 'queue', KEYS[1], 'topic_id', ARGV[3], 'size', ARGV[4],
      'since', since)
    restored = restored + 1
  end
end
if restored > 0 then
  redis.call('SADD', KEYS[2], KEYS[1])
end
return restored
