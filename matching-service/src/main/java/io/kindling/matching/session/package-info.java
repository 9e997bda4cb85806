@NullMarked
package io.kindling.matching.session;

import org.jspecify.annotations.NullMarked;
