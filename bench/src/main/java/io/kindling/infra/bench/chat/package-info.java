/**
 * {@code ./kindling bench chat}: a room message's fan-out from one matching-service
 * instance to a socket on the other, and a match's messages per second against a raw
 * insert of the same rows.
 */
@NullMarked
package io.kindling.infra.bench.chat;

import org.jspecify.annotations.NullMarked;
