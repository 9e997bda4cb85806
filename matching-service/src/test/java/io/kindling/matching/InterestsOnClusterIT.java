package io.kindling.matching;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RedisMode;

/**
 * The same on a Redis Cluster: a join's queues sit in slots of their own, on several
 * primaries, and its one claim in another.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching", redis = RedisMode.CLUSTER)
class InterestsOnClusterIT extends InterestsIT {

}
