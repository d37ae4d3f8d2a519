package io.tidemark.spring.docs;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadListener;
import io.tidemark.jdbc.ReadResult;
import io.tidemark.jdbc.ReplicaPools;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.KeyRing;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenConfig;
import io.tidemark.topology.ExecutionHistory;
import io.tidemark.topology.NodeConfig;
import io.tidemark.topology.NodeSelector;
import io.tidemark.topology.TopologyView;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/** The plain-JDBC samples: core only, no Spring. They need servers, so they are only compiled. */
final class PlainJdbcSamples {

  private PlainJdbcSamples() {}

  static void quickStart(DataSource sourcePool, DataSource replicaPool) throws SQLException {
    // tag::plain-jdbc[]
    // Wrap the source's pool: every commit's GTID is captured into the current context.
    // With Connector/J, add trackSessionState=true to the source URL: the server then reports
    // each GTID with its commit, and no extra query is needed.
    CapturingDataSource source = CapturingDataSource.wrap(sourcePool);
    ConsistentReader reader = ConsistentReader.builder(replicaPool, source).build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      try (Connection c = source.getConnection();
          Statement statement = c.createStatement()) {
        statement.executeUpdate("INSERT INTO orders VALUES (101, 'created')");
      }
      ReadResult<String> order = reader.read(c -> findStatus(c, 101)); // fresh, from the replica
      ExecutionRecord record = order.record(); // node, role, reason (REPLICA_AFTER_WAIT, ...)
    }
    // end::plain-jdbc[]
  }

  static void tokens(byte[] secret32Bytes, ConsistentReader reader) throws SQLException {
    // tag::tokens[]
    KeyRing keys = KeyRing.builder().key("k1", secret32Bytes).active("k1").build();
    TokenCodec codec = new TokenCodec(TokenConfig.builder(keys).build());
    // after the writes, in their context:
    String header = codec.encode(codec.issue("orders", ConsistencyContext.current().gtids()));

    // ...and on the other side, before any GTID reaches MySQL:
    ConsistencyToken token = codec.verify(header, "orders"); // TokenRejectedException, a reason
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(token.gtids())) {
      reader.read(c -> findStatus(c, 101)); // waits for the other service's writes
    }
    // end::tokens[]
  }

  static void fastReads(HikariConfig replicaConfig, DataSource source) throws SQLException {
    // tag::fast-reads[]
    // Reads take this pool's connections on their own thread, its validation bounded by them.
    replicaConfig.setJdbcUrl("jdbc:mysql://replica-1:3306/shop");
    HikariDataSource replicaPool = ReplicaPools.create(replicaConfig);
    ConsistentReader reader = ConsistentReader.builder(replicaPool, source).build();

    ReadResult<String> status =
        reader.query(
            reader.defaults(),
            "SELECT status FROM orders WHERE id = ?",
            rows -> rows.next() ? rows.getString(1) : "not found",
            101);
    ExecutionRecord record = status.record(); // acquiring, waited, querying, elapsed
    // end::fast-reads[]
  }

  static void topology(
      String user, String password, DataSource pool1, DataSource pool2, DataSource pool3) {
    // tag::topology[]
    TopologyView view =
        TopologyView.builder(
                List.of(
                    new NodeConfig("db1", "jdbc:mysql://db1:3306/shop", user, password),
                    new NodeConfig("db2", "jdbc:mysql://db2:3306/shop", user, password),
                    new NodeConfig("db3", "jdbc:mysql://db3:3306/shop", user, password)))
            .build();
    view.start();
    NodeSelector selector = new NodeSelector(view, Duration.ofSeconds(5)); // max lag
    Map<String, DataSource> pools = Map.of("db1", pool1, "db2", pool2, "db3", pool3);
    CapturingDataSource writes = selector.writer(pools); // captures every commit
    ExecutionHistory history = new ExecutionHistory(256);
    ConsistentReader reader =
        ConsistentReader.builder(selector.routes(pools))
            .listener(ReadListener.ofRecords(history))
            .build();
    // end::topology[]
  }

  static String findStatus(Connection c, long id) throws SQLException {
    try (PreparedStatement select = c.prepareStatement("SELECT status FROM orders WHERE id = ?")) {
      select.setLong(1, id);
      try (ResultSet row = select.executeQuery()) {
        return row.next() ? row.getString(1) : "not found";
      }
    }
  }
}
