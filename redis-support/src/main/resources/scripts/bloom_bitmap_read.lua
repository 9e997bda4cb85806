-- Reads an owner's bucketed Bloom filter in one round trip; the caller tests the bits.
-- KEYS[1]: <name>:{<owner>}:count  items added so far; absent = filter not live
-- KEYS[2]: <name>:{<owner>}:       bucket key prefix, same hash tag, so one slot
-- ARGV[1]: bucket capacity
-- Returns {count, bucket 0, bucket 1, ...} as raw bitmaps, or {-1} when not live.
local count = redis.call('GET', KEYS[1])
if not count then
  return {-1}
end
local n = tonumber(count)
local capacity = tonumber(ARGV[1])
local result = {n}
if n > 0 then
  for b = 0, math.floor((n - 1) / capacity) do
    result[#result + 1] = redis.call('GET', KEYS[2] .. b) or ''
  end
end
return result
