package io.tidemark.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * Many clients each create an order on one instance and read it at once on the other: with
 * Tidemark, the read carries the write's token header; without, it reads the replica directly.
 * Counts what a user would see.
 */
final class Scenario {

  static final String HEADER = "Consistency-Token";
  private static final int THREADS = 8;

  private final RestClient writer;
  private final RestClient reader;

  Scenario(String writerUrl, String readerUrl) {
    SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
    requests.setConnectTimeout(5_000);
    requests.setReadTimeout(30_000);
    this.writer = RestClient.builder().baseUrl(writerUrl).requestFactory(requests).build();
    this.reader = RestClient.builder().baseUrl(readerUrl).requestFactory(requests).build();
  }

  /**
   * One run's counts.
   *
   * @param tidemark whether reads went through Tidemark
   * @param reads reads made, one per client
   * @param stale reads that did not find the order just created
   * @param fromReplica reads a replica answered
   * @param sourceFallbacks reads the source answered because the replica had not caught up
   * @param failures reads refused with a reason (503) or failed otherwise
   * @param waitedP50Ms median time a read waited for the replica
   * @param waitedP99Ms 99th percentile of that time
   */
  record Result(
      boolean tidemark,
      int reads,
      int stale,
      int fromReplica,
      int sourceFallbacks,
      int failures,
      double waitedP50Ms,
      double waitedP99Ms) {

    /** The table's header line. */
    static String header() {
      return String.format(
          Locale.ROOT,
          "%-9s | %5s | %19s | %17s | %14s | %16s | %8s",
          "Tidemark",
          "reads",
          "stale or not found",
          "served by replica",
          "waited p50/p99",
          "source fallbacks",
          "failures");
    }

    /** This run as a table line. */
    String row() {
      return String.format(
          Locale.ROOT,
          "%-9s | %5d | %19d | %17d | %14s | %16d | %8d",
          tidemark ? "on" : "off",
          reads,
          stale,
          fromReplica,
          tidemark ? String.format(Locale.ROOT, "%.0f/%.0f ms", waitedP50Ms, waitedP99Ms) : "-",
          sourceFallbacks,
          failures);
    }
  }

  Result run(int clients, boolean tidemark) {
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(THREADS, clients));
    try {
      List<Future<Outcome>> outcomes = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        String customer = "client-" + i;
        outcomes.add(pool.submit(() -> client(customer, tidemark)));
      }
      List<Outcome> done = new ArrayList<>();
      for (Future<Outcome> outcome : outcomes) {
        done.add(outcome.get());
      }
      return summarize(done, tidemark);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("scenario interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a client failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * What one client saw.
   *
   * @param status the read's HTTP status
   * @param reply the read's answer, or {@code null} when it was refused or failed
   * @param refusal the reason of a refusal (503), or what failed; empty with a reply
   * @param detail what the refusal said; empty with a reply
   * @param ageMs time from the write's answer to the read's
   */
  record Outcome(
      int status, @Nullable ReadReply reply, String refusal, String detail, double ageMs) {}

  /**
   * One client: creates an order as {@code customer} and reads it at once, with its token when
   * {@code tidemark}.
   *
   * @throws org.springframework.web.client.RestClientException when the write fails
   */
  Outcome client(String customer, boolean tidemark) {
    var created =
        writer
            .post()
            .uri("/api/orders?customer={customer}", customer)
            .retrieve()
            .toEntity(Order.class);
    Order order = created.getBody();
    String token = created.getHeaders().getFirst(HEADER);
    if (order == null || (tidemark && token == null)) {
      throw new IllegalStateException("the write answered no order or no token");
    }
    long written = System.nanoTime();
    return reader
        .get()
        .uri("/api/orders/{id}?tidemark={tidemark}", order.id(), tidemark)
        .headers(
            headers -> {
              if (tidemark) {
                headers.set(HEADER, token);
              }
            })
        .exchange(
            (request, response) -> {
              int status = response.getStatusCode().value();
              double ageMs = (System.nanoTime() - written) / 1e6;
              if (status == 200 || status == 404) {
                return new Outcome(status, response.bodyTo(ReadReply.class), "", "", ageMs);
              }
              Map<?, ?> problem = response.bodyTo(Map.class);
              Object reason = problem == null ? null : problem.get("reason");
              Object detail = problem == null ? null : problem.get("detail");
              return new Outcome(
                  status,
                  null,
                  reason == null ? "HTTP " + status : reason.toString(),
                  detail == null ? "" : detail.toString(),
                  ageMs);
            });
  }

  private static Result summarize(List<Outcome> outcomes, boolean tidemark) {
    int stale = 0;
    int fromReplica = 0;
    int fallbacks = 0;
    int failures = 0;
    List<Double> waits = new ArrayList<>();
    for (Outcome outcome : outcomes) {
      ReadReply reply = outcome.reply();
      if (reply == null) {
        failures++;
        continue;
      }
      if (!reply.found()) {
        stale++;
      }
      switch (reply.servedBy().role()) {
        case "replica" -> fromReplica++;
        case "source" -> fallbacks += "SOURCE_FALLBACK".equals(reply.servedBy().reason()) ? 1 : 0;
        default -> {}
      }
      waits.add(reply.servedBy().waitedMs());
    }
    double[] sorted = waits.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return new Result(
        tidemark,
        outcomes.size(),
        stale,
        fromReplica,
        fallbacks,
        failures,
        percentile(sorted, 0.50),
        percentile(sorted, 0.99));
  }

  private static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int index = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(index, sorted.length - 1))];
  }
}
