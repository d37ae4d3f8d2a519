package io.tidemark.spring.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Refuses to start a reactive web server, whose requests never pass the servlet filter that reads
 * their tokens, so every read under {@code @ReadYourWrites} would skip the wait; and says in one
 * line when the application turned the web side off itself.
 */
final class WebCheck implements SmartInitializingSingleton {

  private static final Log log = LogFactory.getLog(WebCheck.class);

  private final boolean reactive;
  private final boolean enabled;

  WebCheck(boolean reactive, boolean enabled) {
    this.reactive = reactive;
    this.enabled = enabled;
  }

  @Override
  public void afterSingletonsInstantiated() {
    if (!enabled) {
      log.info(
          "Tidemark reads no consistency token from HTTP requests (tidemark.web.enabled=false):"
              + " reads wait only for tokens the code puts in the consistency context.");
    } else if (reactive) {
      throw new TidemarkStartupException(
          "This is a reactive web application: Tidemark reads consistency tokens from servlet"
              + " requests only, so the reads of its requests would never wait for their writes.",
          "Run the application on Spring MVC (spring-boot-starter-webmvc), or set"
              + " tidemark.web.enabled=false and open each request's consistency context in your"
              + " own code, or set tidemark.enabled=false.");
    }
  }
}
