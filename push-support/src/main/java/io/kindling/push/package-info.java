/**
 * Event streams a browser can receive, shared by the services: single-use stream tickets
 * (an {@code EventSource} cannot send an {@code Authorization} header), the streams open
 * on one instance, and the Redis pub/sub subscription that brings events from the others.
 */
@NullMarked
package io.kindling.push;

import org.jspecify.annotations.NullMarked;
