package io.tidemark.spring;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** The layering of core and starter, checked on their compiled classes. */
class ArchitectureTests {

  private static final String[] CORE = {
    "io.tidemark",
    "io.tidemark.token..",
    "io.tidemark.jdbc..",
    "io.tidemark.topology..",
    "io.tidemark.scope..",
    "io.tidemark.cache..",
    "io.tidemark.dialect..",
    "io.tidemark.internal.."
  };

  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          // Main classes only, from directories in a reactor build and from jars in verify.
          .withImportOption(
              location -> !location.contains("/test-classes/") && !location.contains("-tests.jar"))
          .importPackages("io.tidemark");

  @Test
  void theCoreIsImported() {
    assertThat(CLASSES.contain("io.tidemark.jdbc.ConsistentReader")).isTrue();
    assertThat(CLASSES.contain("io.tidemark.spring.web.ConsistencyTokenFilter")).isTrue();
    assertThat(CLASSES.contain("io.tidemark.token.TokenCodecTests")).isFalse();
  }

  @Test
  void packagesHaveNoCycles() {
    slices().matching("io.tidemark.(**)").should().beFreeOfCycles().check(CLASSES);
    // The root package is no slice of the pattern above: of its subpackages it uses only
    // internal, which uses none.
    noClasses()
        .that()
        .resideInAPackage("io.tidemark")
        .should()
        .dependOnClassesThat(
            resideInAPackage("io.tidemark.(*)..")
                .and(not(resideInAPackage("io.tidemark.internal"))))
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage("io.tidemark.internal")
        .should()
        .dependOnClassesThat(
            resideInAPackage("io.tidemark..").and(not(resideInAPackage("io.tidemark.internal"))))
        .check(CLASSES);
  }

  /** Only the dialects know a database: no other package uses a driver's own classes. */
  @Test
  void onlyTheDialectsKnowADatabase() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .or()
        .resideInAPackage("io.tidemark.spring..")
        .and()
        .resideOutsideOfPackage("io.tidemark.dialect..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.mysql..", "org.postgresql..")
        .check(CLASSES);
  }

  @Test
  void coreHasNoSpring() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.springframework..")
        .check(CLASSES);
  }

  @Test
  void runtimeClassesDoNotImportAutoConfiguration() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.tidemark.spring",
            "io.tidemark.spring.routing..",
            "io.tidemark.spring.web..",
            "io.tidemark.spring.actuate..",
            "io.tidemark.spring.messaging..")
        .and(not(CONFIGURATION))
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.tidemark.spring.autoconfigure..")
        .check(CLASSES);
  }

  /**
   * The starter's concerns stand side by side, each on the auto-configuration and the core: none
   * imports another, so that each can be left out. A read reaches the metrics and observations
   * through core's {@code ReadListener}.
   */
  @Test
  void concernPackagesDoNotImportEachOther() {
    String[] concerns = {"web", "messaging", "routing", "actuate", "connection"};
    for (String concern : concerns) {
      for (String other : concerns) {
        if (concern.equals(other)) {
          continue;
        }
        noClasses()
            .that()
            .resideInAPackage("io.tidemark.spring." + concern + "..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.tidemark.spring." + other + "..")
            .check(CLASSES);
      }
    }
  }

  @Test
  void internalIsUsedOnlyByCoreAndStarter() {
    noClasses()
        .that()
        .resideOutsideOfPackages(CORE)
        .and()
        .resideOutsideOfPackage("io.tidemark.spring..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.tidemark.internal..")
        .check(CLASSES);
  }

  /** A configuration class, or one nested in it. */
  private static final DescribedPredicate<JavaClass> CONFIGURATION =
      DescribedPredicate.describe(
          "a configuration class", c -> outermost(c).getSimpleName().endsWith("Configuration"));

  private static JavaClass outermost(JavaClass type) {
    JavaClass outer = type;
    while (outer.getEnclosingClass().isPresent()) {
      outer = outer.getEnclosingClass().get();
    }
    return outer;
  }
}
