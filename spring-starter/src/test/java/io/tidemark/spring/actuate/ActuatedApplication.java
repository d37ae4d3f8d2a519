package io.tidemark.spring.actuate;

import io.tidemark.testkit.mysql.MySqlTopology;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** A whole Boot application, actuator and all, on a database of the testkit's topology. */
final class ActuatedApplication {

  private ActuatedApplication() {}

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class Boot {}

  /**
   * Starts the application, with {@code bean} made from the application's beans, on database {@code
   * db} of {@code topology}'s source and replica, as a web server on a free port; {@code
   * properties} are more, key=value.
   */
  static ConfigurableApplicationContext start(
      MySqlTopology topology, String db, Class<?> bean, String... properties) {
    return new SpringApplicationBuilder(Boot.class, bean)
        .properties(
            "server.port=0",
            "spring.datasource.url=" + topology.source().jdbcUrl(db),
            "spring.datasource.username=" + topology.source().user(),
            "spring.datasource.password=" + topology.source().password(),
            "tidemark.replicas[0].url=" + topology.replica().jdbcUrl(db),
            // No Redis or brokers here, though Boot's auto-configurations of them are on the class
            // path.
            "management.health.redis.enabled=false",
            "management.health.rabbit.enabled=false",
            "management.health.jms.enabled=false")
        .properties(properties)
        .run();
  }

  /** The URL of the actuator's {@code endpoint} on {@code app}. */
  static String actuator(ConfigurableApplicationContext app, String endpoint) {
    int port = ((WebServerApplicationContext) app).getWebServer().getPort();
    return "http://127.0.0.1:" + port + "/actuator/" + endpoint;
  }
}
