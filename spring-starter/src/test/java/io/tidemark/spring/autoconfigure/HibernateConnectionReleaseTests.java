package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

class HibernateConnectionReleaseTests {

  private final HibernateConnectionRelease release = new HibernateConnectionRelease();

  @Test
  void releasesTheConnectionAfterEachTransactionUnlessTheApplicationChoseAReleasingMode() {
    Map<String, Object> defaults = new HashMap<>();
    release.customize(defaults);
    Map<String, Object> chosen =
        new HashMap<>(
            Map.of(
                HibernateConnectionRelease.HANDLING_MODE,
                "DELAYED_ACQUISITION_AND_RELEASE_AFTER_STATEMENT"));
    release.customize(chosen);

    assertThat(defaults)
        .containsEntry(
            HibernateConnectionRelease.HANDLING_MODE,
            HibernateConnectionRelease.RELEASE_AFTER_TRANSACTION);
    assertThat(chosen)
        .containsEntry(
            HibernateConnectionRelease.HANDLING_MODE,
            "DELAYED_ACQUISITION_AND_RELEASE_AFTER_STATEMENT");
  }

  @Test
  void appliesOnlyWhereASessionLastsTheWholeRequest() {
    Class<?> configuration = TidemarkAutoConfiguration.HibernateConfiguration.class;
    new WebApplicationContextRunner()
        .withUserConfiguration(configuration)
        .run(context -> assertThat(context).hasSingleBean(HibernateConnectionRelease.class));
    new WebApplicationContextRunner()
        .withUserConfiguration(configuration)
        .withPropertyValues("spring.jpa.open-in-view=false")
        .run(context -> assertThat(context).doesNotHaveBean(HibernateConnectionRelease.class));
    new ApplicationContextRunner()
        .withUserConfiguration(configuration)
        .run(context -> assertThat(context).doesNotHaveBean(HibernateConnectionRelease.class));
  }

  @Test
  void refusesAModeThatHoldsTheConnectionForTheSession() {
    Map<String, Object> holding =
        new HashMap<>(
            Map.of(HibernateConnectionRelease.HANDLING_MODE, "delayed_acquisition_and_hold"));

    assertThatThrownBy(() -> release.customize(holding))
        .isInstanceOfSatisfying(
            TidemarkStartupException.class,
            e -> assertThat(e.action()).contains("Remove the setting"))
        .hasMessageContaining("@ReadYourWrites");
  }
}
