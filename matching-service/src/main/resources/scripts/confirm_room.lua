-- Marks a formed room as written: stores the conversation id in each participant's room key still in this
-- room (someone may have left meanwhile) and extends its TTL from pending to the room TTL.
-- KEYS none (the room keys are built from the prefix; rooms assume one Redis primary)
-- ARGV[1] key prefix, ARGV[2] room id, ARGV[3] conversation id, ARGV[4] room TTL (ms), ARGV[5..] tokens
-- Returns the tokens still in the room.
local confirmed = {}
for i = 5, #ARGV do
  local room = ARGV[1] .. 'room:' .. ARGV[i]
  if redis.call('HGET', room, 'room_id') == ARGV[2] then
    redis.call('HSET', room, 'conversation_id', ARGV[3])
    redis.call('PEXPIRE', room, ARGV[4])
    table.insert(confirmed, ARGV[i])
  end
end
return confirmed
