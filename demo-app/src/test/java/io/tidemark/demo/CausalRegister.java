package io.tidemark.demo;

import io.tidemark.demo.Operation.Client;
import io.tidemark.demo.Operation.Kind;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClient.RequestHeadersSpec;
import org.springframework.web.client.RestClient.RequestHeadersSpec.ConvertibleClientHttpResponse;
import org.springframework.web.client.RestClientException;

/**
 * A causal-register workload over HTTP: per order, a chain write → read → read → write → …, each
 * operation issued on the other instance of the orders service than the one before. Even chains
 * keep their token in a header they send back with every request; odd chains send none and rely on
 * their customer's session scope in Redis. Chains start at a fixed rate whatever the service's
 * speed (open loop: a late chain delays no other); within a chain an operation is due when the one
 * before it answered, and every operation is recorded with the time it was due.
 *
 * <p>The token-aware cache is read hard: every other header chain reads through it at each read,
 * and while the chains run, other clients read their orders through it without a token, so the
 * cache is filled with whatever a replica showed them, concurrently with the chains' own writes.
 */
final class CausalRegister {

  private static final String HEADER = "Consistency-Token";
  private static final String LEVEL = "Consistency-Level";
  private static final String SCOPE_UNRECORDED = "Consistency-Scope-Unrecorded";
  private static final Pattern REASON = Pattern.compile("\"reason\"\\s*:\\s*\"([A-Z_]+)\"");
  private static final int STEPS_PER_WRITE = 3;

  /** Clients reading chains' orders through the cache without a token, and their pause. */
  private static final int CACHE_FILLERS = 2;

  private static final long FILL_PAUSE_MILLIS = 50;

  /** Ids of long sessions, apart from the ordinary chains' 0, 1, 2, …. */
  private static final long LONG_SESSIONS = 1_000_000_000L;

  private final List<RestClient> instances;
  private final boolean tidemark;
  private final String customers;
  private final List<Operation> history = Collections.synchronizedList(new ArrayList<>());
  private final Map<Long, Chain> chains = new ConcurrentHashMap<>();
  private final AtomicLong toldScopeUnrecorded = new AtomicLong();
  private final List<Long> cachedOrders = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong cacheFills = new AtomicLong();
  private int longSessions;
  private int longSessionWrites;

  /**
   * @param tidemark whether reads go through Tidemark; {@code false} reads the replica directly
   * @param customers prefix of the customer names, unique per run so scopes are not shared
   */
  CausalRegister(String first, String second, boolean tidemark, String customers) {
    SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
    requests.setConnectTimeout(5_000);
    requests.setReadTimeout(30_000);
    this.instances =
        List.of(
            RestClient.builder().baseUrl(first).requestFactory(requests).build(),
            RestClient.builder().baseUrl(second).requestFactory(requests).build());
    this.tidemark = tidemark;
    this.customers = customers;
  }

  /**
   * Adds {@code count} long sessions to the next run: chains of {@code writes} writes each, started
   * with it, so each session's token must cover writes scattered among every other chain's.
   */
  CausalRegister withLongSessions(int count, int writes) {
    this.longSessions = count;
    this.longSessionWrites = writes;
    return this;
  }

  /** Session clients told that their scope missed a write, who then sent tokens themselves. */
  long toldScopeUnrecorded() {
    return toldScopeUnrecorded.get();
  }

  /** Reads through the cache without a token by clients outside the chains, answered 200. */
  long cacheFills() {
    return cacheFills.get();
  }

  static boolean isLongSession(long chain) {
    return chain >= LONG_SESSIONS;
  }

  /** Operations one chain of {@code writes} writes issues. */
  static int operationsPerChain(int writes) {
    return writes * STEPS_PER_WRITE;
  }

  /**
   * Starts a chain every period, at least {@code count} of them and on until {@code until} is done,
   * each of {@code writes} writes; gives the history once every chain ended.
   */
  List<Operation> run(int count, int writes, long periodMicros, CompletableFuture<?> until) {
    // A thread per running chain: the driver itself must never be why an operation starts late.
    ExecutorService workers = Executors.newCachedThreadPool();
    List<CompletableFuture<Void>> running = new ArrayList<>();
    AtomicBoolean filling = new AtomicBoolean(tidemark);
    try {
      for (int i = 0; i < CACHE_FILLERS; i++) {
        CompletableFuture.runAsync(() -> fillCache(filling), workers);
      }
      long begin = System.nanoTime();
      for (long id = LONG_SESSIONS; id < LONG_SESSIONS + longSessions; id++) {
        long chain = id;
        running.add(
            CompletableFuture.runAsync(() -> chain(chain, longSessionWrites, begin), workers));
      }
      for (long id = 0; id < count || !until.isDone(); id++) {
        long due = begin + TimeUnit.MICROSECONDS.toNanos(periodMicros * id);
        LockSupport.parkNanos(due - System.nanoTime());
        long chain = id;
        running.add(CompletableFuture.runAsync(() -> chain(chain, writes, due), workers));
      }
      CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).join();
    } finally {
      filling.set(false);
      workers.shutdownNow();
    }
    return List.copyOf(history);
  }

  /**
   * Reads orders of the cache-reading chains through the cache, without a token, on either
   * instance: unchecked (no token, no guarantee), they fill the cache with whatever the replica
   * showed while the chains write and read the same orders.
   */
  private void fillCache(AtomicBoolean filling) {
    while (filling.get()) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(FILL_PAUSE_MILLIS));
      int known = cachedOrders.size();
      if (known == 0) {
        continue;
      }
      ThreadLocalRandom random = ThreadLocalRandom.current();
      // The latest orders: the ones chains are writing and reading now.
      long order = cachedOrders.get(known - 1 - random.nextInt(Math.min(known, 20)));
      try {
        int status =
            instances
                .get(random.nextInt(instances.size()))
                .get()
                .uri("/api/orders/{id}?cache=true", order)
                .exchange((request, response) -> response.getStatusCode().value());
        if (status == 200) {
          cacheFills.incrementAndGet();
        }
      } catch (RestClientException e) {
        // Faults are what this run is about; a filler's failed read checks nothing.
      }
    }
  }

  /** Runs {@code count} chains of {@code writes} writes, one started per period. */
  List<Operation> run(int count, int writes, long periodMicros) {
    return run(count, writes, periodMicros, CompletableFuture.completedFuture(null));
  }

  /**
   * Reads every chain's order once more, with the chain's last token or scope, and gives the whole
   * history: a write lost after its last read in the run is caught here.
   */
  List<Operation> audit() {
    chains.values().parallelStream()
        .filter(chain -> chain.revision > 0)
        .forEach(chain -> step(chain, chain.steps, Kind.READ, instances.get(0), System.nanoTime()));
    return List.copyOf(history);
  }

  /**
   * Whether a write answered as a failure, or with an unknown outcome, is in {@code table} of the
   * final source all the same: the order created for the chain's customer, or its status set to the
   * one that write sent. A chain ends at its first write not acknowledged, so no later write of its
   * own can have overwritten it. The order is looked for by its customer too: a source promoted
   * after a failover that lost an order gives its id to the next order created, another chain's,
   * whose status may be the same.
   */
  Predicate<Operation> committedOn(Source source, String table) {
    return write -> {
      Chain chain = chains.get(write.chain());
      try (Connection c = source.connect()) {
        if (write.step() == 0) {
          return count(c, "SELECT COUNT(*) FROM " + table + " WHERE customer = ?", chain.customer)
              > 0;
        }
        return count(
                c,
                "SELECT COUNT(*) FROM " + table + " WHERE id = ? AND customer = ? AND status = ?",
                chain.order,
                chain.customer,
                status(write.step()))
            > 0;
      } catch (SQLException e) {
        throw new IllegalStateException("cannot read back " + write, e);
      }
    };
  }

  /** Connects to the final source, to read back what committed. */
  interface Source {
    Connection connect() throws SQLException;
  }

  private static long count(Connection c, String sql, Object... arguments) throws SQLException {
    try (PreparedStatement statement = c.prepareStatement(sql)) {
      for (int i = 0; i < arguments.length; i++) {
        statement.setObject(i + 1, arguments[i]);
      }
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  private static String status(int step) {
    return "S" + step;
  }

  /** What a chain knows between its operations. */
  private static final class Chain {
    final long id;
    final Client client;
    final String customer;
    long order = -1;
    long revision = -1;
    @Nullable String token;
    int steps;

    /**
     * Whether a session client was told its scope missed one of its writes: from then on it sends
     * the answers' tokens too, as the header asks of it.
     */
    boolean sendsToken;

    Chain(long id, Client client, String customer) {
      this.id = id;
      this.client = client;
      this.customer = customer;
    }
  }

  /**
   * The client of chain {@code id}: even chains send tokens, odd ones rely on their customer's
   * scope, and every other odd one sends neither and reads at the {@code GLOBAL} level.
   */
  static Client client(long id) {
    return id % 2 == 0
        ? Client.HEADER
        : id % 4 == 3 && !isLongSession(id) ? Client.GLOBAL : Client.SESSION;
  }

  private void chain(long id, int writes, long due) {
    Chain chain = new Chain(id, client(id), customers + "-" + id);
    chains.put(id, chain);
    long intended = due;
    for (int step = 0; step < writes * STEPS_PER_WRITE; step++) {
      Kind kind = step % STEPS_PER_WRITE == 0 ? Kind.WRITE : Kind.READ;
      Operation op = step(chain, step, kind, instances.get((int) ((id + step) % 2)), intended);
      if (op.outcomeUnknown() && chain.order >= 0) {
        // As a careful client does: read before writing again, with what the answer carried.
        step(chain, step + 1, Kind.READ, instances.get((int) ((id + step + 1) % 2)), op.ended());
        return;
      }
      if (op.kind() == Kind.WRITE && !op.acknowledged()) {
        return;
      }
      intended = op.ended();
    }
  }

  private Operation step(Chain chain, int step, Kind kind, RestClient instance, long intended) {
    String sent =
        (chain.client == Client.HEADER || chain.sendsToken) && tidemark ? chain.token : null;
    long started = System.nanoTime();
    Answer answer;
    try {
      answer =
          kind == Kind.WRITE
              ? write(instance, chain, step, sent)
              : read(instance, chain, sent, cachedRead(chain, step));
    } catch (RestClientException e) {
      answer = new Answer(0, -1, -1, e.getClass().getSimpleName(), null, -1);
    }
    Operation op =
        new Operation(
            chain.id,
            step,
            chain.client,
            kind,
            intended,
            started,
            System.nanoTime(),
            answer.status,
            Operation.UNKNOWN_OUTCOME.equals(answer.reason) && chain.order >= 0
                ? chain.revision + 1
                : answer.revision,
            kind == Kind.READ ? chain.revision : -1,
            answer.reason,
            sent,
            answer.token,
            answer.serverMillis);
    history.add(op);
    if (op.acknowledged()) {
      if (step == 0 && readsThroughCache(chain.id)) {
        cachedOrders.add(answer.order);
      }
      chain.order = answer.order;
      chain.revision = answer.revision;
    }
    if (answer.token != null) {
      chain.token = answer.token;
    }
    if (answer.scopeUnrecorded && !chain.sendsToken) {
      chain.sendsToken = true;
      toldScopeUnrecorded.incrementAndGet();
    }
    chain.steps = step + 1;
    return op;
  }

  private record Answer(
      int status,
      long order,
      long revision,
      String reason,
      @Nullable String token,
      double serverMillis,
      boolean scopeUnrecorded) {

    Answer(
        int status,
        long order,
        long revision,
        String reason,
        @Nullable String token,
        double serverMillis) {
      this(status, order, revision, reason, token, serverMillis, false);
    }
  }

  private Answer write(RestClient instance, Chain chain, int step, @Nullable String token) {
    String status = status(step);
    var request =
        chain.order < 0
            ? instance.post().uri("/api/orders?customer={c}", chain.customer)
            : chain.client != Client.SESSION
                ? instance.put().uri("/api/orders/{id}/status?status={s}", chain.order, status)
                : instance
                    .put()
                    .uri(
                        "/api/customers/{c}/orders/{id}/status?status={s}",
                        chain.customer,
                        chain.order,
                        status);
    return exchange(request, token, 201, CausalRegister::written);
  }

  /** What a write answered with 200 or 201 says. */
  private static Answer written(
      int code, ConvertibleClientHttpResponse response, @Nullable String returned) {
    Order order = response.bodyTo(Order.class);
    if (order != null) {
      return new Answer(
          code,
          order.id(),
          order.revision(),
          "",
          returned,
          -1,
          response.getHeaders().containsHeader(SCOPE_UNRECORDED));
    }
    // Without the row the checker cannot count it acknowledged; the report shows it.
    return new Answer(code, -1, -1, "WITHOUT_BODY", returned, -1);
  }

  /**
   * Whether a read goes through the service's cache: a header client's second read after each
   * write, so the cache is asked with a token that names that write, and every read of every other
   * header chain.
   */
  private boolean cachedRead(Chain chain, int step) {
    return tidemark
        && chain.client == Client.HEADER
        && (step % STEPS_PER_WRITE == 2 || readsThroughCache(chain.id));
  }

  /** Whether {@code op} was a read through the service's cache. */
  static boolean cachedRead(Operation op) {
    return op.kind() == Kind.READ
        && op.client() == Client.HEADER
        && op.sent() != null
        && (op.step() % STEPS_PER_WRITE == 2 || readsThroughCache(op.chain()));
  }

  /** Whether a header chain reads through the cache at every read (every other one does). */
  private static boolean readsThroughCache(long chain) {
    return chain % 4 == 2;
  }

  private Answer read(RestClient instance, Chain chain, @Nullable String token, boolean cache) {
    var request =
        chain.client != Client.SESSION
            ? instance
                .get()
                .uri("/api/orders/{id}?tidemark={t}&cache={c}", chain.order, tidemark, cache)
                .headers(h -> level(h, chain))
            : instance
                .get()
                .uri(
                    "/api/customers/{c}/orders/{id}?tidemark={t}",
                    chain.customer,
                    chain.order,
                    tidemark);
    return exchange(
        request,
        token,
        404,
        (code, response, returned) -> {
          ReadReply reply = response.bodyTo(ReadReply.class);
          long revision = reply.order() == null ? -1 : reply.order().revision();
          return new Answer(
              code,
              chain.order,
              revision,
              reply.servedBy().reason(),
              returned,
              reply.servedBy().elapsedMs());
        });
  }

  /** What an answer of 200 or the other status a request expects says. */
  private interface Expected {
    Answer answer(int code, ConvertibleClientHttpResponse response, @Nullable String returned)
        throws IOException;
  }

  /**
   * Sends {@code request} with {@code token}: an answer of 200 or {@code alsoExpected} is read by
   * {@code expected}, any other is a refusal with the reason its problem gives.
   */
  private static Answer exchange(
      RequestHeadersSpec<?> request, @Nullable String token, int alsoExpected, Expected expected) {
    return request
        .headers(h -> send(h, token))
        .exchange(
            (req, response) -> {
              int code = response.getStatusCode().value();
              String returned = response.getHeaders().getFirst(HEADER);
              if (code == 200 || code == alsoExpected) {
                return expected.answer(code, response, returned);
              }
              return new Answer(code, -1, -1, reason(response.bodyTo(String.class)), returned, -1);
            });
  }

  private static void level(HttpHeaders headers, Chain chain) {
    if (chain.client == Client.GLOBAL) {
      headers.set(LEVEL, "GLOBAL");
    }
  }

  private static void send(HttpHeaders headers, @Nullable String token) {
    if (token != null) {
      headers.set(HEADER, token);
    }
  }

  private static String reason(@Nullable String problem) {
    Matcher reason = REASON.matcher(problem == null ? "" : problem);
    return reason.find() ? reason.group(1) : "";
  }
}
