/**
 * The demo web app's server: it hands out the static page (plain HTML, CSS and ES modules
 * under {@code static/}) and tells it where the two services are. It issues no tokens:
 * the page gets the demo user's token from {@code ./kindling web <userId>}, in the URL
 * fragment, which never reaches a server.
 */
@NullMarked
package io.kindling.webclient;

import org.jspecify.annotations.NullMarked;
