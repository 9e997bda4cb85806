-- A room's conversation is written: in the participant's own slot, its claim "being written" becomes "written"
-- (compare-and-set on the room id, as swap_claim.lua), and the others of the room become its recent partners until
-- the cooldown ends, whether or not the claim was still there: they shared the conversation either way.
-- KEYS[1] matching:claim:{<token>}, KEYS[2] matching:partners:{<token>}   ZSET, member a partner's id, score ms until
-- ARGV[1] the room id the claim must hold, ARGV[2] TTL of the written claim (ms), ARGV[3] the rematch cooldown (ms,
-- 0 = record no partners), ARGV[4] now (ms), ARGV[5] n, the number of partner ids, ARGV[6 .. 5+n] the partners' ids,
-- ARGV[6+n ..] field, value, ... of the written claim
-- Returns 1 when the claim was confirmed, 0 when it was no longer that room's (nothing changed but the partners).
local n = tonumber(ARGV[5])
local cooldown = tonumber(ARGV[3])
if n > 0 and cooldown > 0 then
  local untilMs = tonumber(ARGV[4]) + cooldown
  for i = 6, 5 + n do
    redis.call('ZADD', KEYS[2], untilMs, ARGV[i])
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
  redis.call('PEXPIRE', KEYS[2], cooldown)
end
if redis.call('HGET', KEYS[1], 'room_id') ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 6 + n))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
