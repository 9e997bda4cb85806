/**
 * The web edge the services share: problem details, strict JSON, the body limit, store
 * outages.
 */
@NullMarked
package io.kindling.support.web;

import org.jspecify.annotations.NullMarked;
