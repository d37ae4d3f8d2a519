package io.tidemark.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import java.sql.SQLDataException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MariaDbPositionsTests {

  @Test
  void aGtidIsTheIntervalUpToItsSequenceOfItsDomainAndServer() throws SQLDataException {
    GtidSet set = MariaDbPositions.parse("0-1-100,1-2-7");

    assertThat(set.uuids())
        .containsExactlyInAnyOrder(MariaDbPositions.origin(0, 1), MariaDbPositions.origin(1, 2));
    assertThat(set.lastGno(MariaDbPositions.origin(0, 1))).isEqualTo(100);
    assertThat(set.lastGno(MariaDbPositions.origin(1, 2))).isEqualTo(7);
    assertThat(set).isEqualTo(MariaDbPositions.parse("1-2-7, 0-1-100, 0-1-90"));
  }

  @Test
  void aSequenceNumberOfAnotherServerIsAnotherPosition() throws SQLDataException {
    GtidSet server = MariaDbPositions.parse("0-1-100");

    assertThat(server.containsAll(MariaDbPositions.parse("0-1-99"))).isTrue();
    assertThat(server.containsAll(MariaDbPositions.parse("0-1-101"))).isFalse();
    assertThat(server.containsAll(MariaDbPositions.parse("0-2-50"))).isFalse();
    assertThat(server.containsAll(MariaDbPositions.parse(""))).isTrue();
  }

  @Test
  void aUnionKeepsTheFurthestSequenceOfEachDomainAndServer() throws SQLDataException {
    GtidSet union =
        MariaDbPositions.parse("0-1-100,1-2-7").union(MariaDbPositions.parse("0-1-90,1-2-9"));

    assertThat(union).isEqualTo(MariaDbPositions.parse("0-1-100,1-2-9"));
  }

  /**
   * After a failover that lost the old source's writes 101-105, the new source numbers its own from
   * 101: its binary log still has the old source only up to 100, so the lost ones stay missing.
   */
  @Test
  void whatAServerExecutedNamesWhoseSequenceNumbersItHas() throws SQLDataException {
    GtidSet newSource = MariaDbPositions.executed("0-1-100,0-2-120", "0-2-120");

    assertThat(newSource.containsAll(MariaDbPositions.parse("0-1-100,0-2-120"))).isTrue();
    assertThat(newSource.containsAll(MariaDbPositions.parse("0-1-105"))).isFalse();
  }

  /** The binary log counts a transaction before it commits; the applied position after. */
  @Test
  void whatAServerExecutedReachesNoFurtherThanItsDomainShows() throws SQLDataException {
    GtidSet replica = MariaDbPositions.executed("0-1-110,1-3-5", "0-1-100");

    assertThat(replica).isEqualTo(MariaDbPositions.parse("0-1-100"));
  }

  @Test
  void aReplicaWithoutABinaryLogTellsItsDomainsLastServerOnly() throws SQLDataException {
    assertThat(MariaDbPositions.executed("", "0-2-120,1-1-4"))
        .isEqualTo(MariaDbPositions.parse("0-2-120,1-1-4"));
  }

  @Test
  void theWaitsListNamesEachDomainsFurthestSequence() throws SQLDataException {
    assertThat(MariaDbPositions.waitList(MariaDbPositions.parse("1-2-7,0-1-100,0-2-120")))
        .isEqualTo("0-0-120,1-0-7");
    assertThat(MariaDbPositions.waitList(GtidSet.EMPTY)).isEmpty();
  }

  @Test
  void aPositionOfAnotherDatabaseHasNoWaitList() throws SQLDataException {
    GtidSet mysql = GtidSet.parse(UUID.randomUUID() + ":1-5");
    GtidSet wal = new WalPosition(42, 1, 1_000).toGtidSet();
    GtidSet server = GtidSet.parse(MariaDbPositions.server(1) + ":1");

    assertThat(MariaDbPositions.waitList(mysql)).isNull();
    assertThat(MariaDbPositions.waitList(wal)).isNull();
    assertThat(MariaDbPositions.waitList(server)).isNull();
    assertThat(MariaDbPositions.waitList(mysql.union(MariaDbPositions.parse("0-1-1")))).isNull();
    assertThat(WalPosition.in(MariaDbPositions.parse("0-1-1"), MariaDbPositions.origin(0, 1)))
        .isNull();
  }

  @Test
  void aServerIdentityIsNoOrigin() {
    assertThat(MariaDbPositions.server(1)).isNotEqualTo(MariaDbPositions.origin(0, 1));
    assertThat(MariaDbPositions.server(7).toString())
        .isEqualTo(MariaDbPositions.server(7).toString());
  }

  @Test
  void aServerAnswerThatIsNoListIsADataError() {
    for (String bad :
        new String[] {"0-1", "a-1-2", "0-1-2-3", "-1-1-2", "4294967296-1-2", "0-4294967296-2"}) {
      assertThatThrownBy(() -> MariaDbPositions.parse(bad))
          .as(bad)
          .isInstanceOf(SQLDataException.class)
          .hasMessageContaining("not a MariaDB GTID list");
    }
  }
}
