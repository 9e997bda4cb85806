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
-- A party's entry (its member holds ".<creator token>~<partner token>." in its join id) stands for two people: it counts
-- two towards a room's size, both its tokens' ids count as its own for recent partners, a room of three takes it with
-- one person alone (two parties weigh four: never in one room), and no room of two ever takes it (a party alone is
-- not a room, so the 3 -> 2 fallback passes it by).
--
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
local function partyOf(member)
  return string.match(member, ':[^:]*%.([%w_%-]+)~([%w_%-]+)%.')
end
local weights = {}
local function weight(member)
  local w = weights[member]
  if w == nil then
    w = 1
    if partyOf(member) then
      w = 2
    end
    weights[member] = w
  end
  return w
end
local function idOfToken(token)
  return string.sub(redis.sha1hex(token), 1, 16)
end
local ids = {}
local function idsOf(member)
  local list = ids[member]
  if list == nil then
    local creator, partner = partyOf(member)
    if creator then
      list = {idOfToken(creator), idOfToken(partner)}
    else
      list = {idOfToken(string.match(member, '^(.*):[^:]*$'))}
    end
    ids[member] = list
  end
  return list
end
local function compatible(a, b)
  local ofA = recentOf(a)
  local ofB = recentOf(b)
  if next(ofA) == nil and next(ofB) == nil then
    return true
  end
  for _, id in ipairs(idsOf(b)) do
    if ofA[id] then
      return false
    end
  end
  for _, id in ipairs(idsOf(a)) do
    if ofB[id] then
      return false
    end
  end
  return true
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
-- the first room of `take` people, headed by an entry whose score is at or before headBefore, filled oldest first:
-- without recent partners unless anyPartners; a party's entry (two people) only when parties
local function search(take, headBefore, parties, anyPartners)
  for i = 1, #members do
    if scores[i] > headBefore then
      return nil
    end
    local headWeight = weight(members[i])
    if parties or headWeight == 1 then
      local room = {i}
      local people = headWeight
      for j = i + 1, #members do
        local w = weight(members[j])
        local fits = people + w <= take and (parties or w == 1)
        if fits and not anyPartners then
          for _, k in ipairs(room) do
            if not compatible(members[k], members[j]) then
              fits = false
              break
            end
          end
        end
        if fits then
          room[#room + 1] = j
          people = people + w
          if people == take then
            return room
          end
        end
      end
      -- the next ones alone did not fill it, a party may: a person alone heads a room of three with the oldest
      -- party that fits
      if parties and headWeight == 1 and take == 3 then
        for j = i + 1, #members do
          if weight(members[j]) == 2 and (anyPartners or compatible(members[i], members[j])) then
            return {i, j}
          end
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
    -- two entries can fill a room of three when one is a party
    if ready >= 2 then
      room = search(size, math.huge, true, false)
      if room == nil and ready > #members then
        widen()
        room = search(size, math.huge, true, false)
      end
    end
    if room == nil and size == 3 and ready >= 2 and scores[1] <= fallbackBefore then
      widen()
      room = search(2, fallbackBefore, false, false)
      if room ~= nil then
        fallback = 1
      end
    end
    if room == nil and ready <= window and scores[1] <= rematchBefore then
      widen()
      room = search(size, scores[1], true, true)
      if room == nil and size == 3 and ready >= 2 then
        room = search(2, fallbackBefore, false, true)
        if room ~= nil then
          fallback = 1
        end
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
