package io.tidemark.spring.web;

import io.tidemark.spring.autoconfigure.TestConfigurations;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.web.reactive.function.client.WebClient;

/** The HTTP clients Boot builds, with Tidemark's client auto-configuration and the core's codec. */
final class BootClients {

  private BootClients() {}

  /**
   * A runner of Boot's RestClient, RestTemplate and WebClient auto-configurations and Tidemark's.
   */
  static ApplicationContextRunner runner() {
    return TestConfigurations.withCodec(
        new ApplicationContextRunner(),
        HttpMessageConvertersAutoConfiguration.class,
        RestClientAutoConfiguration.class,
        RestTemplateAutoConfiguration.class,
        WebClientAutoConfiguration.class,
        TidemarkClientAutoConfiguration.class);
  }

  /** A WebClient of the builder Boot configures in {@code context}. */
  static WebClient webClient(ApplicationContext context) {
    return context.getBean(WebClient.Builder.class).build();
  }
}
