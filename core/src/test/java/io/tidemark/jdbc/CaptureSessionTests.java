package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.FakeTicker;
import io.tidemark.GtidSet;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * Capture by querying {@code @@GLOBAL.gtid_executed} after a commit, as with drivers other than
 * Connector/J, driven through {@link CapturingDataSource} as an application would.
 */
class CaptureSessionTests {

  private static final String SOURCE_UUID = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
  private static final String EXECUTED = SOURCE_UUID + ":1-42";
  private static final String INSERT = "INSERT INTO orders (id, status) VALUES (101, 'NEW')";
  private static final String UPDATE = "UPDATE orders SET status = 'PAID' WHERE id = 101";
  private static final String SELECT = "SELECT status FROM orders WHERE id = 101";
  private static final String CAPTURE = "SELECT @@GLOBAL.gtid_executed";

  private final FakeMysql server =
      new FakeMysql(SOURCE_UUID, new FakeTicker())
          .executed(EXECUTED)
          .answering(INSERT, null)
          .answering(UPDATE, null)
          .answering(SELECT, "NEW");
  private final FakeConnection source = new FakeConnection(server);
  private final CapturingDataSource dataSource = CapturingDataSource.wrap(source.pool());

  @Test
  void seesStatementsThatMaySetSynchronousCommitForTheirTransaction() {
    assertThat(CaptureSession.mentionsSynchronousCommit("SET LOCAL synchronous_commit = off"))
        .isTrue();
    assertThat(
            CaptureSession.mentionsSynchronousCommit(
                "select set_config('SYNCHRONOUS_COMMIT', 'off', true)"))
        .isTrue();
    assertThat(CaptureSession.mentionsSynchronousCommit("INSERT INTO t VALUES (1)")).isFalse();
    assertThat(CaptureSession.mentionsSynchronousCommit("synchronous_commi")).isFalse();
  }

  @Test
  void capturesTheExecutedSetAfterAnAutocommitWrite() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {

      statement.executeUpdate(INSERT);

      assertThat(binding.context().gtids()).isEqualTo(GtidSet.parse(EXECUTED));
    }
    assertThat(source.sent()).extracting(FakeConnection.Sent::sql).containsExactly(INSERT, CAPTURE);
    assertThat(dataSource.stats()).isEqualTo(new CapturingDataSource.Stats(0, 1, 0, 0));
  }

  @Test
  void capturesAfterAPreparedWrite() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(UPDATE)) {

      statement.executeUpdate();

      assertThat(binding.context().gtids()).isEqualTo(GtidSet.parse(EXECUTED));
    }
    assertThat(source.sent(CAPTURE)).hasSize(1);
  }

  @Test
  void capturesATransactionOnceAtItsCommit() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate(INSERT);
        statement.executeUpdate(UPDATE);
      }
      assertThat(source.sent(CAPTURE)).isEmpty();
      assertThat(binding.context().gtids()).isEqualTo(GtidSet.EMPTY);

      connection.commit();

      assertThat(binding.context().gtids()).isEqualTo(GtidSet.parse(EXECUTED));
    }
    assertThat(source.sent(CAPTURE)).hasSize(1);
    assertThat(source.firstInLog(CAPTURE)).isGreaterThan(source.firstInLog("commit()"));
  }

  @Test
  void capturesWhenTurningAutocommitBackOnCommitsATransaction() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate(INSERT);
      }

      connection.setAutoCommit(true);

      assertThat(binding.context().gtids()).isEqualTo(GtidSet.parse(EXECUTED));
    }
    assertThat(source.sent(CAPTURE)).hasSize(1);
  }

  @Test
  void aTransactionThatWroteIsUncommittedOnItsContextUntilItEnds() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      ConsistencyContext context = binding.context();
      connection.setAutoCommit(false);
      assertThat(context.hasUncommittedWrites()).as("begun").isFalse();

      statement.executeUpdate(INSERT);
      statement.executeUpdate(UPDATE);
      assertThat(context.hasUncommittedWrites()).as("after two writes").isTrue();

      connection.commit();
      assertThat(context.hasUncommittedWrites()).as("committed").isFalse();
      assertThat(context.gtids()).isEqualTo(GtidSet.parse(EXECUTED));

      statement.executeUpdate(INSERT);
      connection.rollback();
      assertThat(context.hasUncommittedWrites()).as("rolled back").isFalse();

      statement.executeUpdate(INSERT);
      assertThat(context.hasUncommittedWrites()).isTrue();
      connection.close();
      assertThat(context.hasUncommittedWrites()).as("handed back to the pool").isFalse();
    }
  }

  @Test
  void capturesATransactionCommittedBySqlText() throws SQLException {
    server.answering("COMMIT", null);
    ConsistencyContext context;
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection()) {
      context = binding.context();
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate(INSERT);
        statement.execute("COMMIT");
      }
    }

    // The write committed: its GTID must be in the context, or the context must be dirty.
    assertThat(context.gtids().containsAll(GtidSet.parse(EXECUTED)) || context.isDirty())
        .as("captured or dirty: %s", context)
        .isTrue();
  }

  @Test
  void capturesTheWritesOfAnAutocommitBatchThatFailedPartway() throws SQLException {
    String duplicate = "INSERT INTO orders (id, status) VALUES (102, 'NEW')";
    String another = "INSERT INTO orders (id, status) VALUES (103, 'NEW')";
    server
        .failing(duplicate, new SQLIntegrityConstraintViolationException("duplicate", "23000"))
        .answering(another, null);
    ConsistencyContext context;
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      context = binding.context();
      statement.addBatch(INSERT);
      statement.addBatch(duplicate);
      statement.addBatch(another);

      assertThatThrownBy(statement::executeBatch).isInstanceOf(BatchUpdateException.class);
    }

    // Two of the three inserts committed: the context must hold them, or be dirty.
    assertThat(source.sent(INSERT)).hasSize(1);
    assertThat(context.gtids().containsAll(GtidSet.parse(EXECUTED)) || context.isDirty())
        .as("captured or dirty: %s", context)
        .isTrue();
  }

  @Test
  void capturesTheWritesOfAnAutocommitBatch() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(UPDATE)) {
      statement.addBatch();
      statement.addBatch();

      assertThat(statement.executeBatch()).containsExactly(1, 1);

      assertThat(binding.context().gtids()).isEqualTo(GtidSet.parse(EXECUTED));
    }
    assertThat(source.sent(CAPTURE)).hasSize(1);
  }

  @Test
  void capturesNothingWhenAReadOnlyTransactionRollsBack() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection()) {
      connection.setReadOnly(true);
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.executeQuery(SELECT).close();
      }

      connection.rollback();
      connection.setAutoCommit(true);

      assertThat(binding.context().gtids()).isEqualTo(GtidSet.EMPTY);
      assertThat(binding.context().isDirty()).isFalse();
    }
    assertThat(source.sent(CAPTURE)).isEmpty();
    assertThat(dataSource.stats()).isEqualTo(new CapturingDataSource.Stats(0, 0, 0, 0));
  }

  @Test
  void capturesASupersetWhenAnUntrackedTransactionWithWritesRollsBack() throws SQLException {
    // Without session tracking a rollback cannot tell whether DDL or a COMMIT sent as text
    // committed part of the work, so it captures what the source executed: more, never less.
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate(INSERT);
      }

      connection.rollback();

      assertThat(binding.context().gtids()).isEqualTo(GtidSet.parse(EXECUTED));
      assertThat(binding.context().isDirty()).isFalse();
    }
    assertThat(source.sent(CAPTURE)).hasSize(1);
  }

  @Test
  void capturesNothingForAQueryOnAConnectionMadeReadOnly() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection()) {
      connection.setReadOnly(true);
      try (Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery(SELECT)) {

        assertThat(rows.next()).isTrue();
        assertThat(rows.getString(1)).isEqualTo("NEW");
        assertThat(binding.context().gtids()).isEqualTo(GtidSet.EMPTY);
      }
    }
    assertThat(source.sent()).extracting(FakeConnection.Sent::sql).containsExactly(SELECT);
  }

  @Test
  void capturesASupersetAfterAnUntrackedQueryThatMayHaveWritten() throws SQLException {
    // SELECT f() or CALL p() through executeQuery may write; without tracking nothing says so.
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(SELECT)) {

      assertThat(rows.next()).isTrue();
      assertThat(binding.context().gtids()).isEqualTo(GtidSet.parse(EXECUTED));
    }
    assertThat(source.sent(CAPTURE)).hasSize(1);
  }

  @Test
  void marksTheContextDirtyWhenTheExecutedSetCannotBeRead() throws SQLException {
    server.failing(CAPTURE, new SQLNonTransientConnectionException("gone", "08S01"));

    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {

      statement.executeUpdate(INSERT);

      assertThat(binding.context().isDirty()).isTrue();
      assertThat(binding.context().dirtyBecause()).contains("position after a commit");
      assertThat(binding.context().gtids()).isEqualTo(GtidSet.EMPTY);
    }
    assertThat(dataSource.stats()).isEqualTo(new CapturingDataSource.Stats(0, 0, 1, 0));
  }

  @Test
  void capturesIntoTheContextCurrentWhenTheConnectionWasCheckedOut() throws SQLException {
    try (ConsistencyContext.Binding request = ConsistencyContext.open();
        Connection connection = dataSource.getConnection()) {
      try (ConsistencyContext.Binding later = ConsistencyContext.open();
          Statement statement = connection.createStatement()) {

        statement.executeUpdate(INSERT);

        assertThat(later.context().gtids()).isEqualTo(GtidSet.EMPTY);
      }
      assertThat(request.context().gtids()).isEqualTo(GtidSet.parse(EXECUTED));
    }
  }

  @Test
  void statementsHandBackTheCapturingConnection() throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        PreparedStatement prepared = connection.prepareStatement(UPDATE)) {

      assertThat(statement.getConnection()).isSameAs(connection);
      assertThat(prepared.getConnection()).isSameAs(connection);
      assertThat(connection).isNotSameAs(source.connection());
      assertThat(binding.context().gtids()).isEqualTo(GtidSet.EMPTY);
    }
  }

  @Test
  void unwrapSeesThroughToTheWrappedDataSource() throws SQLException {
    assertThat(dataSource.isWrapperFor(AutoCloseable.class)).isTrue();
    assertThat(dataSource.unwrap(AutoCloseable.class)).isSameAs(source.pool());
    assertThat(dataSource.isWrapperFor(CapturingDataSource.class)).isTrue();
    assertThat(dataSource.unwrap(CapturingDataSource.class)).isSameAs(dataSource);
    assertThat(dataSource.isWrapperFor(Runnable.class)).isFalse();
    assertThat(dataSource.target()).isSameAs(source.pool());
  }

  @Test
  void commitThatFailsMakesTheContextDirty() throws SQLException {
    source.failCommits(new SQLException("Communications link failure", "08S01"));
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate(INSERT);
      }

      assertThatThrownBy(connection::commit).isInstanceOf(SQLException.class);

      assertThat(binding.context().isDirty()).isTrue();
      assertThat(binding.context().dirtyBecause()).contains("outcome is unknown");
    }
    assertThat(dataSource.stats().failed()).isEqualTo(1);
  }

  /**
   * The dirty reason is kept in the scope store and logged: it names the failure by its class,
   * SQLSTATE and MySQL error code, never by the driver's message, which may quote the row.
   */
  @Test
  void theDirtyReasonOfAFailedCommitLeavesOutTheDriversMessage() throws SQLException {
    source.failCommits(
        new SQLIntegrityConstraintViolationException(
            "Duplicate entry 'alice@example.com' for key 'users.email'", "23000", 1062));
    try (ConsistencyContext.Binding binding = ConsistencyContext.open();
        Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate(INSERT);
      }

      assertThatThrownBy(connection::commit)
          .isInstanceOf(SQLIntegrityConstraintViolationException.class);

      assertThat(binding.context().dirtyBecause())
          .endsWith(
              "outcome is unknown: SQLIntegrityConstraintViolationException,"
                  + " SQLSTATE 23000, error 1062")
          .doesNotContain("alice");
    }
  }

  @Test
  void connectionWithoutABoundContextIsHandedOverUncapturedAndCounted() throws SQLException {
    assertThat(ConsistencyContext.currentOrNull()).isNull();
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      statement.executeUpdate(INSERT);
    }
    assertThat(ConsistencyContext.currentOrNull()).as("nothing bound to the thread").isNull();
    assertThat(source.sent()).extracting(FakeConnection.Sent::sql).containsExactly(INSERT);
    assertThat(dataSource.stats()).isEqualTo(new CapturingDataSource.Stats(0, 0, 0, 1));
  }
}
