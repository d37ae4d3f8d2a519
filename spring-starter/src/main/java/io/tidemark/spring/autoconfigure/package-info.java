/**
 * Auto-configuration of Tidemark for Spring Boot: the read routing behind {@code @ReadYourWrites},
 * write capture on the application's {@code DataSource}, the consistency header on HTTP requests
 * and clients, metrics and health. Only the auto-configuration classes and {@link
 * io.tidemark.spring.autoconfigure.TidemarkProperties} are API.
 */
@NullMarked
package io.tidemark.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
