/**
 * Spring test support: {@link io.tidemark.testkit.spring.TestTopology} connects a Spring Boot
 * test's application to the testkit's servers. Needs {@code spring-test} on the class path.
 */
@NullMarked
package io.tidemark.testkit.spring;

import org.jspecify.annotations.NullMarked;
