@NullMarked
package io.kindling.swipe.report;

import org.jspecify.annotations.NullMarked;
