-- A leave from a room of three within its backfill window reopens the leaver's seat for the next single joiner of
-- the room's topic and size: once, whatever happens after (an offer taken or taken back stays, marking the room,
-- until its window ends). Or, when nobody is left in the room, takes its open seat back. In the queue's slot, beside
-- the queue its joiners come to, so that take_seat.lua hands one seat to one joiner.
-- KEYS[1] matching:open-seats:{<topicId>:<size>}   ZSET, member a room id, score ms until which its seat is offered
-- KEYS[2] matching:seat-offers:{<topicId>:<size>}  hash, field a room id, value JSON {state, conversation_id, members}
-- ARGV[1] now (ms), ARGV[2] open | withdraw, ARGV[3] the room id, ARGV[4] until (ms), ARGV[5] conversation id,
-- ARGV[6] the partner ids of the room's people (the leaver's too), comma-separated
-- Returns 1 when this call opened the seat (open) or took it back (withdraw), else 0.
-- Follows forget_past_seats.lua in one script, which sets `now`.
if ARGV[2] == 'withdraw' then
  local offer = redis.call('HGET', KEYS[2], ARGV[3])
  if not offer then
    return 0
  end
  local decoded = cjson.decode(offer)
  if decoded.state ~= 'open' then
    return 0
  end
  decoded.state = 'withdrawn'
  redis.call('HSET', KEYS[2], ARGV[3], cjson.encode(decoded))
  return 1
end
-- a room reopens one seat, once
if redis.call('HEXISTS', KEYS[2], ARGV[3]) == 1 or tonumber(ARGV[4]) <= now then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[3], cjson.encode({state = 'open', conversation_id = ARGV[5], members = ARGV[6]}))
-- the keys go with the last offer's window, so a topic nobody leaves keeps nothing
local ttl = tonumber(ARGV[4]) - now
for i = 1, 2 do
  if redis.call('PTTL', KEYS[i]) < ttl then
    redis.call('PEXPIRE', KEYS[i], ttl)
  end
end
return 1
