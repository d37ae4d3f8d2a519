package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.demo.Operation.Client;
import io.tidemark.demo.Operation.Kind;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

class HistoryChartTests {

  private static final long S = 1_000_000_000L;

  @Test
  void drawsTheSlowestReadsAndWritesRefusalsAndEachFaultAsWellFormedSvg() throws Exception {
    List<Operation> history =
        List.of(
            op(Kind.WRITE, 0, S / 100, 201, 1),
            op(Kind.READ, S, S + S / 2, 200, 1),
            op(Kind.READ, 3 * S, 4 * S, 503, -1),
            op(Kind.WRITE, 5 * S, 5 * S + S / 10, 503, -1));
    List<FaultSchedule.Applied> faults =
        List.of(
            new FaultSchedule.Applied("replica1 frozen <1.5 s>", 2 * S, 4 * S, 2),
            new FaultSchedule.Applied("Redis killed", 4 * S, 5 * S, 4),
            new FaultSchedule.Applied("replica1 frozen <1.5 s>", 6 * S, 7 * S, 6));

    String svg = HistoryChart.svg("a run", history, faults, 0, Duration.ofSeconds(2));

    Document chart =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    assertThat(chart.getElementsByTagName("polyline").getLength())
        .as("the slowest reads and the slowest writes")
        .isEqualTo(2);
    NodeList titles = chart.getElementsByTagName("title");
    assertThat(titles.getLength()).as("one band per time a fault held").isEqualTo(3);
    assertThat(titles.item(0).getTextContent()).isEqualTo("replica1 frozen <1.5 s>");
    assertThat(svg).contains("fill=\"#d62728\"").contains(">deadline<");
    assertThat(svg).as("numbered in the order the faults first held").contains(">2</text>");
  }

  private static Operation op(Kind kind, long started, long ended, int status, long revision) {
    return new Operation(
        1,
        0,
        Client.HEADER,
        kind,
        started,
        started,
        ended,
        status,
        revision,
        kind == Kind.READ ? 1 : -1,
        "",
        null,
        null,
        -1);
  }
}
