package io.tidemark.spring.stacks;

import io.tidemark.testkit.junit.SharedServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

/**
 * A stack's tests: its application, started once for them on the testkit's shared MySQL topology,
 * the same application started again in the automatic mode for the tests that need it, and the
 * stack's own way to write an order.
 */
@TestInstance(Lifecycle.PER_CLASS)
public abstract class StackIT {

  private static final String AUTOMATIC = "tidemark.read.automatic=true";

  private final Class<?> main;
  private final String prefix;
  private final String[] settings;

  /** The application the class's tests share, started before them and closed after them. */
  protected StackApplication app;

  /** {@code main} started as {@link StackApplication#start} starts it, with these arguments. */
  protected StackIT(Class<?> main, String prefix, String... settings) {
    this.main = main;
    this.prefix = prefix;
    this.settings = settings;
  }

  @BeforeAll
  final void start() {
    app = StackApplication.start(main, SharedServers.topology(), prefix, settings);
  }

  @AfterAll
  final void stop() {
    app.close();
  }

  /** What the application's database is named after. */
  final String prefix() {
    return prefix;
  }

  /** Writes an order for {@code customer} through the stack on {@code app}; returns its id. */
  protected abstract long write(StackApplication app, String customer);

  /** The application again, in the automatic mode, on a database named after {@code prefix}. */
  protected final StackApplication automatic(String prefix) {
    return StackApplication.start(main, app.topology(), prefix, AUTOMATIC);
  }

  /** As {@link #automatic}, on PostgreSQL. */
  protected final StackApplication automaticOnPostgres(String prefix) {
    return StackApplication.startOnPostgres(main, prefix, AUTOMATIC);
  }
}
