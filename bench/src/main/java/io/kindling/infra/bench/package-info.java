/**
 * What every {@code ./kindling bench <name>} main needs besides its own measurement: its
 * command line, the stack it runs against, the load driver, CPU accounting, the host's
 * load.
 */
@NullMarked
package io.kindling.infra.bench;

import org.jspecify.annotations.NullMarked;
