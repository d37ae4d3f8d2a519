package io.tidemark.spring.stacks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What every stack must do, run by each stack's test as its subclass: a read through the stack
 * under {@code @ReadYourWrites} after the stack's write is one read, on the replica once that has
 * waited for the write.
 */
public abstract class StackContract extends StackIT {

  protected StackContract(Class<?> main, String prefix, String... settings) {
    super(main, prefix, settings);
  }

  /** The customer of order {@code id}, read through the stack under {@code @ReadYourWrites}. */
  protected abstract Optional<String> readYourWrites(StackApplication app, long id);

  @Test
  void anAnnotatedReadAfterTheWriteWaitsOnTheReplica() {
    StackApplication.Read<Optional<String>> read =
        app.readAfterWrite(() -> write(app, "ada"), id -> readYourWrites(app, id));

    assertThat(read.waitedOnTheReplica().value()).contains("ada");
  }
}
