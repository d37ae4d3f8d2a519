package io.tidemark.spring.docs;

import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.config.annotation.CorsRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** The documentation's CORS settings for the token; run by {@code DocumentationSamplesTests}. */
class CorsSamples {

  // tag::cors[]
  // A page of another origin may send the token and read the one the answer carries.
  @Bean
  WebMvcConfigurer consistencyTokenCors() {
    return new WebMvcConfigurer() {
      @Override
      public void addCorsMappings(CorsRegistry registry) {
        registry
            .addMapping("/api/**")
            .allowedOrigins("https://shop.example")
            .allowedMethods("GET", "POST", "PUT", "DELETE")
            .allowedHeaders("Consistency-Token", "Content-Type")
            .exposedHeaders("Consistency-Token");
      }
    };
  }
  // end::cors[]
}
