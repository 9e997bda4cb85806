-- Forms at most one room from one queue, atomically, in the queue's slot: drops entries that waited past the timeout,
-- then pops `size` entries, or 2 from a size-3 queue whose head waited past the fallback, oldest first, and records
-- them as popped. Their claims live in other slots: the caller moves each by compare-and-set (swap_claim.lua), and
-- the popped record tells a poll that an entry missing from the queue is being formed, not lost.
-- Lua and not WATCH/MULTI: under load a conflict would make every caller retry.
-- KEYS[1] matching:queue:{<topicId>:<size>}    ZSET, member "<token>:<join id>", score ms when waiting began
-- KEYS[2] matching:popped:{<topicId>:<size>}   ZSET, member as the queue's, score ms when popped
-- ARGV[1] size, ARGV[2] now (ms), ARGV[3] timed out at or before (ms), ARGV[4] falls back at or before (ms),
-- ARGV[5] popped records older than this are forgotten (ms), ARGV[6] most timed-out entries to drop in one call,
-- ARGV[7] an entry to look for ("" = none)
-- Returns {still waiting, fallback 0/1, where the entry is ('queued', 'popped' or 'none'), timed-out count,
-- timed-out member, since, ..., popped member, since, ...}
local queue = KEYS[1]
local popped = KEYS[2]
local size = tonumber(ARGV[1])
local timeoutBefore = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', popped, '-inf', ARGV[5])
local expired = redis.call('ZRANGEBYSCORE', queue, '-inf', timeoutBefore, 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[6]))
for i = 1, #expired, 2 do
  redis.call('ZREM', queue, expired[i])
end

local waiting = redis.call('ZCARD', queue)
local take = 0
local fallback = 0
if waiting > 0 then
  local head = redis.call('ZRANGE', queue, 0, 0, 'WITHSCORES')
  -- more timed-out entries than one call drops: never put them in a room, the next call goes on dropping
  if tonumber(head[2]) > timeoutBefore then
    if waiting >= size then
      take = size
    elseif size == 3 and waiting >= 2 and tonumber(head[2]) <= tonumber(ARGV[4]) then
      take = 2
      fallback = 1
    end
  end
end

local room = {}
if take > 0 then
  room = redis.call('ZPOPMIN', queue, take)
  for i = 1, #room, 2 do
    redis.call('ZADD', popped, ARGV[2], room[i])
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

local result = {waiting - take, fallback, place, #expired / 2}
for i = 1, #expired do
  table.insert(result, expired[i])
end
for i = 1, #room do
  table.insert(result, room[i])
end
return result
