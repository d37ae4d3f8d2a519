package io.tidemark.spring.autoconfigure;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * The hints cover what core's and the starter's compiled classes look up by name and proxy; the
 * proxies themselves are checked against the hints in {@code JdbcProxyHintsTests}.
 */
class TidemarkRuntimeHintsTests {

  private static final ReflectiveUses USES =
      ReflectiveUses.of(
          new ClassFileImporter()
              .withImportOption(
                  location ->
                      !location.contains("/test-classes/") && !location.contains("-tests.jar"))
              .importPackages("io.tidemark")
              // The testkit runs in tests only, never in an application's image.
              .that(resideOutsideOfPackage("io.tidemark.testkit..")));

  private final RuntimeHints hints = new RuntimeHints();

  TidemarkRuntimeHintsTests() {
    new TidemarkRuntimeHints().registerHints(hints, getClass().getClassLoader());
  }

  @Test
  void springsAotProcessingFindsTheRegistrar() {
    List<RuntimeHintsRegistrar> registrars =
        SpringFactoriesLoader.forResourceLocation(
                "META-INF/spring/aot.factories", getClass().getClassLoader())
            .load(RuntimeHintsRegistrar.class);

    assertThat(registrars).hasAtLeastOneElementOfType(TidemarkRuntimeHints.class);
  }

  @Test
  void everyClassLookedUpByNameCanBeFound() {
    // The scan must see the lookups it guards, or it would pass on finding none.
    assertThat(USES.namesLookedUp)
        .contains("org.postgresql.core.BaseConnection", "org.jooq.ConnectionProvider");

    for (String name : USES.namesLookedUp) {
      assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(name)))
          .as(name)
          .accepts(hints);
    }
  }

  @Test
  void everyProxiedJdbcInterfaceCanBeProxiedAndCalledThrough() throws ClassNotFoundException {
    assertThat(USES.jdbcTypesProxied).contains("java.sql.Connection", "javax.sql.DataSource");

    for (String name : USES.jdbcTypesProxied) {
      Class<?> type = Class.forName(name);
      assertThat(RuntimeHintsPredicates.proxies().forInterfaces(type)).as(name).accepts(hints);
      assertThat(
              RuntimeHintsPredicates.reflection()
                  .onType(type)
                  .withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS))
          .as(name)
          .accepts(hints);
    }
  }
}
