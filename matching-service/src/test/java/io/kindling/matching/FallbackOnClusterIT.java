package io.kindling.matching;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RedisMode;

/**
 * The same on a Redis Cluster: a size's fallback queue is one slot of its own
 * ({@code {any:<size>}}), the topics' queues others, each claim another.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching", redis = RedisMode.CLUSTER)
class FallbackOnClusterIT extends FallbackIT {

}
