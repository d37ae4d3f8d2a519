package io.tidemark.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import java.sql.SQLDataException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MariaDbPositionsTests {

  @Test
  void aListIsOneSequenceNumberPerDomainWhicheverServerWroteIt() throws SQLDataException {
    GtidSet set = MariaDbPositions.parse("0-1-100,1-2-7");

    assertThat(set.uuids())
        .containsExactlyInAnyOrder(MariaDbPositions.origin(0), MariaDbPositions.origin(1));
    assertThat(set.lastGno(MariaDbPositions.origin(0))).isEqualTo(100);
    assertThat(set.lastGno(MariaDbPositions.origin(1))).isEqualTo(7);
    assertThat(set).isEqualTo(MariaDbPositions.parse("1-9-7, 0-3-100"));
  }

  @Test
  void aServerHasAPositionWhenEachOfItsDomainsReachesAsFar() throws SQLDataException {
    GtidSet server = MariaDbPositions.parse("0-1-100,1-2-7");

    assertThat(server.containsAll(MariaDbPositions.parse("0-2-100"))).isTrue();
    assertThat(server.containsAll(MariaDbPositions.parse("0-1-99,1-1-7"))).isTrue();
    assertThat(server.containsAll(MariaDbPositions.parse("0-1-101"))).isFalse();
    assertThat(server.containsAll(MariaDbPositions.parse("2-1-1"))).isFalse();
    assertThat(server.containsAll(MariaDbPositions.parse(""))).isTrue();
  }

  @Test
  void aUnionKeepsTheFurthestSequenceOfEachDomain() throws SQLDataException {
    GtidSet union =
        MariaDbPositions.parse("0-1-100,1-2-7").union(MariaDbPositions.parse("0-3-90,1-2-9"));

    assertThat(union).isEqualTo(MariaDbPositions.parse("0-1-100,1-2-9"));
  }

  @Test
  void theWaitsTextNamesEachDomainsSequence() throws SQLDataException {
    assertThat(MariaDbPositions.text(MariaDbPositions.parse("1-2-7,0-1-100")))
        .isEqualTo("0-0-100,1-0-7");
    assertThat(MariaDbPositions.text(GtidSet.EMPTY)).isEmpty();
  }

  @Test
  void aPositionOfAnotherDatabaseHasNoText() throws SQLDataException {
    GtidSet mysql = GtidSet.parse(UUID.randomUUID() + ":1-5");
    GtidSet wal = new WalPosition(42, 1, 1_000).toGtidSet();

    assertThat(MariaDbPositions.text(mysql)).isNull();
    assertThat(MariaDbPositions.text(wal)).isNull();
    assertThat(MariaDbPositions.text(mysql.union(MariaDbPositions.parse("0-1-1")))).isNull();
    assertThat(WalPosition.in(MariaDbPositions.parse("0-1-1"), MariaDbPositions.origin(0)))
        .isNull();
  }

  @Test
  void aServerIdentityIsNoDomainOrigin() {
    assertThat(MariaDbPositions.server(1)).isNotEqualTo(MariaDbPositions.origin(1));
    assertThat(MariaDbPositions.server(1).toString())
        .isEqualTo(MariaDbPositions.server(1).toString());
  }

  @Test
  void aServerAnswerThatIsNoListIsADataError() {
    for (String bad : new String[] {"0-1", "a-1-2", "0-1-2-3", "-1-1-2", "4294967296-1-2"}) {
      assertThatThrownBy(() -> MariaDbPositions.parse(bad))
          .as(bad)
          .isInstanceOf(SQLDataException.class)
          .hasMessageContaining("not a MariaDB GTID list");
    }
  }
}
