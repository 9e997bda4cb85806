/**
 * The operators' console's server side: the page at {@code /ops}, and its charts and
 * alerts, read from Prometheus here (the browser never calls Prometheus), behind the
 * operators' token.
 */
@NullMarked
package io.kindling.webclient.ops;

import org.jspecify.annotations.NullMarked;
