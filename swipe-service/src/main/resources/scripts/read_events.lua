-- Reads what a stream missed: the events of a user's log after an id.
-- KEYS[1]: user_events:{<userId>}  (see append_event.lua)
-- ARGV[1]: the id last sent, or '' to read only where the log ends
-- Returns {last entry id or '0-0', then id, type, data of each entry after ARGV[1], oldest first}.
-- An id past the log's last entry (a log lost with Redis, then started again) reads nothing.
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local lastId = '0-0'
if #last > 0 then
  lastId = last[1][1]
end
local result = {lastId}
if ARGV[1] == '' then
  return result
end
local function parts(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end
local afterMs, afterSeq = parts(ARGV[1])
local lastMs, lastSeq = parts(lastId)
if afterMs > lastMs or (afterMs == lastMs and afterSeq >= lastSeq) then
  return result
end
for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+')) do
  local fields = entry[2]
  local type, data
  for i = 1, #fields, 2 do
    if fields[i] == 'type' then
      type = fields[i + 1]
    elseif fields[i] == 'data' then
      data = fields[i + 1]
    end
  end
  result[#result + 1] = entry[1]
  result[#result + 1] = type
  result[#result + 1] = data
end
return result
