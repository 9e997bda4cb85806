@NullMarked
package io.kindling.matching.web;

import org.jspecify.annotations.NullMarked;
