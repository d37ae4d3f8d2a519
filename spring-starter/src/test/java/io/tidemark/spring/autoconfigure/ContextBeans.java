package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Which beans an auto-configuration contributes, and which it leaves out with a library gone. */
public final class ContextBeans {

  private ContextBeans() {}

  /** Checks {@code context} started with one bean of each of {@code types}. */
  public static void hasOne(AssertableApplicationContext context, Class<?>... types) {
    for (Class<?> type : types) {
      assertThat(context).hasSingleBean(type);
    }
  }

  /** Checks {@code context} started without a bean of any of {@code types}. */
  public static void hasNone(AssertableApplicationContext context, Class<?>... types) {
    for (Class<?> type : types) {
      assertThat(context).doesNotHaveBean(type);
    }
  }

  /**
   * Checks that with what {@code classLoader} filters out of the class path, {@code runner}'s
   * context starts with one bean of {@code kept} and none of {@code leftOut}.
   */
  public static void withoutOnTheClassPath(
      ApplicationContextRunner runner,
      FilteredClassLoader classLoader,
      Class<?> kept,
      Class<?>... leftOut) {
    runner
        .withClassLoader(classLoader)
        .run(
            context -> {
              hasNone(context, leftOut);
              hasOne(context, kept);
            });
  }
}
