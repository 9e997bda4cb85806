/**
 * The operators' API's gate: {@code kindling.matching.admin-token} on
 * {@code /api/admin/**}.
 */
@NullMarked
package io.kindling.matching.admin;

import org.jspecify.annotations.NullMarked;
