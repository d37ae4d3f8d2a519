package io.tidemark.spring.routing;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.jdbc.CapturingDataSource;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.AbstractDataSource;

/**
 * Connections go out in the auto-commit mode of the application's pool, whichever pool they come
 * from: a replica's keeps its connections in auto-commit, and takes the writes after a failover.
 */
class RoutingDataSourceAutoCommitTests {

  private static final GtidSet REQUIRED = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-5");

  private final List<String> calls = new ArrayList<>();

  @Test
  void aWriteConnectionOfAPoolInAutoCommitGoesOutWithoutItWhenTheApplicationsPoolHasIt()
      throws SQLException {
    RoutingDataSource routing = routing(false);

    assertThat(routing.getConnection().getAutoCommit()).isFalse();
    assertThat(calls).containsExactly("setAutoCommit(false)");
  }

  @Test
  void aPinnedReadsConnectionGoesOutWithoutAutoCommitWhenTheApplicationsPoolHasIt()
      throws SQLException {
    RoutingDataSource routing = routing(false);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(REQUIRED);
        PinnedRead.Binding read = PinnedRead.pin(connection(), REQUIRED)) {

      assertThat(routing.getConnection().getAutoCommit()).isFalse();
      assertThat(calls).containsExactly("setAutoCommit(false)");
    }
  }

  @Test
  void connectionsGoOutAsTheyAreWhenTheApplicationsPoolUsesAutoCommit() throws SQLException {
    RoutingDataSource routing = routing(true);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(REQUIRED)) {
      assertThat(routing.getConnection().getAutoCommit()).isTrue();
      try (PinnedRead.Binding read = PinnedRead.pin(connection(), REQUIRED)) {
        assertThat(routing.getConnection().getAutoCommit()).isTrue();
      }
    }
    assertThat(calls).isEmpty();
  }

  /** Over an application's HikariCP pool with {@code autoCommit}; writes from a replica's pool. */
  private RoutingDataSource routing(boolean autoCommit) {
    HikariDataSource application = new HikariDataSource();
    application.setAutoCommit(autoCommit);
    DataSource replicas =
        new AbstractDataSource() {
          @Override
          public Connection getConnection() {
            return connection();
          }

          @Override
          public Connection getConnection(String username, String password) {
            return connection();
          }
        };
    return new RoutingDataSource(application, () -> CapturingDataSource.wrap(replicas));
  }

  /** A connection in auto-commit that notes each change of it. */
  private Connection connection() {
    boolean[] autoCommit = {true};
    return (Connection)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getAutoCommit" -> autoCommit[0];
                  case "setAutoCommit" -> {
                    autoCommit[0] = (boolean) args[0];
                    calls.add("setAutoCommit(" + args[0] + ")");
                    yield null;
                  }
                  case "isWrapperFor", "isReadOnly", "isClosed" -> false;
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default -> null;
                });
  }
}
