package io.tidemark.spring.routing;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.GtidSet;
import io.tidemark.dialect.Dialect;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReplicaPools;
import io.tidemark.scope.ScopeStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Objects;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConnectionProvider;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.config.EmbeddedValueResolver;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Each JDBC proxy core and the starter make, made by their own code over a stub driver, is one the
 * hints Spring's AOT processing finds let a native image make and call through.
 */
class JdbcProxyHintsTests {

  /** The driver's side: answers with more stubs, or nothing. */
  private static final InvocationHandler STUB =
      (proxy, method, args) ->
          switch (method.getName()) {
            case "createStatement" -> stub(Statement.class);
            case "prepareStatement" -> stub(PreparedStatement.class);
            case "prepareCall" -> stub(CallableStatement.class);
            case "getConnection" -> stub(Connection.class);
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            case "toString" -> "stub";
            default -> nothing(method.getReturnType());
          };

  private final RuntimeHints hints = tidemarkHints();

  @Test
  void connectionsAndStatementsOfTheSource() throws Exception {
    DataSource source = CapturingDataSource.wrap(stub(DataSource.class), (connection, e) -> e);

    try (Connection connection = source.getConnection()) {
      assertHinted(connection);
      assertHinted(connection.createStatement());
      assertHinted(connection.prepareStatement("select 1"));
      assertHinted(connection.prepareCall("call refresh()"));
    }
  }

  @Test
  void replicaPoolsAndTheirConnections() throws Exception {
    HikariConfig config = new HikariConfig();
    config.setDataSource(stub(DataSource.class));
    config.setInitializationFailTimeout(-1);
    config.setMinimumIdle(0);

    try (HikariDataSource pool = ReplicaPools.create(config)) {
      DataSource bounded = Objects.requireNonNull(pool.getDataSource());
      assertHinted(bounded);
      assertHinted(bounded.getConnection());
    }
  }

  @Test
  void postgresStandbyConnections() {
    Dialect postgres = Objects.requireNonNull(Dialect.forUrl("jdbc:postgresql://replica/app"));

    assertHinted(postgres.forReplicaQuery(stub(Connection.class)));
  }

  @Test
  void theLeaseOfAPinnedRead() {
    GtidSet required = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-5");

    try (PinnedRead.Binding read = PinnedRead.pin(stub(Connection.class), required)) {
      assertHinted(Objects.requireNonNull(PinnedRead.current()).lease());
    }
  }

  @Test
  void jooqConnectionsAndTheQueriesTheyDefer() throws Exception {
    DSLContext jooq =
        DSL.using(new DefaultConnectionProvider(stub(Connection.class)), SQLDialect.MYSQL);
    JooqStatements.advise(jooq, interceptor());

    Connection connection = jooq.configuration().connectionProvider().acquire();
    assertHinted(connection);
    assertHinted(connection.prepareStatement("select id from orders"));
  }

  private void assertHinted(Object made) {
    assertThat(Proxy.isProxyClass(made.getClass())).isTrue();
    assertThat(Proxy.getInvocationHandler(made)).isNotSameAs(STUB);
    Class<?>[] interfaces = made.getClass().getInterfaces();
    assertThat(RuntimeHintsPredicates.proxies().forInterfaces(interfaces)).accepts(hints);
    for (Class<?> type : interfaces) {
      for (Method method : type.getMethods()) {
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method)).accepts(hints);
      }
    }
  }

  /** The hints of Tidemark's registrars, found as Spring's AOT processing finds them. */
  private static RuntimeHints tidemarkHints() {
    RuntimeHints hints = new RuntimeHints();
    ClassLoader classLoader = JdbcProxyHintsTests.class.getClassLoader();
    SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories", classLoader)
        .load(RuntimeHintsRegistrar.class)
        .stream()
        .filter(registrar -> registrar.getClass().getName().startsWith("io.tidemark."))
        .forEach(registrar -> registrar.registerHints(hints, classLoader));
    return hints;
  }

  private static ReadYourWritesInterceptor interceptor() {
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    MethodExpressions expressions = new MethodExpressions(beans);
    return new ReadYourWritesInterceptor(
        beans.getBeanProvider(ConsistentReader.class),
        new Scopes(beans.getBeanProvider(ScopeStore.class), expressions),
        expressions,
        new EmbeddedValueResolver(beans));
  }

  private static <T> T stub(Class<T> type) {
    return type.cast(
        Proxy.newProxyInstance(
            JdbcProxyHintsTests.class.getClassLoader(), new Class<?>[] {type}, STUB));
  }

  private static @Nullable Object nothing(Class<?> type) {
    if (type == boolean.class) {
      return false;
    }
    if (type == int.class) {
      return 0;
    }
    if (type == long.class) {
      return 0L;
    }
    return null;
  }
}
