-- Starts a boost unless one is active or the user is inside the cooldown since the last one.
-- KEYS[1]: boost:{<userId>}           value = expiry (ms), SET NX PX duration (30 min by default)
-- KEYS[2]: boost_cooldown:{<userId>}  value = end of the cooldown (ms), PX cooldown
-- ARGV[1]: now (ms), ARGV[2]: duration (ms), ARGV[3]: cooldown (ms)
-- Returns {0, expiry} started · {1, expiry} one is active (no stacking) · {2, cooldown end} in cooldown.
-- Times come from the service's clock; the TTLs only clean up.
local now = tonumber(ARGV[1])
local active = redis.call('GET', KEYS[1])
if active then
  if tonumber(active) > now then
    return {1, tonumber(active)}
  end
  redis.call('DEL', KEYS[1])
end
local cooldown = redis.call('GET', KEYS[2])
if cooldown and tonumber(cooldown) > now then
  return {2, tonumber(cooldown)}
end
local expiry = now + tonumber(ARGV[2])
if not redis.call('SET', KEYS[1], expiry, 'NX', 'PX', ARGV[2]) then
  return {1, expiry}
end
redis.call('SET', KEYS[2], now + tonumber(ARGV[3]), 'PX', ARGV[3])
return {0, expiry}
