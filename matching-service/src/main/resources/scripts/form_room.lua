-- Forms at most one room from one queue, atomically, in the queue's slot: drops entries that waited past the timeout,
-- then pops a room and records its entries as popped. Their claims live in other slots: the caller moves each by
-- compare-and-set (swap_claim.lua), and the popped record tells a poll that an entry missing from the queue is being
-- formed, not lost. Lua and not WATCH/MULTI: under load a conflict would make every caller retry.
--
-- Which room: two entries are recent partners when either one's list (stored beside it by enqueue.lua) names the
-- other's id (the first 16 hex digits of the SHA-1 of its token) with a time still to come. Looking at the oldest
-- `window` entries only, so the cost stays flat with the queue's length:
-- 1. a room of `size` without recent partners: the oldest entry that heads one, filled oldest first with entries
--    that are no one's recent partner in it (the common case is the `size` oldest, read without the window);
-- 2. else, in a size-3 queue, a pair without recent partners whose older one waited past the fallback;
-- 3. else a rematch, the plain oldest-first room with recent partners in it, only when the whole queue fits in the
--    window (so nobody further back could form a room instead) and its oldest waited past rematch-after.
--
-- KEYS[1] matching:queue:{<topicId>:<size>}            ZSET, member "<token>:<join id>", score ms when waiting began
-- KEYS[2] matching:popped:{<topicId>:<size>}           ZSET, member as the queue's, score ms when popped
-- KEYS[3] matching:entry-partners:{<topicId>:<size>}   hash, field a member, value "<id>:<until ms>,..."
-- ARGV[1] size, ARGV[2] now (ms), ARGV[3] timed out at or before (ms), ARGV[4] falls back at or before (ms),
-- ARGV[5] popped records older than this are forgotten (ms), ARGV[6] most timed-out entries to drop in one call,
-- ARGV[7] an entry to look for ("" = none), ARGV[8] the window, ARGV[9] may be rematched at or before (ms),
-- ARGV[11] only entries scored at or before this may be taken ('+inf' = all; a fallback queue scores each entry with
-- when it becomes eligible, and passes now)
-- Returns {still waiting, fallback 0/1, where the entry is ('queued', 'popped' or 'none'), rematch 0/1,
-- timed-out count, timed-out member, since, ..., popped member, since, recent partners, ...}
local queue = KEYS[1]
local popped = KEYS[2]
local partners = KEYS[3]
local size = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local timeoutBefore = tonumber(ARGV[3])
local fallbackBefore = tonumber(ARGV[4])
local window = tonumber(ARGV[8])
local rematchBefore = tonumber(ARGV[9])
local eligibleBefore = ARGV[11] or '+inf'

redis.call('ZREMRANGEBYSCORE', popped, '-inf', ARGV[5])
local expired = redis.call('ZRANGEBYSCORE', queue, '-inf', timeoutBefore, 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[6]))
for i = 1, #expired, 2 do
  redis.call('ZREM', queue, expired[i])
  redis.call('HDEL', partners, expired[i])
end

-- each entry's stored list (raw) and its partners still recent (parsed), read once and only when needed
local raw = {}
local recent = {}
local function recentOf(member)
  local list = recent[member]
  if list == nil then
    list = {}
    local encoded = redis.call('HGET', partners, member) or ''
    raw[member] = encoded
    for id, untilMs in string.gmatch(encoded, '(%x+):(%d+)') do
      if tonumber(untilMs) > now then
        list[id] = true
      end
    end
    recent[member] = list
  end
  return list
end
local ids = {}
local function idOf(member)
  local id = ids[member]
  if id == nil then
    id = string.sub(redis.sha1hex(string.match(member, '^(.*):[^:]*$')), 1, 16)
    ids[member] = id
  end
  return id
end
local function compatible(a, b)
  local ofA = recentOf(a)
  local ofB = recentOf(b)
  if next(ofA) == nil and next(ofB) == nil then
    return true
  end
  return not ofA[idOf(b)] and not ofB[idOf(a)]
end

local members = {}
local scores = {}
local function load(count)
  local range = redis.call('ZRANGEBYSCORE', queue, '-inf', eligibleBefore, 'WITHSCORES', 'LIMIT', 0, count)
  members = {}
  scores = {}
  for i = 1, #range, 2 do
    members[#members + 1] = range[i]
    scores[#scores + 1] = tonumber(range[i + 1])
  end
end
-- the first room of `take` without recent partners, headed by an entry whose score is at or before headBefore
local function search(take, headBefore)
  for i = 1, #members - take + 1 do
    if scores[i] > headBefore then
      return nil
    end
    local room = {i}
    for j = i + 1, #members do
      local fits = true
      for _, k in ipairs(room) do
        if not compatible(members[k], members[j]) then
          fits = false
          break
        end
      end
      if fits then
        room[#room + 1] = j
        if #room == take then
          return room
        end
      end
    end
  end
  return nil
end

local waiting = redis.call('ZCARD', queue)
-- those who may be taken: everyone, but in a fallback queue only those past their own fallback wait
local ready = waiting
if eligibleBefore ~= '+inf' then
  ready = redis.call('ZCOUNT', queue, '-inf', eligibleBefore)
end
local room = nil
local fallback = 0
local rematch = 0
if ready > 0 then
  load(size)
  local seenAll = #members >= ready
  local function widen()
    if not seenAll then
      load(window)
      seenAll = true
    end
  end
  -- more timed-out entries than one call drops: never put them in a room, the next call goes on dropping
  if scores[1] > timeoutBefore then
    if ready >= size then
      room = search(size, math.huge)
      if room == nil and ready > #members then
        widen()
        room = search(size, math.huge)
      end
    end
    if room == nil and size == 3 and ready >= 2 and scores[1] <= fallbackBefore then
      widen()
      room = search(2, fallbackBefore)
      if room ~= nil then
        fallback = 1
      end
    end
    if room == nil and ready <= window and scores[1] <= rematchBefore then
      widen()
      if ready >= size then
        room = {}
        for i = 1, size do
          room[i] = i
        end
      elseif size == 3 and ready >= 2 and scores[1] <= fallbackBefore then
        room = {1, 2}
        fallback = 1
      end
      if room ~= nil then
        rematch = 1
      end
    end
  end
end

local taken = {}
if room ~= nil then
  for _, k in ipairs(room) do
    local member = members[k]
    recentOf(member)
    redis.call('ZREM', queue, member)
    redis.call('HDEL', partners, member)
    redis.call('ZADD', popped, ARGV[2], member)
    taken[#taken + 1] = member
    taken[#taken + 1] = scores[k]
    taken[#taken + 1] = raw[member]
  end
end

local place = 'none'
if ARGV[7] ~= '' then
  if redis.call('ZSCORE', queue, ARGV[7]) then
    place = 'queued'
  elseif redis.call('ZSCORE', popped, ARGV[7]) then
    place = 'popped'
  end
end

local result = {waiting - #taken / 3, fallback, place, rematch, #expired / 2}
for i = 1, #expired do
  table.insert(result, expired[i])
end
for i = 1, #taken do
  table.insert(result, taken[i])
end
return result
