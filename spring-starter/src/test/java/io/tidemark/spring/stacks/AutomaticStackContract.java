package io.tidemark.spring.stacks;

import org.junit.jupiter.api.Test;

/**
 * What every stack must do in the automatic mode too, on MySQL and on PostgreSQL, run by the
 * stack's test as its subclass: its reads without an annotation, after its write, wait on the
 * replica.
 */
public abstract class AutomaticStackContract extends StackContract {

  protected AutomaticStackContract(Class<?> main, String prefix, String... settings) {
    super(main, prefix, settings);
  }

  /**
   * Writes through the stack on {@code automatic}, an application in the automatic mode, and
   * asserts that the stack's reads without an annotation waited on the replica and saw the writes.
   */
  protected abstract void unannotatedReadsSeeTheWrites(StackApplication automatic);

  @Test
  void inTheAutomaticModeUnannotatedReadsSeeTheWrites() {
    try (StackApplication automatic = automatic(prefix() + "auto")) {
      unannotatedReadsSeeTheWrites(automatic);
    }
  }

  @Test
  void onPostgresqlInTheAutomaticModeUnannotatedReadsSeeTheWrites() {
    try (StackApplication automatic = automaticOnPostgres(prefix() + "pg")) {
      unannotatedReadsSeeTheWrites(automatic);
    }
  }
}
