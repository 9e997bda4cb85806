@NullMarked
package io.kindling.infra.servers;

import org.jspecify.annotations.NullMarked;
