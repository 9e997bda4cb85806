-- Renews the leases of the streams one instance holds open for one principal.
-- KEYS[1] <service>:streams:{<principal hash>} (acquire_stream_lease.lua)
-- ARGV[1] when the leases now end (ms)
-- ARGV[2] how long a lease lasts (ms)
-- ARGV[3..] the ids of the streams held here
-- A lease that ended meanwhile (the instance paused past it) is counted again: the stream is still open.
for i = 3, #ARGV do
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[i])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return #ARGV - 2
