/**
 * The consistency header on the requests the application serves and the calls it makes: the filter,
 * problem answers, the HTTP client interceptors and the task decorator, with their
 * auto-configuration.
 */
@NullMarked
package io.tidemark.spring.web;

import org.jspecify.annotations.NullMarked;
