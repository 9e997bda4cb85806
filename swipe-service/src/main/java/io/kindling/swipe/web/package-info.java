@NullMarked
package io.kindling.swipe.web;

import org.jspecify.annotations.NullMarked;
