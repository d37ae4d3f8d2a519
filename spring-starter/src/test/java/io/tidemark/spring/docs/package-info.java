/**
 * The code samples of README.md and docs/: each sits between {@code // tag::name[]} and {@code //
 * end::name[]} lines and is copied into the Markdown as it is here, which {@code
 * DocumentationSnippetsTests} checks. Samples that need no servers are run by {@code
 * DocumentationSamplesTests}; the others are compiled.
 */
package io.tidemark.spring.docs;
