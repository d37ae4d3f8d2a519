package io.tidemark.spring.docs;

import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** A WebFlux handler of the documentation; run by {@code DocumentationSamplesTests}. */
class WebFluxSamples {

  // tag::handler[]
  // The blocking read runs off the event loop, in its request's consistency context.
  @Bean
  RouterFunction<ServerResponse> orderRoutes(Orders orders) {
    return RouterFunctions.route()
        .GET(
            "/orders/{id}",
            request ->
                Mono.fromCallable(() -> orders.customer(Long.parseLong(request.pathVariable("id"))))
                    .subscribeOn(Schedulers.boundedElastic())
                    .flatMap(customer -> ServerResponse.ok().bodyValue(customer.orElse("none"))))
        .build();
  }
  // end::handler[]
}
