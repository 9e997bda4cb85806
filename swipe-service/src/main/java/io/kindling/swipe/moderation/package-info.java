/**
 * Moderation: the queue of users' reports, user bans and the operators' audit trail,
 * behind {@code kindling.swipe.admin-token} ({@code /api/admin/**}). A banned user is
 * refused everywhere, hidden from decks and likes, and loses their matches.
 */
@NullMarked
package io.kindling.swipe.moderation;

import org.jspecify.annotations.NullMarked;
