-- Counts one request in a fixed one-minute window per address (an IPv6 one by its /64); the window's key expires
-- with the window.
-- KEYS[1] matching:rate:<kind>:<address or /64>:<window index>
-- ARGV[1] window TTL (ms)
-- Returns the count in this window, this request included.
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return count
