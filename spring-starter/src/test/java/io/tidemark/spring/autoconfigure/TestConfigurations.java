package io.tidemark.spring.autoconfigure;

import io.tidemark.token.TokenCodec;
import java.time.InstantSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.AbstractApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The core beans the web and client auto-configurations need, without a topology. */
public final class TestConfigurations {

  private TestConfigurations() {}

  /** {@code runner} with the tests' token secret and {@code autoConfigurations}. */
  public static <R extends AbstractApplicationContextRunner<R, ?, ?>> R withSecret(
      R runner, Class<?>... autoConfigurations) {
    return runner
        .withPropertyValues("tidemark.token.secret=" + TestTokens.SECRET)
        .withConfiguration(AutoConfigurations.of(autoConfigurations));
  }

  /**
   * {@code runner} with the tests' token secret, {@code autoConfigurations} and the core
   * auto-configuration's token codec, as an application has it.
   */
  public static <R extends AbstractApplicationContextRunner<R, ?, ?>> R withCodec(
      R runner, Class<?>... autoConfigurations) {
    return withSecret(runner, autoConfigurations).withUserConfiguration(Codec.class);
  }

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(TidemarkProperties.class)
  public static class PropertiesOnly {}

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(TidemarkProperties.class)
  public static class Codec {
    @Bean
    TokenCodec tidemarkTokenCodec(TidemarkProperties properties) {
      return new TokenCodec(CoreConfigs.tokenConfig(properties, InstantSource.system()));
    }
  }
}
