package io.tidemark.spring;

/**
 * A value that knows its row revision: the number a writer raises with every change of the row
 * (deletions included). Values of revision-guarded caches implement it.
 */
public interface Revisioned {

  /** The revision of the row this value was read from, 0 to 2<sup>53</sup>. */
  long revision();
}
