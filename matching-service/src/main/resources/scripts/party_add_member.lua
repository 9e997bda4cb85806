-- A second session joins a party, in the party's slot: the first to come is its member, for good; the creator and
-- the member asking again change nothing; anyone else finds it full. Each change renews the party's lifetime.
-- KEYS[1] matching:party:{<party id>}   hash: code, creator, created_at, member, member_address
-- ARGV[1] the joining token, ARGV[2] the address it joins from, ARGV[3] lifetime (ms)
-- Returns {outcome, members}: outcome 'none' (no such party), 'creator', 'member' (already in), 'added' or 'full'.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'none', 0}
end
local party = redis.call('HMGET', KEYS[1], 'creator', 'member')
local creator, member = party[1], party[2]
local members = 1
if member then
  members = 2
end
if creator == ARGV[1] then
  return {'creator', members}
end
if member == ARGV[1] then
  return {'member', members}
end
if member then
  return {'full', members}
end
redis.call('HSET', KEYS[1], 'member', ARGV[1], 'member_address', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {'added', 2}
