/**
 * The one HTTP client of the tests and the benches: plain HTTP/1.1 on keep-alive sockets
 * to a service on the loopback, sending exactly the bytes it is given.
 */
@NullMarked
package io.kindling.infra.http;

import org.jspecify.annotations.NullMarked;
