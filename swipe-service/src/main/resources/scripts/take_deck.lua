-- Takes the next page of the deck and says what is left, for the decision to refill it.
-- KEYS[1]: deck:{<userId>}, KEYS[2]: deck-gen:{<userId>}
-- ARGV[1]: page size
-- Returns {cards left after this page, the deck's generation, card...}.
local page = redis.call('LPOP', KEYS[1], tonumber(ARGV[1])) or {}
table.insert(page, 1, tonumber(redis.call('GET', KEYS[2]) or '0'))
table.insert(page, 1, redis.call('LLEN', KEYS[1]))
return page
