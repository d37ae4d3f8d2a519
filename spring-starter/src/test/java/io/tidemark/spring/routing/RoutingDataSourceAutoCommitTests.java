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
import org.apache.commons.dbcp2.BasicDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.datasource.AbstractDataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * Connections go out in the auto-commit mode of the application's pool, whichever pool they come
 * from: a replica's keeps its connections in auto-commit, and takes the writes after a failover.
 */
class RoutingDataSourceAutoCommitTests {

  private static final GtidSet REQUIRED = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-5");

  private final List<String> calls = new ArrayList<>();

  @ParameterizedTest
  @EnumSource(Pool.class)
  void aWriteConnectionOfAPoolInAutoCommitGoesOutWithoutItWhenTheApplicationsPoolHasIt(Pool pool)
      throws SQLException {
    RoutingDataSource routing = routing(pool.of(false));

    assertThat(routing.getConnection().getAutoCommit()).isFalse();
    assertThat(calls).containsExactly("setAutoCommit(false)");
  }

  @ParameterizedTest
  @EnumSource(Pool.class)
  void aPinnedReadsConnectionGoesOutWithoutAutoCommitWhenTheApplicationsPoolHasIt(Pool pool)
      throws SQLException {
    RoutingDataSource routing = routing(pool.of(false));
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(REQUIRED);
        PinnedRead.Binding read = PinnedRead.pin(connection(), REQUIRED)) {

      assertThat(routing.getConnection().getAutoCommit()).isFalse();
      assertThat(calls).containsExactly("setAutoCommit(false)");
    }
  }

  @ParameterizedTest
  @EnumSource(Pool.class)
  void connectionsGoOutAsTheyAreWhenTheApplicationsPoolUsesAutoCommit(Pool pool)
      throws SQLException {
    assertGoOutAsTheyAre(routing(pool.of(true)));
  }

  @Test
  void connectionsGoOutAsTheyAreWhenTheApplicationsPoolHasNoAutoCommitSetting()
      throws SQLException {
    assertGoOutAsTheyAre(routing(new SimpleDriverDataSource()));
  }

  @Test
  void aDbcpOrTomcatPoolWithoutTheSettingHasTheDriversAutoCommit() throws SQLException {
    assertGoOutAsTheyAre(routing(new BasicDataSource()));
    assertGoOutAsTheyAre(routing(new org.apache.tomcat.jdbc.pool.DataSource()));
  }

  /**
   * A pool that does not say, here behind a wrapper Tidemark cannot see through: its own
   * connections without auto-commit stay so, or each statement of a transaction would commit alone.
   */
  @Test
  void aWriteConnectionGoesOutAsItCameWhenTheApplicationsPoolDoesNotSay() throws SQLException {
    DataSource wrapped = new DelegatingDataSource(Pool.DBCP2.of(false));
    RoutingDataSource routing = routing(wrapped, false);

    assertThat(routing.getConnection().getAutoCommit()).isFalse();
    assertThat(calls).isEmpty();
  }

  private void assertGoOutAsTheyAre(RoutingDataSource routing) throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(REQUIRED)) {
      assertThat(routing.getConnection().getAutoCommit()).isTrue();
      try (PinnedRead.Binding read = PinnedRead.pin(connection(), REQUIRED)) {
        assertThat(routing.getConnection().getAutoCommit()).isTrue();
      }
    }
    assertThat(calls).isEmpty();
  }

  /** The pools Spring Boot makes, each told its connections' auto-commit as it names it. */
  enum Pool {
    HIKARI,
    DBCP2,
    TOMCAT;

    DataSource of(boolean autoCommit) {
      return switch (this) {
        case HIKARI -> {
          HikariDataSource pool = new HikariDataSource();
          pool.setAutoCommit(autoCommit);
          yield pool;
        }
        case DBCP2 -> {
          BasicDataSource pool = new BasicDataSource();
          pool.setDefaultAutoCommit(autoCommit);
          yield pool;
        }
        case TOMCAT -> {
          org.apache.tomcat.jdbc.pool.DataSource pool =
              new org.apache.tomcat.jdbc.pool.DataSource();
          pool.setDefaultAutoCommit(autoCommit);
          yield pool;
        }
      };
    }
  }

  /** Over the application's pool {@code application}; writes from a replica's pool. */
  private RoutingDataSource routing(DataSource application) {
    return routing(application, true);
  }

  /**
   * Over the application's pool {@code application}; writes from a pool handing out connections in
   * {@code writesAutoCommit}.
   */
  private RoutingDataSource routing(DataSource application, boolean writesAutoCommit) {
    DataSource writes =
        new AbstractDataSource() {
          @Override
          public Connection getConnection() {
            return connection(writesAutoCommit);
          }

          @Override
          public Connection getConnection(String username, String password) {
            return connection(writesAutoCommit);
          }
        };
    return new RoutingDataSource(application, () -> CapturingDataSource.wrap(writes));
  }

  /** A connection in auto-commit that notes each change of it. */
  private Connection connection() {
    return connection(true);
  }

  /** A connection in {@code initially} auto-commit that notes each change of it. */
  private Connection connection(boolean initially) {
    boolean[] autoCommit = {initially};
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
