-- Reads a token's state in one step, so a room forming between two reads cannot make it look idle.
-- KEYS[1] matching:room:<token>, KEYS[2] matching:waiting:<token>
-- Returns {'room', field, value, ...}, {'waiting', field, value, ...} or {'idle'}.
local room = redis.call('HGETALL', KEYS[1])
if #room > 0 then
  table.insert(room, 1, 'room')
  return room
end
local waiting = redis.call('HGETALL', KEYS[2])
if #waiting > 0 then
  table.insert(waiting, 1, 'waiting')
  return waiting
end
return {'idle'}
