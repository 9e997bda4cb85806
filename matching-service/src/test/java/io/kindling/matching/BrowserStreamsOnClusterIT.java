package io.kindling.matching;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RedisMode;

/**
 * The same on a Redis Cluster: each ticket's key has a hash tag of its own, so tickets
 * spread over the primaries, and a ticket one instance issued opens a stream on the
 * other.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching", redis = RedisMode.CLUSTER)
class BrowserStreamsOnClusterIT extends BrowserStreamsIT {

}
