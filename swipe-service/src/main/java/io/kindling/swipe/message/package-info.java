/**
 * A match's conversation: its two people's messages ({@code messages}, keyed by match),
 * each written with its {@code MESSAGE_SENT} outbox row and pushed to both people's event
 * streams; what each has read; and the thread's summary in the list of matches. An ended
 * match (unmatch, block, ban) ends its thread for both.
 */
@NullMarked
package io.kindling.swipe.message;

import org.jspecify.annotations.NullMarked;
