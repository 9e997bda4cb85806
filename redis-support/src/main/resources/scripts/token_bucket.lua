-- Takes one token from a bucket that refills at a steady rate up to its burst: a sender may send `burst`
-- messages at once, then `rate` a second. The bucket is a hash that expires once it would be full again.
-- KEYS[1]: the bucket, a hash {tokens, at}
-- ARGV[1]: now (ms, from the caller's clock; a time before the bucket's own refills nothing)
-- ARGV[2]: tokens per second
-- ARGV[3]: burst, the most tokens the bucket holds
-- Returns 0 when a token was taken, else the ms until one will be there (nothing is taken then).
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
if now > at then
  tokens = math.min(burst, tokens + (now - at) * rate / 1000)
  at = now
end
if tokens < 1 then
  return math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens - 1), 'at', tostring(at))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return 0
