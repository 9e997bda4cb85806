/**
 * Bucketed Bloom filters on Redis: RedisBloom's {@code BF.*} commands when the module is
 * loaded, otherwise the same filter on plain bitmaps, behind one interface.
 */
@NullMarked
package io.kindling.redis.bloom;

import org.jspecify.annotations.NullMarked;
