-- Undoes a popped room in the queue's slot, once its claims are settled: those whose claims went back to waiting
-- return to the queue with the score and the recent partners they had, so nobody loses their place; every popped
-- record of the room goes.
-- KEYS[1] matching:queue:{<topicId>:<size>}, KEYS[2] matching:popped:{<topicId>:<size>},
-- KEYS[3] matching:entry-partners:{<topicId>:<size>}
-- ARGV member, since (ms), back (1 = into the queue, 0 = only forget it), recent partners ("" for none), member, ...
-- Returns how many went back.
local back = 0
for i = 1, #ARGV, 4 do
  redis.call('ZREM', KEYS[2], ARGV[i])
  if ARGV[i + 2] == '1' then
    redis.call('ZADD', KEYS[1], ARGV[i + 1], ARGV[i])
    if ARGV[i + 3] ~= '' then
      redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 3])
    end
    back = back + 1
  end
end
return back
