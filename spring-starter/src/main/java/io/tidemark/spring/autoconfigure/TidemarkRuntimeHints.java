package io.tidemark.spring.autoconfigure;

import java.lang.reflect.Method;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What a native image cannot see of Tidemark by analysis alone: a native image has no proxy class
 * and no reflective lookup it was not told of at build time.
 */
final class TidemarkRuntimeHints implements RuntimeHintsRegistrar {

  /**
   * Core and the starter proxy each of these alone, one interface per proxy, so that a caller can
   * still cast a statement to the kind it asked for.
   */
  private static final List<Class<?>> JDBC_PROXIES =
      List.of(
          Connection.class,
          Statement.class,
          PreparedStatement.class,
          CallableStatement.class,
          DataSource.class);

  /**
   * Looked up by name, so that the classes linking against them load only when they are there: in a
   * native image, a name that was not registered is not found even when the class is in it.
   */
  private static final List<String> TYPES_LOOKED_UP =
      List.of(
          "com.mysql.cj.MysqlConnection",
          "org.mariadb.jdbc.Connection",
          "org.postgresql.core.BaseConnection",
          "org.springframework.data.repository.core.support.RepositoryFactoryBeanSupport",
          "org.apache.ibatis.binding.MapperProxy",
          "org.jooq.ConnectionProvider",
          "jakarta.transaction.TransactionManager",
          "com.github.benmanes.caffeine.cache.Caffeine");

  @Override
  public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
    for (Class<?> type : JDBC_PROXIES) {
      hints.proxies().registerJdkProxy(type);
      // The handlers pass calls on to the driver's object with Method.invoke, and a proxy's
      // Method is that of the interface declaring it (Wrapper, AutoCloseable, CommonDataSource).
      Arrays.stream(type.getMethods())
          .map(Method::getDeclaringClass)
          .distinct()
          .forEach(
              declaring ->
                  hints.reflection().registerType(declaring, MemberCategory.INVOKE_PUBLIC_METHODS));
    }
    for (String type : TYPES_LOOKED_UP) {
      hints.reflection().registerType(TypeReference.of(type));
    }
  }
}
