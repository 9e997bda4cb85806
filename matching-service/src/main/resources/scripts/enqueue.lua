-- The queue half of a join, in the queue's slot: the token already holds its waiting claim (claim_waiting.lua), so
-- its entry goes in, with its recent partners beside it, and form_room.lua follows in the same script: nobody can
-- pop the entry between the two, and the joiner's own call forms the room of the oldest if one is complete.
-- KEYS[1] matching:queue:{<topicId>:<size>}            ZSET, member "<token>:<join id>", score ms when waiting began
-- KEYS[3] matching:entry-partners:{<topicId>:<size>}   hash, field the member, value its recent partners
-- KEYS[4] matching:queue-stats:{<topicId>:<size>}      hash, field joins: how many joins the queue ever had
-- ARGV as form_room.lua; ARGV[2] now (ms) is the score, ARGV[7] the joiner's entry, ARGV[10] the joiner's recent
-- partners ("<id>:<until ms>,...", "" for none)
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[7])
if ARGV[10] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[7], ARGV[10])
end
redis.call('HINCRBY', KEYS[4], 'joins', 1)
