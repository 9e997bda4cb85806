/** Rows that failed too often: listed and retried over HTTP, behind the admin token. */
@NullMarked
package io.kindling.relay.parked;

import org.jspecify.annotations.NullMarked;
