package io.kindling.matching;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RedisMode;

/**
 * The same on a Redis Cluster: a queue's open seats in its slot, the people's claims in
 * theirs, the room's socket channel in the room's.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching", redis = RedisMode.CLUSTER)
class BackfillOnClusterIT extends BackfillIT {

}
