-- A join's first step, in the token's own slot: the token claims "waiting in this queue" unless it already holds
-- a claim (waiting anywhere, or in a room). The claim is the authority on where a token is: the queue entry comes
-- after it, and forming moves the claim by compare-and-set (swap_claim.lua), so a token is never in two rooms.
-- KEYS[1] matching:claim:{<token>}   hash: join, topic_id, size, since (see TokenState)
-- ARGV field, value, field, value, ... of the waiting claim
-- Returns {} when claimed, else the claim held (field, value, ...).
local held = redis.call('HGETALL', KEYS[1])
if #held > 0 then
  return held
end
redis.call('HSET', KEYS[1], unpack(ARGV))
return {}
