-- Appends one event to a user's event log, and says which event came before it, so that a
-- stream that sent that one can send this one at once, and any other reads the gap first.
-- KEYS[1]: user_events:{<userId>}  a stream; entry ids are Redis's own (ms-seq), so they only grow,
--          also after the log expired or was lost
-- ARGV[1]: event type, ARGV[2]: data (JSON), ARGV[3]: entries kept at most,
-- ARGV[4]: ms the log is kept after its last event
-- Returns {previous entry id, or '0-0' when the log was empty, new entry id}.
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local previous = '0-0'
if #last > 0 then
  previous = last[1][1]
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[3], '*', 'type', ARGV[1], 'data', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {previous, id}
