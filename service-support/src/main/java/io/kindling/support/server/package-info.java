/** Where a process listens: the bind address every server socket of a service shares. */
@NullMarked
package io.kindling.support.server;

import org.jspecify.annotations.NullMarked;
