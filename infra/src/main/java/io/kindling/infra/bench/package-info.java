/**
 * What every {@code ./kindling bench <name>} main needs besides its own measurement:
 * arguments, service jars as processes, percentiles, tokens, the host's load.
 */
@NullMarked
package io.kindling.infra.bench;

import org.jspecify.annotations.NullMarked;
