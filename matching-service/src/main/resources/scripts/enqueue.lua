-- The queue half of a join, in the queue's slot: the token already holds its waiting claim (claim_waiting.lua), so
-- its entry goes in, and form_room.lua follows in the same script: nobody can pop the entry between the two, and
-- the joiner's own call forms the room of the oldest if one is complete.
-- KEYS[1] matching:queue:{<topicId>:<size>}   ZSET, member "<token>:<join id>", score ms when waiting began
-- ARGV as form_room.lua; ARGV[2] now (ms) is the score, ARGV[7] the joiner's entry
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[7])
