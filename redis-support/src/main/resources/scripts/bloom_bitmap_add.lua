-- Adds items to an owner's bucketed Bloom filter kept in plain bitmaps.
-- KEYS[1]: <name>:{<owner>}:count  items added so far; absent = filter not live
-- KEYS[2]: <name>:{<owner>}:       bucket key prefix, same hash tag, so one slot
-- ARGV[1]: bucket capacity, ARGV[2]: k (hashes per item), ARGV[3]: bits per bucket
-- ARGV[4..]: k bit offsets per item, item after item (computed by the caller)
-- Returns the new count, or -1 when the filter is not live (the caller rebuilds it).
local count = redis.call('GET', KEYS[1])
if not count then
  return -1
end
local n = tonumber(count)
local capacity = tonumber(ARGV[1])
local k = tonumber(ARGV[2])
local bits = tonumber(ARGV[3])
local items = (#ARGV - 3) / k
for i = 0, items - 1 do
  -- a full bucket is never filled further: the next item starts the next bucket
  local key = KEYS[2] .. math.floor(n / capacity)
  if n % capacity == 0 and redis.call('EXISTS', key) == 0 then
    -- created at its full size in one go: a growing string would be over-allocated up to 2x
    redis.call('SETBIT', key, bits - 1, 0)
  end
  for j = 1, k do
    redis.call('SETBIT', key, ARGV[3 + i * k + j], 1)
  end
  n = n + 1
end
redis.call('SET', KEYS[1], n)
return n
