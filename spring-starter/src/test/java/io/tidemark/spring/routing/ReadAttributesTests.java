package io.tidemark.spring.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyLevel;
import io.tidemark.ReadPolicy;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.spring.ReadYourWrites;
import java.lang.reflect.Method;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.util.StringValueResolver;

class ReadAttributesTests {

  private final MockEnvironment environment = new MockEnvironment();
  private final StringValueResolver values = environment::resolveRequiredPlaceholders;
  private final ReadOptions defaults =
      ReadOptions.defaults().withTimeout(Duration.ofSeconds(1)).withPolicy(ReadPolicy.RETRY);

  @Test
  void unsetAttributesKeepTheConfiguredDefaults() throws Exception {
    ReadOptions options = attributes("plain").options(defaults, null);

    assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(1));
    assertThat(options.policy()).isEqualTo(ReadPolicy.RETRY);
    assertThat(options.tables()).isEmpty();
    assertThat(options.level()).isEqualTo(ConsistencyLevel.SESSION);
  }

  @Test
  void aLevelOverridesTheConfiguredOneAndTwoAreRefused() throws Exception {
    assertThat(attributes("global").options(defaults, null).level())
        .isEqualTo(ConsistencyLevel.GLOBAL);
    refused("twoLevels", "more than one level");
  }

  @Test
  void millisecondTimeoutPolicyAndTablesOverrideTheDefaults() throws Exception {
    ReadOptions options = attributes("explicit").options(defaults, null);

    assertThat(options.timeout()).isEqualTo(Duration.ofMillis(250));
    assertThat(options.policy()).isEqualTo(ReadPolicy.FAIL);
    assertThat(options.tables()).containsExactly("shop.orders");
  }

  @Test
  void timeoutStringResolvesPlaceholders() throws Exception {
    environment.setProperty("orders.read-timeout", "750ms");

    assertThat(attributes("placeholder").options(defaults, null).timeout())
        .isEqualTo(Duration.ofMillis(750));
  }

  @Test
  void requestBudgetCapsTheReadsBudget() throws Exception {
    ReadAttributes attributes = attributes("explicit");

    assertThat(attributes.options(defaults, Duration.ofMillis(100)).timeout())
        .isEqualTo(Duration.ofMillis(100));
    assertThat(attributes.options(defaults, Duration.ofMillis(-5)).timeout())
        .as("a spent request budget leaves a non-blocking check")
        .isZero();
    assertThat(attributes.options(defaults, Duration.ofSeconds(5)).timeout())
        .isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void timeoutStringThatIsNoDurationNamesTheMethod() {
    refused("notADuration", "soon");
  }

  @Test
  void aMaxStalenessOverridesTheConfiguredOneAndANegativeOrUnparsableOneNamesTheMethod()
      throws Exception {
    ReadOptions options = attributes("bounded").options(defaults, null);

    assertThat(options.level()).isEqualTo(ConsistencyLevel.BOUNDED);
    assertThat(options.maxStaleness()).isEqualTo(Duration.ofMillis(500));
    assertThat(attributes("plain").options(defaults, null).maxStaleness())
        .isEqualTo(ReadOptions.DEFAULT_MAX_STALENESS);
    refused("negativeStaleness", "negative maxStaleness");
    refused("unparsableStaleness", "maxStaleness = \"a while\"");
  }

  @Test
  void twoPoliciesAreRefused() {
    assertThatThrownBy(() -> attributes("twoPolicies"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more than one policy");
  }

  private static ReadAttributes attributesOf(Method method, StringValueResolver values) {
    return ReadAttributes.of(
        method.getAnnotation(ReadYourWrites.class), method, method.getName(), values);
  }

  /** Checks the annotation on {@code method} is refused, naming the method and {@code why}. */
  private void refused(String method, String why) {
    assertThatThrownBy(() -> attributes(method))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(method)
        .hasMessageContaining(why);
  }

  private ReadAttributes attributes(String name) throws NoSuchMethodException {
    return attributesOf(Annotated.class.getDeclaredMethod(name), values);
  }

  @SuppressWarnings("unused")
  private static final class Annotated {
    @ReadYourWrites
    void plain() {}

    @ReadYourWrites(timeout = 250, onTimeout = ReadPolicy.FAIL, tables = "shop.orders")
    void explicit() {}

    @ReadYourWrites(timeoutString = "${orders.read-timeout}")
    void placeholder() {}

    @ReadYourWrites(timeoutString = "soon")
    void notADuration() {}

    @ReadYourWrites(onTimeout = {ReadPolicy.FAIL, ReadPolicy.RETRY})
    void twoPolicies() {}

    @ReadYourWrites(level = ConsistencyLevel.GLOBAL)
    void global() {}

    @ReadYourWrites(level = {ConsistencyLevel.SESSION, ConsistencyLevel.GLOBAL})
    void twoLevels() {}

    @ReadYourWrites(level = ConsistencyLevel.BOUNDED, maxStaleness = "500ms")
    void bounded() {}

    @ReadYourWrites(level = ConsistencyLevel.BOUNDED, maxStaleness = "-1s")
    void negativeStaleness() {}

    @ReadYourWrites(level = ConsistencyLevel.BOUNDED, maxStaleness = "a while")
    void unparsableStaleness() {}
  }
}
