-- Counts one stream ticket in a fixed one-minute window per principal; the window's key expires with the window.
-- KEYS[1] <ticket prefix>count:{<principal hash>}:<window index>
-- ARGV[1] window TTL (ms)
-- Returns the count in this window, this ticket included.
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return count
