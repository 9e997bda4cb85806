-- Picks the least-shown active boosted users for one deck and counts the impressions, so that
-- when a cell has more boosts than deck slots the views are spread evenly.
-- Atomic, so concurrent deck assemblies never all pick the same user.
-- KEYS[1]: boosted_users:{<geohashPrefix>}     ZSET user id -> boost expiry (ms)
-- KEYS[2]: boost_impressions:{<geohashPrefix>} ZSET user id -> times inserted into a deck
-- ARGV[1]: now (ms), ARGV[2]: how many to pick, ARGV[3]: TTL of the counts (ms)
-- ARGV[4..]: eligible user ids for this viewer, in random order (breaks ties fairly)
-- Returns the picked user ids.
local now = tonumber(ARGV[1])
local wanted = tonumber(ARGV[2])
local candidates = {}
for i = 4, #ARGV do
  local expiry = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if expiry and tonumber(expiry) > now then
    local shown = tonumber(redis.call('ZSCORE', KEYS[2], ARGV[i]) or '0')
    candidates[#candidates + 1] = {ARGV[i], shown, i}
  end
end
table.sort(candidates, function(a, b)
  if a[2] == b[2] then
    return a[3] < b[3]
  end
  return a[2] < b[2]
end)
local picked = {}
for i = 1, math.min(wanted, #candidates) do
  redis.call('ZINCRBY', KEYS[2], 1, candidates[i][1])
  picked[#picked + 1] = candidates[i][1]
end
if #picked > 0 then
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
return picked
