-- A join's first step, in the token's own slot: the token claims "waiting in this queue" unless it already holds
-- a claim (waiting anywhere, or in a room). The claim is the authority on where a token is: the queue entry comes
-- after it, and forming moves the claim by compare-and-set (swap_claim.lua), so a token is never in two rooms.
-- The same call reads the token's recent partners (same slot), which the entry carries into the queue's slot: a
-- queue cannot read another slot, and a pair may meet again in any queue.
-- KEYS[1] matching:claim:{<token>}      hash: join, topic_id, size, since (see TokenState)
-- KEYS[2] matching:partners:{<token>}   ZSET, member a partner's id, score ms until which it is a recent partner
-- ARGV[1] now (ms), ARGV[2..] field, value, field, value, ... of the waiting claim
-- Returns {1, "<id>:<until ms>,..." (the recent partners, "" for none)} when claimed, else {0, field, value, ...}
-- of the claim held.
local held = redis.call('HGETALL', KEYS[1])
if #held > 0 then
  table.insert(held, 1, 0)
  return held
end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
local partners = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[1], '+inf', 'WITHSCORES')
local encoded = {}
for i = 1, #partners, 2 do
  encoded[#encoded + 1] = partners[i] .. ':' .. partners[i + 1]
end
return {1, table.concat(encoded, ',')}
