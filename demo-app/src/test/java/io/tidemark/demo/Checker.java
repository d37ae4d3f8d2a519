package io.tidemark.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks a recorded history against the read-your-writes contract: a read that carries the token of
 * an acknowledged write returns that write or a later one, never an older row and never "not
 * found"; it answers within its deadline; anything else is an explicit, counted refusal.
 */
final class Checker {

  private Checker() {}

  /**
   * What the history shows.
   *
   * @param writes acknowledged writes
   * @param reads reads that returned data or "not found"
   * @param stale reads that returned a row older than their token's write
   * @param notFound reads that said "not found" for an acknowledged write
   * @param pastDeadline operations answered later than the deadline allows
   * @param refusals refused reads by reason (503 and the like)
   * @param examples the first few operations that broke an invariant, for the report
   */
  record Verdict(
      long writes,
      long reads,
      long stale,
      long notFound,
      long pastDeadline,
      Map<String, Long> refusals,
      List<String> examples) {

    String summary() {
      return String.format(
          "writes %d, reads %d, stale %d, not found %d, past deadline %d, refused %s%s",
          writes,
          reads,
          stale,
          notFound,
          pastDeadline,
          refusals,
          examples.isEmpty() ? "" : "; for example " + examples);
    }
  }

  private static final int EXAMPLES = 8;

  static Verdict check(List<Operation> history, Duration deadline) {
    long writes = 0;
    long reads = 0;
    long stale = 0;
    long notFound = 0;
    long pastDeadline = 0;
    Map<String, Long> refusals = new TreeMap<>();
    List<String> examples = new ArrayList<>();
    for (Operation op : history) {
      if (op.latencyNanos() > deadline.toNanos()) {
        pastDeadline++;
        example(examples, "late", op);
      }
      if (op.acknowledged()) {
        writes++;
        continue;
      }
      if (op.kind() != Operation.Kind.READ) {
        continue;
      }
      if (!op.servedRead()) {
        refusals.merge(op.status() + " " + op.reason(), 1L, Long::sum);
        continue;
      }
      reads++;
      if (op.revision() < 0) {
        notFound++;
        example(examples, "not found", op);
      } else if (op.revision() < op.required()) {
        stale++;
        example(examples, "stale", op);
      }
    }
    return new Verdict(
        writes, reads, stale, notFound, pastDeadline, refusals, List.copyOf(examples));
  }

  private static void example(List<String> examples, String what, Operation op) {
    if (examples.size() < EXAMPLES) {
      examples.add(
          String.format(
              "%s %s of chain %d step %d (%d %s, %d ms after due, sent %d ms late)",
              what,
              op.kind(),
              op.chain(),
              op.step(),
              op.status(),
              op.reason(),
              op.latencyNanos() / 1_000_000,
              (op.started() - op.intended()) / 1_000_000));
    }
  }
}
