package io.tidemark.spring.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.options;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyContextAccessor;
import io.tidemark.GtidSet;
import io.tidemark.spring.Revisioned;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.web.MockServletContext;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;
import reactor.core.publisher.Hooks;
import reactor.util.context.Context;

/** The documentation's samples that need no servers, run. */
class DocumentationSamplesTests {

  record Order(long id, long revision) implements Revisioned {}

  @Test
  void theCacheManagerOfTheSampleGuardsOrdersAndLeavesOtherCachesAlone() {
    CacheManager manager = new ScopeSamples().cacheManager();

    Cache orders = manager.getCache("orders");
    assertThat(orders).isNotNull();
    orders.put(7L, new Order(7, 2));
    orders.put(7L, new Order(7, 1)); // a slow reader's older row
    assertThat(orders.get(7L, Order.class)).isEqualTo(new Order(7, 2));
    assertThatThrownBy(orders::clear).isInstanceOf(UnsupportedOperationException.class);

    Cache other = manager.getCache("customers");
    assertThat(other).isNotNull();
    other.put(7L, new Order(7, 2));
    other.put(7L, new Order(7, 1));
    assertThat(other.get(7L, Order.class)).isEqualTo(new Order(7, 1));
  }

  @Test
  void theCorsSampleLetsAPageOfTheOriginSendAndReadTheToken() throws Exception {
    try (AnnotationConfigWebApplicationContext context =
        new AnnotationConfigWebApplicationContext()) {
      context.setServletContext(new MockServletContext());
      context.register(CorsApplication.class);
      context.refresh();
      MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();

      mvc.perform(
              options("/api/orders/7")
                  .header(HttpHeaders.ORIGIN, "https://shop.example")
                  .header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "GET")
                  .header(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS, "consistency-token"))
          .andExpect(status().isOk())
          .andExpect(
              header().string(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS, "consistency-token"));
      mvc.perform(get("/api/orders/7").header(HttpHeaders.ORIGIN, "https://shop.example"))
          .andExpect(status().isOk())
          .andExpect(
              header().string(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS, "Consistency-Token"));
      mvc.perform(get("/api/orders/7").header(HttpHeaders.ORIGIN, "https://other.example"))
          .andExpect(status().isForbidden());
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableWebMvc
  @Import(CorsSamples.class)
  static class CorsApplication {
    @Bean
    OrdersController ordersController() {
      return new OrdersController();
    }
  }

  @RestController
  static class OrdersController {
    @GetMapping("/api/orders/{id}")
    String order(@PathVariable long id) {
      return "order " + id;
    }
  }

  private static final GtidSet WRITTEN = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-5");

  @Test
  void theSamplesOfOtherThreadsReadInTheContextOfTheRequest() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    AtomicReference<String> audited = new AtomicReference<>();
    try (ConsistencyContext.Binding request = ConsistencyContext.open(WRITTEN)) {
      Orders orders = new ContextReporting(request.context());

      assertThat(ThreadSamples.contextExecutor(pool, orders, 7).get(10, TimeUnit.SECONDS))
          .contains("in the request's context");
      ThreadSamples.snapshot(orders, 7, audited::set).get(10, TimeUnit.SECONDS);
      assertThat(audited).hasValue("in the request's context");

      String[] decorated = new String[1];
      pool.submit(
              new ThreadSamples()
                  .contextPropagatingTaskDecorator()
                  .decorate(() -> decorated[0] = orders.customer(7).orElseThrow()))
          .get(10, TimeUnit.SECONDS);
      assertThat(decorated[0]).isEqualTo("in the request's context");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theReactorSampleReadsInTheContextItWrites() {
    ConsistencyContext context = ConsistencyContext.create(WRITTEN, null);
    try {
      Optional<String> customer =
          ThreadSamples.reactor(new ContextReporting(context), 7, context)
              .block(Duration.ofSeconds(10));

      assertThat(customer).contains("in the request's context");
    } finally {
      Hooks.disableAutomaticContextPropagation();
    }
  }

  @Test
  void theWebFluxHandlerReadsInTheContextItsRequestsReactorContextHolds() {
    ConsistencyContext context = ConsistencyContext.create(WRITTEN, null);
    Hooks.enableAutomaticContextPropagation();
    try {
      WebTestClient client =
          WebTestClient.bindToRouterFunction(
                  new WebFluxSamples().orderRoutes(new ContextReporting(context)))
              // In place of the starter's filter, which puts each request's context there.
              .webFilter(
                  (exchange, chain) ->
                      chain
                          .filter(exchange)
                          .contextWrite(Context.of(ConsistencyContextAccessor.KEY, context)))
              .build();

      client
          .get()
          .uri("/orders/7")
          .exchange()
          .expectBody(String.class)
          .isEqualTo("in the request's context");
    } finally {
      Hooks.disableAutomaticContextPropagation();
    }
  }

  /** Orders whose read tells whether it ran in the request's context instead of reading. */
  private static final class ContextReporting implements Orders {
    private final ConsistencyContext request;

    ContextReporting(ConsistencyContext request) {
      this.request = request;
    }

    @Override
    public Optional<String> customer(long id) {
      ConsistencyContext bound = ConsistencyContext.currentOrNull();
      return Optional.of(
          bound == request ? "in the request's context" : "in " + bound + " on another thread");
    }
  }
}
