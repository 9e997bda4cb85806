-- Forms at most one room from one queue, atomically: drops those who waited past the timeout, then takes
-- `size` members, or 2 from a size-3 queue whose head has waited past the fallback, oldest first, and moves
-- each from waiting to a room. Lua and not WATCH/MULTI: under load a conflict would make every caller retry.
-- Run alone by polls and the sweeper; a join runs enqueue.lua and then this, as one script.
-- KEYS[1] matching:queue:<topicId>:<size>
-- KEYS[2] matching:queues
-- ARGV[1] key prefix ("matching:"), ARGV[2] size, ARGV[3] topic id, ARGV[4] now (ms),
-- ARGV[5] timed out at or before (ms), ARGV[6] falls back at or before (ms), ARGV[7] room id,
-- ARGV[8] pending room TTL (ms), ARGV[9] most timed-out entries to drop in one call
-- Returns {timed out count, room size (0 = no room), still waiting, fallback 0/1, token1, since1, token2,
-- since2, ...}
local queue = KEYS[1]
local prefix = ARGV[1]
local size = tonumber(ARGV[2])
local timeoutBefore = ARGV[5]

local expired = redis.call('ZRANGEBYSCORE', queue, '-inf', timeoutBefore, 'LIMIT', 0, tonumber(ARGV[9]))
for i = 1, #expired do
  redis.call('DEL', prefix .. 'waiting:' .. expired[i])
  redis.call('ZREM', queue, expired[i])
end

local waiting = redis.call('ZCARD', queue)
local take = 0
local fallback = 0
if waiting > 0 then
  local head = redis.call('ZRANGE', queue, 0, 0, 'WITHSCORES')
  if tonumber(head[2]) <= tonumber(timeoutBefore) then
    -- more timed-out entries than one call drops: never put them in a room, the next call goes on dropping
    return {#expired, 0, waiting, 0}
  end
  if waiting >= size then
    take = size
  elseif size == 3 and waiting >= 2 and tonumber(head[2]) <= tonumber(ARGV[6]) then
    take = 2
    fallback = 1
  end
end
if take == 0 then
  if waiting == 0 then
    redis.call('SREM', KEYS[2], queue)
  end
  return {#expired, 0, waiting, 0}
end

local result = {#expired, take, waiting - take, fallback}
local popped = redis.call('ZPOPMIN', queue, take)
for i = 1, #popped, 2 do
  local token = popped[i]
  local since = popped[i + 1]
  local room = prefix .. 'room:' .. token
  redis.call('DEL', prefix .. 'waiting:' .. token)
  redis.call('HSET', room, 'room_id', ARGV[7], 'topic_id', ARGV[3], 'size', ARGV[2], 'room_type', take,
    'since', since, 'matched_at', ARGV[4])
  -- until the conversation is written: a process that dies after the pop frees its people when this passes
  redis.call('PEXPIRE', room, ARGV[8])
  table.insert(result, token)
  table.insert(result, since)
end
if waiting - take == 0 then
  redis.call('SREM', KEYS[2], queue)
end
return result
