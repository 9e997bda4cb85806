/**
 * The demo town: a few demo users and the people around them, made through
 * swipe-service's own API for the web client to show.
 */
@NullMarked
package io.kindling.infra.demo;

import org.jspecify.annotations.NullMarked;
