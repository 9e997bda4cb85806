-- What the queue-stats snapshot needs of one queue, read at once in the queue's slot, changing nothing.
-- KEYS[1] matching:queue:{<topicId>:<size>}, KEYS[2] matching:queue-stats:{<topicId>:<size>}
-- Returns {how many wait, the oldest's score (ms, "" when none wait), how many joins the queue ever had}.
local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {redis.call('ZCARD', KEYS[1]), head[2] or '', redis.call('HGET', KEYS[2], 'joins') or '0'}
