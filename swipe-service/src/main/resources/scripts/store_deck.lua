-- Keeps a freshly assembled deck unless another request stored one meanwhile.
-- KEYS[1]: deck:{<userId>}  LIST of cards (JSON), next card first
-- ARGV[1]: TTL (ms), ARGV[2..]: the cards
-- Returns 1 when stored, 0 when a deck was already there.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
for i = 2, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
