package io.tidemark.spring.stacks.automatic;

/**
 * {@link PoolWithoutAutoCommitIT}'s application on Commons DBCP2 ({@code spring.datasource.type}),
 * a pool whose settings Tidemark cannot read as it reads HikariCP's: its connections tell their
 * auto-commit themselves.
 */
class DbcpPoolWithoutAutoCommitIT extends AutomaticReadsContract {

  DbcpPoolWithoutAutoCommitIT() {
    super(
        "dbcpnoautocommit",
        "tidemark.read.automatic=true",
        "spring.datasource.type=org.apache.commons.dbcp2.BasicDataSource",
        "spring.datasource.dbcp2.default-auto-commit=false",
        "spring.jpa.properties.hibernate.connection.provider_disables_autocommit=true");
  }
}
