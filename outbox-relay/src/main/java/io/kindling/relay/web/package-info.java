/** The admin API's error shape. */
@NullMarked
package io.kindling.relay.web;

import org.jspecify.annotations.NullMarked;
