package io.tidemark.spring.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.context.ContextExecutorService;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.context.ThreadLocalAccessor;
import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.jdbc.CapturingDataSource;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import org.springframework.jdbc.datasource.AbstractDataSource;

/**
 * The connection a read under {@code @ReadYourWrites} is pinned to stays on the read's thread when
 * its context is carried to another: a JDBC connection is not for two threads at once. There the
 * application's {@code DataSource} hands out a connection of its own.
 */
class PinnedReadPropagationTests {

  private static final GtidSet REQUIRED = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-5");

  private final ExecutorService worker = Executors.newSingleThreadExecutor();

  private final RoutingDataSource routing =
      new RoutingDataSource(new SourcePool(), () -> CapturingDataSource.wrap(new SourcePool()));

  @AfterEach
  void stopWorker() throws InterruptedException {
    worker.shutdownNow();
    assertThat(worker.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void noRegisteredAccessorCarriesThePinnedReadOrItsConnection() {
    Connection pinned = connection("pinned replica connection");
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(REQUIRED);
        PinnedRead.Binding read = PinnedRead.pin(pinned, REQUIRED)) {
      List<Object> values = new ArrayList<>();
      for (ThreadLocalAccessor<?> accessor :
          ContextRegistry.getInstance().getThreadLocalAccessors()) {
        values.add(accessor.getValue());
      }

      assertThat(values).contains(binding.context());
      assertThat(values)
          .noneMatch(v -> v instanceof PinnedRead || v instanceof Connection || v == pinned);
    }
  }

  @Test
  void aTaskOfAContextExecutorGetsTheContextButNotThePinnedConnection() throws Exception {
    ExecutorService carrying =
        ContextExecutorService.wrap(worker, ContextSnapshotFactory.builder().build());
    Connection pinned = connection("pinned replica connection");
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(REQUIRED);
        PinnedRead.Binding read = PinnedRead.pin(pinned, REQUIRED)) {
      assertThat(routing.getConnection().toString()).contains("pinned replica connection");

      String seen =
          CompletableFuture.supplyAsync(() -> whatTheTaskSees(binding.context()), carrying)
              .get(10, TimeUnit.SECONDS);

      assertThat(seen).isEqualTo("context carried, no pinned read, source pool connection");
    }
  }

  @Test
  void aTaskOfSpringsContextPropagatingDecoratorGetsTheContextButNotThePinnedConnection()
      throws Exception {
    ContextPropagatingTaskDecorator decorator = new ContextPropagatingTaskDecorator();
    Connection pinned = connection("pinned replica connection");
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(REQUIRED);
        PinnedRead.Binding read = PinnedRead.pin(pinned, REQUIRED)) {
      String[] seen = new String[1];

      worker
          .submit(decorator.decorate(() -> seen[0] = whatTheTaskSees(binding.context())))
          .get(10, TimeUnit.SECONDS);

      assertThat(seen[0]).isEqualTo("context carried, no pinned read, source pool connection");
    }
  }

  private String whatTheTaskSees(ConsistencyContext submitters) {
    String context =
        ConsistencyContext.currentOrNull() == submitters ? "context carried" : "context lost";
    String pinned = PinnedRead.current() == null ? "no pinned read" : "pinned read carried";
    try (Connection connection = routing.getConnection()) {
      return context
          + ", "
          + pinned
          + ", "
          + (connection.toString().contains("pinned")
              ? "pinned connection"
              : "source pool connection");
    } catch (java.sql.SQLException e) {
      return context + ", " + pinned + ", " + e;
    }
  }

  /** A connection that only knows its name. */
  private static Connection connection(String name) {
    return (Connection)
        Proxy.newProxyInstance(
            PinnedReadPropagationTests.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "toString" -> name;
                  case "isWrapperFor", "isReadOnly", "isClosed" -> false;
                  case "getAutoCommit" -> true;
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default -> null;
                });
  }

  /** The source's pool: hands out connections named after it. */
  private static final class SourcePool extends AbstractDataSource {
    @Override
    public Connection getConnection() {
      return connection("source pool connection");
    }

    @Override
    public Connection getConnection(String username, String password) {
      return getConnection();
    }
  }
}
