/**
 * A seeded fuzzer of malformed HTTP requests, sent over raw sockets, that every service's
 * fuzz test drives against its own endpoints.
 */
@NullMarked
package io.kindling.infra.test.fuzz;

import org.jspecify.annotations.NullMarked;
