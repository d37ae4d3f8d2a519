package io.tidemark.demo;

import io.tidemark.demo.Operation.Client;
import io.tidemark.demo.Operation.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Checks a recorded history against the read-your-writes contract: a read that carries the token
 * (or scope) of an acknowledged write, or asks for the {@code GLOBAL} level after it, returns that
 * write or a later one, never an older row and never "not found"; a chain's reads never go back;
 * every read and write answers within the request's deadline; anything else is an explicit, counted
 * refusal; a write lost in a failover is reported to the chain that made it ({@code
 * TOKEN_NOT_ON_SOURCE}), never read past (once reported, the chain's reads need only what survived;
 * a {@code GLOBAL} chain, with neither token nor scope, cannot be told, and its reads need only
 * what survived from the loss on); a write answered as a failure did not commit, and one answered
 * as done carries its row; a write answered with an unknown outcome that did commit is seen by
 * every later read of its chain; the answer of an acknowledged write, or of one of unknown outcome,
 * carries a token that covers it.
 */
final class Checker {

  private Checker() {}

  /**
   * The slack a read or write may take past its deadline, measured at the client: the read path's
   * own allowance (a statement begun just before the deadline gets its 20 ms floor) and the HTTP
   * answer. With the 2 cores of the machine saturated by the run (20 to 40 runnable threads), 50 ms
   * was exceeded by 1 to 3 of about 10 000 reads a run, by 5 to 126 ms.
   */
  static final Duration SLACK = Duration.ofMillis(100);

  private static final int EXAMPLES = 4;
  private static final String LOST_REPORTED = "TOKEN_NOT_ON_SOURCE";

  /**
   * What the servers and the tokens say about the writes, once the run is over.
   *
   * @param lost whether an acknowledged write is missing from the final source
   * @param committed whether a write answered as a failure is on the final source all the same
   * @param covered whether an acknowledged write's answer carries a token that covers it: GTIDs of
   *     its own, or a marker that sends the client's reads to the source
   */
  record Outcomes(
      Predicate<Operation> lost, Predicate<Operation> committed, Predicate<Operation> covered) {

    /** Every write stayed, none failed but its own, all are covered. */
    static Outcomes nothingLost() {
      return new Outcomes(write -> false, write -> false, write -> true);
    }
  }

  /**
   * What the history shows.
   *
   * @param writes acknowledged writes
   * @param reads reads that returned data or "not found"
   * @param stale reads that returned a row older than their chain's last acknowledged write
   * @param notFound reads that said "not found" for an acknowledged write
   * @param nonMonotonic reads that returned an older row than an earlier read of their chain
   * @param pastDeadline reads and writes answered later than their deadline plus {@link #SLACK}
   * @param lostWrites acknowledged writes the final source does not have
   * @param unreportedLostWrites lost writes no later read of their chain was refused for
   * @param committedAnsweredAsFailure writes answered as a failure that are on the final source
   * @param doneWithoutResult writes answered with a success status but without the row, which a
   *     client takes as done whether they happened or not
   * @param unknownOutcomes writes answered with an unknown outcome (their commit never confirmed)
   * @param unknownCommitted of those, the ones on the final source, which every later read of their
   *     chain must see
   * @param uncovered acknowledged writes, and writes of unknown outcome, answered without a token
   *     that covers them
   * @param tokenDropped answers without a token to requests that sent one, but for those that
   *     refused it (400): the client would lose what it carries
   * @param served served reads by reason code
   * @param refusals refused reads by status and reason
   * @param failedWrites writes not acknowledged and not committed, by status and reason
   * @param latency latency from when each operation was due, by kind
   * @param examples the first few operations that broke an invariant, for the report
   */
  record Verdict(
      long writes,
      long reads,
      long stale,
      long notFound,
      long nonMonotonic,
      long pastDeadline,
      long lostWrites,
      long unreportedLostWrites,
      long committedAnsweredAsFailure,
      long doneWithoutResult,
      long unknownOutcomes,
      long unknownCommitted,
      long uncovered,
      long tokenDropped,
      Map<String, Long> served,
      Map<String, Long> refusals,
      Map<String, Long> failedWrites,
      Map<Kind, Latency> latency,
      List<String> examples) {

    /** Share of served reads that the source answered. */
    double sourceShare() {
      long source =
          served.entrySet().stream()
              .filter(e -> e.getKey().startsWith("SOURCE_"))
              .mapToLong(Map.Entry::getValue)
              .sum();
      return reads == 0 ? 0 : (double) source / reads;
    }

    long refused() {
      return refusals.values().stream().mapToLong(Long::longValue).sum();
    }

    String summary() {
      return String.format(
          "writes %d, reads %d, stale %d, not found %d, non-monotonic %d, past deadline %d,"
              + " lost writes %d (unreported %d), committed but answered as failure %d, answered"
              + " as done without the row %d, outcome unknown %d (committed %d), token dropped"
              + " %d, without a covering token %d, served %s,"
              + " refused %s, failed writes %s, latency %s%s",
          writes,
          reads,
          stale,
          notFound,
          nonMonotonic,
          pastDeadline,
          lostWrites,
          unreportedLostWrites,
          committedAnsweredAsFailure,
          doneWithoutResult,
          unknownOutcomes,
          unknownCommitted,
          tokenDropped,
          uncovered,
          served,
          refusals,
          failedWrites,
          latency,
          examples.isEmpty() ? "" : "; for example " + examples);
    }
  }

  /**
   * Latency percentiles in milliseconds, counted from when each operation was due, so a stalled
   * service cannot hide the operations it delayed (no coordinated omission).
   */
  record Latency(long count, double p50, double p90, double p99, double p999, double max) {

    static Latency of(long[] nanos) {
      long[] sorted = nanos.clone();
      Arrays.sort(sorted);
      return new Latency(
          sorted.length,
          at(sorted, 0.50),
          at(sorted, 0.90),
          at(sorted, 0.99),
          at(sorted, 0.999),
          sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6);
    }

    private static double at(long[] sorted, double quantile) {
      if (sorted.length == 0) {
        return 0;
      }
      int index = (int) Math.ceil(quantile * sorted.length) - 1;
      return sorted[Math.max(0, index)] / 1e6;
    }

    @Override
    public String toString() {
      return String.format(
          "n=%d p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f ms",
          count, p50, p90, p99, p999, max);
    }
  }

  /** Checks {@code history}, asking {@code outcomes} what became of its writes. */
  static Verdict check(List<Operation> history, Duration deadline, Outcomes outcomes) {
    long writes = 0;
    long reads = 0;
    long stale = 0;
    long notFound = 0;
    long nonMonotonic = 0;
    long pastDeadline = 0;
    long lostWrites = 0;
    long unreported = 0;
    long committedAnsweredAsFailure = 0;
    long doneWithoutResult = 0;
    long unknownOutcomes = 0;
    long unknownCommitted = 0;
    long uncovered = 0;
    long tokenDropped = 0;
    Map<String, Long> served = new TreeMap<>();
    Map<String, Long> refusals = new TreeMap<>();
    Map<String, Long> failedWrites = new TreeMap<>();
    Map<String, List<String>> examples = new TreeMap<>();
    long origin = history.stream().mapToLong(Operation::intended).min().orElse(0);
    Map<Long, List<Operation>> chains =
        history.stream().collect(Collectors.groupingBy(Operation::chain, HashMap::new, toList()));
    for (List<Operation> chain : chains.values()) {
      chain.sort(Comparator.comparingInt(Operation::step));
      long newestRead = -1;
      // Once a loss was reported to the chain, its reads need only what survived the failover.
      long surviving = -1;
      boolean lossReported = false;
      boolean lostUntold = false;
      // What a write of unknown outcome that committed wrote: the chain's later reads must see it.
      long committedUnknown = -1;
      for (int i = 0; i < chain.size(); i++) {
        Operation op = chain.get(i);
        if (op.sent() != null && op.returned() == null && op.status() != 0 && op.status() != 400) {
          tokenDropped++;
          example(examples, origin, "token dropped", op);
        }
        if (op.serviceNanos() > deadline.plus(SLACK).toNanos()) {
          pastDeadline++;
          example(examples, origin, "late", op);
        }
        if (op.kind() == Kind.WRITE) {
          if (op.outcomeUnknown()) {
            unknownOutcomes++;
            if (!outcomes.covered().test(op)) {
              uncovered++;
              example(examples, origin, "unknown outcome without a covering token", op);
            }
            if (outcomes.committed().test(op)) {
              unknownCommitted++;
              committedUnknown = op.revision();
            }
            continue;
          }
          if (!op.acknowledged()) {
            if (op.status() >= 200 && op.status() < 300) {
              doneWithoutResult++;
              example(examples, origin, "answered as done without the row", op);
              continue;
            }
            if (outcomes.committed().test(op)) {
              committedAnsweredAsFailure++;
              example(examples, origin, "committed but answered as failure", op);
            } else {
              failedWrites.merge(op.status() + " " + op.reason(), 1L, Long::sum);
            }
            continue;
          }
          writes++;
          if (!outcomes.covered().test(op)) {
            uncovered++;
            example(examples, origin, "without a covering token", op);
          } else if (outcomes.lost().test(op)) {
            lostWrites++;
            if (op.client() == Client.GLOBAL) {
              // Nothing can tell a client without a token: after the failover its reads need only
              // what survived, and go back to it once.
              lostUntold = true;
            } else if (!reportedLater(chain, i)) {
              unreported++;
              example(examples, origin, "unreported lost", op);
              examples
                  .computeIfAbsent("unreported lost chain", w -> new ArrayList<>())
                  .add(steps(chain, origin));
            }
            continue;
          }
          surviving = op.revision();
          continue;
        }
        if (!op.servedRead()) {
          refusals.merge(op.status() + " " + op.reason(), 1L, Long::sum);
          if (LOST_REPORTED.equals(op.reason())) {
            lossReported = true;
            newestRead = Math.min(newestRead, surviving);
          }
          continue;
        }
        reads++;
        served.merge(op.reason(), 1L, Long::sum);
        long required = Math.max(op.required(), committedUnknown);
        required = lossReported || lostUntold ? Math.min(required, surviving) : required;
        if (op.revision() < 0) {
          if (required >= 0) {
            notFound++;
            example(examples, origin, "not found", op);
          }
        } else if (op.revision() < required) {
          stale++;
          example(examples, origin, "stale", op);
        }
        if (lostUntold && op.revision() >= surviving && op.revision() < newestRead) {
          newestRead = op.revision();
        }
        if (op.revision() >= 0 && op.revision() < newestRead) {
          nonMonotonic++;
          example(examples, origin, "non-monotonic", op);
          examples
              .computeIfAbsent("non-monotonic chain", w -> new ArrayList<>())
              .add(steps(chain.subList(0, i + 1), origin));
        }
        newestRead = Math.max(newestRead, op.revision());
      }
    }
    return new Verdict(
        writes,
        reads,
        stale,
        notFound,
        nonMonotonic,
        pastDeadline,
        lostWrites,
        unreported,
        committedAnsweredAsFailure,
        doneWithoutResult,
        unknownOutcomes,
        unknownCommitted,
        uncovered,
        tokenDropped,
        served,
        refusals,
        failedWrites,
        latencies(history),
        examples.values().stream().flatMap(List::stream).toList());
  }

  private static java.util.stream.Collector<Operation, ?, List<Operation>> toList() {
    return Collectors.toCollection(ArrayList::new);
  }

  private static boolean reportedLater(List<Operation> chain, int index) {
    return chain.subList(index + 1, chain.size()).stream()
        .anyMatch(op -> op.kind() == Kind.READ && LOST_REPORTED.equals(op.reason()));
  }

  private static Map<Kind, Latency> latencies(List<Operation> history) {
    Map<Kind, Latency> latency = new EnumMap<>(Kind.class);
    for (Kind kind : Kind.values()) {
      latency.put(
          kind,
          Latency.of(
              history.stream()
                  .filter(op -> op.kind() == kind)
                  .mapToLong(Operation::latencyNanos)
                  .toArray()));
    }
    return latency;
  }

  /** A chain's operations in short: step, kind, status, reason, revision read or written. */
  private static String steps(List<Operation> ops, long origin) {
    return ops.stream()
        .map(
            o ->
                String.format(
                    "%d %s %d %s r%d at %d ms",
                    o.step(),
                    o.kind(),
                    o.status(),
                    o.reason(),
                    o.revision(),
                    (o.started() - origin) / 1_000_000))
        .collect(Collectors.joining("; ", "chain " + ops.get(0).chain() + ": ", ""));
  }

  /** Keeps the first few examples of each kind of violation. */
  private static void example(
      Map<String, List<String>> examples, long origin, String what, Operation op) {
    List<String> these = examples.computeIfAbsent(what, w -> new ArrayList<>());
    if (these.size() < EXAMPLES) {
      these.add(
          String.format(
              "%s %s %s of chain %d step %d (%d %s, %d ms after due, %d ms after sent, %.0f ms"
                  + " in the read, sent at %d ms)",
              what,
              op.client(),
              op.kind(),
              op.chain(),
              op.step(),
              op.status(),
              op.reason(),
              op.latencyNanos() / 1_000_000,
              op.serviceNanos() / 1_000_000,
              op.serverMillis(),
              (op.started() - origin) / 1_000_000));
    }
  }
}
