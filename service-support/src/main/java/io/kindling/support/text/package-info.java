/** What a person may write in a conversation, the same in rooms and in matches. */
@NullMarked
package io.kindling.support.text;

import org.jspecify.annotations.NullMarked;
