package io.tidemark.demo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * A causal-register workload over HTTP: per order, a chain write → read → write → read …, each
 * operation carrying the token the previous one answered with, alternating between two instances of
 * the orders service. Chains start at a fixed rate whatever the service's speed (open loop), and
 * every operation is recorded with the time it was due.
 */
final class CausalRegister {

  private static final String HEADER = "Consistency-Token";
  private static final Pattern REASON = Pattern.compile("\"reason\"\\s*:\\s*\"([A-Z_]+)\"");

  private final List<RestClient> instances;
  private final boolean tidemark;
  private final List<Operation> history = Collections.synchronizedList(new ArrayList<>());

  CausalRegister(String first, String second, boolean tidemark) {
    SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
    requests.setConnectTimeout(5_000);
    requests.setReadTimeout(30_000);
    this.instances =
        List.of(
            RestClient.builder().baseUrl(first).requestFactory(requests).build(),
            RestClient.builder().baseUrl(second).requestFactory(requests).build());
    this.tidemark = tidemark;
  }

  /** Runs {@code chains} chains of {@code writes} writes each, one chain started per period. */
  List<Operation> run(int chains, int writes, long periodMillis) {
    ScheduledExecutorService starter = Executors.newSingleThreadScheduledExecutor();
    // A thread per chain: the driver itself must never be why an operation starts late.
    ExecutorService workers = Executors.newFixedThreadPool(chains);
    List<CompletableFuture<Void>> running = new ArrayList<>();
    try {
      long begin = System.nanoTime();
      for (int i = 0; i < chains; i++) {
        long chain = i;
        long due = begin + TimeUnit.MILLISECONDS.toNanos(periodMillis * i);
        CompletableFuture<Void> done = new CompletableFuture<>();
        running.add(done);
        starter.schedule(
            () ->
                workers.execute(
                    () -> {
                      try {
                        chain(chain, writes, due);
                        done.complete(null);
                      } catch (RuntimeException e) {
                        done.completeExceptionally(e);
                      }
                    }),
            due - System.nanoTime(),
            TimeUnit.NANOSECONDS);
      }
      CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).join();
    } finally {
      starter.shutdownNow();
      workers.shutdownNow();
    }
    return List.copyOf(history);
  }

  private void chain(long chain, int writes, long due) {
    String token = null;
    long id = -1;
    long revision = -1;
    long intended = due;
    for (int step = 0; step < writes * 2; step++) {
      RestClient instance = instances.get(step % 4 < 2 ? step % 2 : 1 - step % 2);
      long started = System.nanoTime();
      Answer answer = step % 2 == 0 ? write(instance, id, step, token) : read(instance, id, token);
      long ended = System.nanoTime();
      if (step % 2 == 0) {
        history.add(
            new Operation(
                chain,
                step,
                Operation.Kind.WRITE,
                intended,
                started,
                ended,
                answer.status,
                answer.revision,
                -1,
                answer.reason));
        if (answer.revision < 0) {
          return;
        }
        id = answer.id;
        revision = answer.revision;
      } else {
        history.add(
            new Operation(
                chain,
                step,
                Operation.Kind.READ,
                intended,
                started,
                ended,
                answer.status,
                answer.revision,
                revision,
                answer.reason));
      }
      if (answer.token != null) {
        token = answer.token;
      }
      intended = ended;
    }
  }

  private record Answer(
      int status, long id, long revision, String reason, @Nullable String token) {}

  private Answer write(RestClient instance, long id, int step, @Nullable String token) {
    var request =
        id < 0
            ? instance.post().uri("/api/orders?customer=register")
            : instance.put().uri("/api/orders/{id}/status?status=S{step}", id, step);
    return request
        .headers(
            h -> {
              if (tidemark && token != null) {
                h.set(HEADER, token);
              }
            })
        .exchange(
            (req, response) -> {
              int status = response.getStatusCode().value();
              String returned = response.getHeaders().getFirst(HEADER);
              if (status == 200 || status == 201) {
                Order order = response.bodyTo(Order.class);
                return new Answer(status, order.id(), order.revision(), "", returned);
              }
              return new Answer(status, id, -1, reason(response.bodyTo(String.class)), returned);
            });
  }

  private Answer read(RestClient instance, long id, @Nullable String token) {
    return instance
        .get()
        .uri("/api/orders/{id}?tidemark={tidemark}&cache=false", id, tidemark)
        .headers(
            h -> {
              if (tidemark && token != null) {
                h.set(HEADER, token);
              }
            })
        .exchange(
            (req, response) -> {
              int status = response.getStatusCode().value();
              String returned = response.getHeaders().getFirst(HEADER);
              if (status == 200 || status == 404) {
                ReadReply reply = response.bodyTo(ReadReply.class);
                long revision = reply.order() == null ? -1 : reply.order().revision();
                return new Answer(status, id, revision, reply.servedBy().reason(), returned);
              }
              return new Answer(status, id, -1, reason(response.bodyTo(String.class)), returned);
            });
  }

  private static String reason(@Nullable String problem) {
    Matcher reason = REASON.matcher(problem == null ? "" : problem);
    return reason.find() ? reason.group(1) : "";
  }
}
