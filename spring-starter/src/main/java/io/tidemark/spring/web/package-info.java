/**
 * The consistency header on the requests the application serves and the calls it makes: the servlet
 * and the reactive filter, problem answers, the HTTP client interceptors and the task decorator,
 * with their settings ({@code tidemark.web.*}) and auto-configuration.
 */
@NullMarked
package io.tidemark.spring.web;

import org.jspecify.annotations.NullMarked;
