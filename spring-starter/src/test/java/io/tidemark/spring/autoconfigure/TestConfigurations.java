package io.tidemark.spring.autoconfigure;

import io.tidemark.token.TokenCodec;
import java.time.InstantSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The core beans the web and client auto-configurations need, without a topology. */
public final class TestConfigurations {

  private TestConfigurations() {}

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
