-- Keeps a freshly assembled deck and takes its first page, unless another request stored a deck
-- meanwhile: then the page comes from that one, so two requests never get the same card.
-- KEYS[1]: deck:{<userId>}  LIST of cards (JSON), next card first
-- KEYS[2]: deck-gen:{<userId>}  counter, raised whenever the deck is replaced, so a background
--          refill computed against the old deck does not append to the new one
-- ARGV[1]: TTL (ms), ARGV[2]: page size, ARGV[3..]: the cards
-- Returns {1, card...} when this deck was stored, {0, card...} when an existing deck served the page.
local stored = 0
if redis.call('EXISTS', KEYS[1]) == 0 then
  for i = 3, #ARGV, 1000 do
    redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
  end
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[1])
  stored = 1
end
local page = redis.call('LPOP', KEYS[1], tonumber(ARGV[2])) or {}
table.insert(page, 1, stored)
return page
