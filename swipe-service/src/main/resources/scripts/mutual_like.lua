-- The mutual-like script: records one right swipe of a pair and says whether the other side
-- had already swiped right, atomically, so two simultaneous likes see each other exactly once.
-- KEYS[1]: match_pair:{min_user_id:max_user_id}
--          (the full normalized pair is the Redis Cluster hash tag: all state of a pair is on one slot)
-- ARGV[1]: current_field, 'right_a' when the swiper is the smaller user id (min liked max), else 'right_b'
-- ARGV[2]: request_id (the Idempotency-Key)
-- Returns 2: this request was already recorded (a retry; state unchanged)
--         1: the other side had liked: a mutual match
--         0: recorded, no like from the other side here (the caller confirms against MySQL)
-- The swipe is durable in MySQL before this runs; the key expires 30 days after the last like.
local pair_key = KEYS[1]
local current_field = ARGV[1]
local request_id = ARGV[2]
local request_field = 'request:' .. request_id

-- Reject an already-processed request without changing state
if redis.call('HEXISTS', pair_key, request_field) == 1 then
  return 2
end

local other_field = 'right_a'
if current_field == 'right_a' then
  other_field = 'right_b'
end

-- Check whether the other side has already liked this pair
local already_liked = redis.call('HGET', pair_key, other_field)

-- Record the current user's right swipe
redis.call('HSET', pair_key, current_field, '1')
redis.call('HSET', pair_key, request_field, 'processed')
redis.call('EXPIRE', pair_key, 2592000)

if already_liked == '1' then
  -- Mutual match confirmed atomically. Durable match persistence follows idempotently.
  return 1
end

-- Recorded right swipe, but no mutual match yet
return 0
