package io.tidemark.spring.autoconfigure;

/**
 * Where an application's tokens travel over HTTP, as its web configuration tells the start-up line:
 * the header, and the cookie for browsers.
 */
@FunctionalInterface
public interface TokenCarriers {

  /** For example "tokens travel in the Consistency-Token header and the ... cookie". */
  String describe();
}
