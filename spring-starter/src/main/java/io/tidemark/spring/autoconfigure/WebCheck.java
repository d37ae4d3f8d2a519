package io.tidemark.spring.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import reactor.core.publisher.Hooks;

/**
 * Refuses to start a reactive web server without Reactor's automatic context propagation: the token
 * filter puts each request's consistency context into its Reactor {@code Context}, and only that
 * propagation binds it on the threads the request's reads run on, so without it every read under
 * {@code @ReadYourWrites} would skip the wait. Turning it on for the application instead would
 * change every Reactor chain of the JVM behind the application's back. Says in one line when the
 * application turned the web side off itself.
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
    } else if (reactive && !Hooks.isAutomaticContextPropagationEnabled()) {
      throw new TidemarkStartupException(
          "This is a reactive web application without Reactor's automatic context propagation:"
              + " the consistency context of a request would not reach the threads its reads run"
              + " on, so they would never wait for its writes.",
          "Set spring.reactor.context-propagation=auto (with io.micrometer:context-propagation on"
              + " the class path), or set tidemark.web.enabled=false and open each request's"
              + " consistency context in your own code, or set tidemark.enabled=false.");
    }
  }
}
