-- Compare-and-set of a token's claim, in the token's own slot: replaces the claim only if it is still the one the
-- caller saw, named by one field (a waiting claim by its join id, a room claim by its room id). Every move of a
-- claim goes through here: waiting -> room (forming), room -> room with its conversation (confirmed), room -> waiting
-- (put back), room -> another room (told its live room), none -> room (found in MySQL), and any -> none (leave,
-- timeout, repair).
-- KEYS[1] matching:claim:{<token>}
-- ARGV[1] field compared, ARGV[2] its expected value ("" = no claim at all), ARGV[3] TTL of the new claim in ms
-- (0 = none),
-- ARGV[4..] field, value, ... of the new claim (none = delete it)
-- Returns 1 when swapped, 0 when the claim was not the expected one (nothing changed).
if ARGV[2] == '' then
  if redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
  end
elseif redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then
  return 0
end
redis.call('DEL', KEYS[1])
if #ARGV > 3 then
  redis.call('HSET', KEYS[1], unpack(ARGV, 4))
  if tonumber(ARGV[3]) > 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
  end
end
return 1
