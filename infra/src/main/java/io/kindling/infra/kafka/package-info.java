@NullMarked
package io.kindling.infra.kafka;

import org.jspecify.annotations.NullMarked;
