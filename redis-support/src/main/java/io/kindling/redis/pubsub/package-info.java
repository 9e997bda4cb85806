/**
 * Sharded pub/sub ({@code SSUBSCRIBE}): a channel lives in a slot, like a key, and is
 * heard on the node that serves that slot, so its messages cross a cluster's bus to no
 * other node.
 */
@NullMarked
package io.kindling.redis.pubsub;

import org.jspecify.annotations.NullMarked;
