-- A single joiner of a size-3 queue takes the open seat of the oldest room it may sit in: none of the room's people
-- (the one who left included) is the joiner itself or one of its recent partners. In the queue's slot: one seat goes
-- to exactly one joiner, however many instances race for it. Looks at the 64 oldest offers at most.
-- KEYS[1] matching:open-seats:{<topicId>:<size>}, KEYS[2] matching:seat-offers:{<topicId>:<size>} (see offer_seat.lua)
-- ARGV[1] now (ms), ARGV[2] the joiner's partner id, ARGV[3] its recent partners "<id>:<until ms>,..." ("" for none)
-- Returns {} when no seat is for it, else {room id, conversation id, the room's people's partner ids}, the seat
-- marked taken. Follows forget_past_seats.lua in one script, which sets `now`.
local excluded = {[ARGV[2]] = true}
for id, untilMs in string.gmatch(ARGV[3], '([^:,]+):([^,]+)') do
  if tonumber(untilMs) > now then
    excluded[id] = true
  end
end
local rooms = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf', 'LIMIT', 0, 64)
for i = 1, #rooms do
  local offer = redis.call('HGET', KEYS[2], rooms[i])
  if offer then
    local decoded = cjson.decode(offer)
    local allowed = decoded.state == 'open'
    if allowed then
      for member in string.gmatch(decoded.members, '[^,]+') do
        if excluded[member] then
          allowed = false
          break
        end
      end
    end
    if allowed then
      decoded.state = 'taken'
      redis.call('HSET', KEYS[2], rooms[i], cjson.encode(decoded))
      return {rooms[i], decoded.conversation_id, decoded.members}
    end
  end
end
return {}
