package io.tidemark.demo;

import java.time.Duration;
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
   */
  record Verdict(
      long writes,
      long reads,
      long stale,
      long notFound,
      long pastDeadline,
      Map<String, Long> refusals) {

    String summary() {
      return String.format(
          "writes %d, reads %d, stale %d, not found %d, past deadline %d, refused %s",
          writes, reads, stale, notFound, pastDeadline, refusals);
    }
  }

  static Verdict check(List<Operation> history, Duration deadline) {
    long writes = 0;
    long reads = 0;
    long stale = 0;
    long notFound = 0;
    long pastDeadline = 0;
    Map<String, Long> refusals = new TreeMap<>();
    for (Operation op : history) {
      if (op.latencyNanos() > deadline.toNanos()) {
        pastDeadline++;
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
      } else if (op.revision() < op.required()) {
        stale++;
      }
    }
    return new Verdict(writes, reads, stale, notFound, pastDeadline, refusals);
  }
}
