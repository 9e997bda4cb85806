package io.kindling.matching;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RedisMode;

/**
 * The same on a Redis Cluster: a party's key, its code's, each member's claim and the
 * queue sit in slots of their own, on several primaries.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching", redis = RedisMode.CLUSTER)
class PartiesOnClusterIT extends PartiesIT {

}
