/**
 * The JUnit 5 extension every module's integration tests share: real servers on free
 * ports in temporary directories, started once per test JVM and removed when it ends.
 */
@NullMarked
package io.kindling.infra.test;

import org.jspecify.annotations.NullMarked;
