-- Appends a member's message to a room's stream and publishes it to the instances holding the room's sockets,
-- in one step, so every socket gets the room's entries in the stream's order. A member who left sends nothing;
-- the same client_message_id from the same member again appends nothing (a client's resend after a reconnect).
-- Every key and the channel carry the room's tag: one slot.
-- KEYS[1]: matching:chat:{<conversationId>}          the stream
-- KEYS[2]: matching:chat-members:{<conversationId>}  hash: alias -> in | left
-- KEYS[3]: matching:chat-sent:{<conversationId>}     hash: <alias>:<client message id> -> entry id
-- ARGV[1]: alias   ARGV[2]: text   ARGV[3]: client message id   ARGV[4]: now (ms)
-- ARGV[5]: entries to keep, about   ARGV[6]: when the room's keys expire (ms)
-- ARGV[7]: the room's shard channel
-- Returns {'sent', id} · {'duplicate', id of the first} · {'not-member'}
if redis.call('HGET', KEYS[2], ARGV[1]) ~= 'in' then
  return {'not-member'}
end
local sent = ARGV[1] .. ':' .. ARGV[3]
local earlier = redis.call('HGET', KEYS[3], sent)
if earlier then
  return {'duplicate', earlier}
end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local previous = '0-0'
if #last > 0 then
  previous = last[1][1]
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[5], '*',
  'kind', 'MESSAGE', 'member', ARGV[1], 'text', ARGV[2], 'cmid', ARGV[3], 'at', ARGV[4])
redis.call('HSET', KEYS[3], sent, id)
for i = 1, 3 do
  redis.call('PEXPIREAT', KEYS[i], ARGV[6])
end
redis.call('SPUBLISH', ARGV[7], cjson.encode({id = id, previous = previous, kind = 'MESSAGE', member = ARGV[1],
  text = ARGV[2], cmid = ARGV[3], at = ARGV[4]}))
return {'sent', id}
