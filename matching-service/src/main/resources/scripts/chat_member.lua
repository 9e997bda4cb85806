-- A change of a room's members. 'seat' marks a member in without a word (the room's people when it forms, or one
-- whose entry a failover lost); 'join' (someone seated later) and 'leave' also append a JOINED or LEFT entry to the
-- stream and publish it, as chat_send.lua does a message, unless the member was in (or out) already. A member who
-- left stays out: 'seat' does not bring them back.
-- KEYS[1]: matching:chat:{<conversationId>}          the stream
-- KEYS[2]: matching:chat-members:{<conversationId>}  hash: alias -> in | left
-- ARGV[1]: alias   ARGV[2]: seat | join | leave   ARGV[3]: now (ms)   ARGV[4]: entries to keep, about
-- ARGV[5]: when the room's keys expire (ms)   ARGV[6]: the room's shard channel
-- Returns {'changed', id} · {'unchanged'}
local state = redis.call('HGET', KEYS[2], ARGV[1])
local wanted = 'in'
local kind = 'JOINED'
if ARGV[2] == 'leave' then
  wanted = 'left'
  kind = 'LEFT'
end
if ARGV[2] == 'seat' then
  if not state then
    redis.call('HSET', KEYS[2], ARGV[1], 'in')
  end
  redis.call('PEXPIREAT', KEYS[2], ARGV[5])
  return {'unchanged'}
end
if state == wanted then
  redis.call('PEXPIREAT', KEYS[2], ARGV[5])
  return {'unchanged'}
end
redis.call('HSET', KEYS[2], ARGV[1], wanted)
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local previous = '0-0'
if #last > 0 then
  previous = last[1][1]
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '*', 'kind', kind, 'member', ARGV[1], 'at', ARGV[3])
for i = 1, 2 do
  redis.call('PEXPIREAT', KEYS[i], ARGV[5])
end
redis.call('SPUBLISH', ARGV[6], cjson.encode({id = id, previous = previous, kind = kind, member = ARGV[1],
  at = ARGV[3]}))
return {'changed', id}
