package io.tidemark.spring.stacks.automatic;

/**
 * An application whose pool hands out connections with auto-commit off and tells Hibernate so
 * ({@code provider_disables_autocommit}), as generated JHipster applications do: Hibernate then
 * never switches auto-commit off itself, and ends a transaction with the connection's commit or
 * rollback, which the driver refuses on a connection in auto-commit. A replica read's connection is
 * handed to such an application as its pool's are.
 */
class PoolWithoutAutoCommitIT extends AutomaticReadsContract {

  PoolWithoutAutoCommitIT() {
    super(
        "noautocommit",
        "tidemark.read.automatic=true",
        "spring.datasource.hikari.auto-commit=false",
        "spring.jpa.properties.hibernate.connection.provider_disables_autocommit=true");
  }
}
