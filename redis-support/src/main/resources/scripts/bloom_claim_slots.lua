-- Claims positions in an owner's bucketed Bloom filter before its items are added
-- with RedisBloom commands, so that concurrent adds never fill a bucket past capacity.
-- KEYS[1]: <name>:{<owner>}:count  items added so far; absent = filter not live
-- ARGV[1]: how many items are about to be added
-- Returns the new count (the items take positions count-n .. count-1), or -1 when not live.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
return redis.call('INCRBY', KEYS[1], ARGV[1])
