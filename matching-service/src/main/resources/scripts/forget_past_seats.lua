-- The prelude of offer_seat.lua and take_seat.lua, in the queue's slot: seats whose window ended are forgotten, open
-- or not, so that a topic's offers stay as few as its rooms left within the window.
-- KEYS[1] matching:open-seats:{<topicId>:<size>}, KEYS[2] matching:seat-offers:{<topicId>:<size>}, ARGV[1] now (ms)
local now = tonumber(ARGV[1])
local past = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
for i = 1, #past do
  redis.call('HDEL', KEYS[2], past[i])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
