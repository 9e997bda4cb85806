-- A new party, in its own slot: the hash of its creator and code, with the party's lifetime; nothing if the id is
-- taken (never, with 128 random bits, but a party is never overwritten).
-- KEYS[1] matching:party:{<party id>}   hash: code, creator, created_at; later member, member_address
-- ARGV[1] code, ARGV[2] creator's token, ARGV[3] now (ms), ARGV[4] lifetime (ms)
-- Returns 1 when made, 0 when the key existed.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'code', ARGV[1], 'creator', ARGV[2], 'created_at', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
