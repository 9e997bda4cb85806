-- Leaves whatever the token is in: its queue, or its room.
-- KEYS[1] matching:waiting:<token>, KEYS[2] matching:room:<token>
-- ARGV[1] token
-- Returns 'waiting' or 'room' for what was left, 'idle' if nothing.
local queue = redis.call('HGET', KEYS[1], 'queue')
if queue then
  redis.call('ZREM', queue, ARGV[1])
  redis.call('DEL', KEYS[1])
  return 'waiting'
end
if redis.call('DEL', KEYS[2]) == 1 then
  return 'room'
end
return 'idle'
