@NullMarked
package io.kindling.matching.topic;

import org.jspecify.annotations.NullMarked;
