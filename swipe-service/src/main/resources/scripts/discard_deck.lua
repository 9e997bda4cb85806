-- Drops the deck and moves its generation on, so a refill still running does not bring it back.
-- KEYS[1]: deck:{<userId>}, KEYS[2]: deck-gen:{<userId>}
-- ARGV[1]: TTL of the generation (ms)
redis.call('DEL', KEYS[1])
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 1
