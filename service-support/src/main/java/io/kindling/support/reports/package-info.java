/**
 * What the operators' report queues of the services share: the two lists and their
 * cursors, and the two ways a report is resolved. Each service keeps its own reports,
 * bans and audit.
 */
@NullMarked
package io.kindling.support.reports;

import org.jspecify.annotations.NullMarked;
