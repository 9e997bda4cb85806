-- Appends a deck assembled in the background, unless the deck was replaced or discarded since the
-- refill began (its generation moved on), and ends the refill.
-- KEYS[1]: deck:{<userId>}, KEYS[2]: deck-gen:{<userId>}, KEYS[3]: deck-refill:{<userId>}
-- ARGV[1]: the generation the refill began at, ARGV[2]: TTL (ms), ARGV[3..]: the cards
-- Returns 1 when appended, 0 when dropped.
redis.call('DEL', KEYS[3])
if tonumber(redis.call('GET', KEYS[2]) or '0') ~= tonumber(ARGV[1]) then
  return 0
end
for i = 3, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
