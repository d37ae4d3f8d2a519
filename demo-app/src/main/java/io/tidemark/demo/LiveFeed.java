package io.tidemark.demo;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What the page's live view draws: the reads of the last minute by where they ran and why, the
 * replica's lag as the reads found it and as the topology's probes read it, and running counts of
 * what clients saw with Tidemark off and on.
 */
final class LiveFeed {

  /** Seconds the view covers. */
  static final int SECONDS = 60;

  /** Where a read ran and why, or how it ended without an answer: one colour on the page. */
  enum Kind {
    REPLICA_CAUGHT_UP,
    REPLICA_AFTER_WAIT,
    SOURCE_FALLBACK,
    /** Answered with Tidemark another way: from the cache, on the source as asked, ... */
    OTHER_ANSWER,
    /** Refused with a reason (HTTP 503): never a stale answer. */
    REFUSED,
    /** Without Tidemark: found. */
    OFF_FOUND,
    /** Without Tidemark: not found, though the write was acknowledged. */
    OFF_STALE,
    /** With Tidemark: not found, though the write was acknowledged; always 0. */
    STALE,
    /** With Tidemark: the write, or the read, failed with an error, not a refusal with a reason. */
    FAILED,
    /** Without Tidemark: the write, or the read, failed. */
    OFF_FAILED
  }

  /**
   * One read a client made right after its write.
   *
   * @param atMillis when it ended
   * @param kind where it ran and why
   * @param reason Tidemark's reason code, or the refusal's, or what failed
   * @param waitedMs time the replica was waited for
   * @param behindMs how far behind the replica was for this read, at least: see {@link #behind}
   * @param detail what a refusal or failure said; empty for an answer
   */
  record Read(
      long atMillis, Kind kind, String reason, double waitedMs, double behindMs, String detail) {}

  /**
   * The view of the last {@value #SECONDS} seconds, one slot per second.
   *
   * @param seconds the slots' starts, in epoch seconds, oldest first
   * @param reads per kind, the reads that ended in each slot
   * @param behindMs per slot, the furthest behind an answered read found the replica, or {@code
   *     null}
   * @param lagMs per replica, the largest lag its probe read in each slot, or {@code null}
   * @param totals counts since the feed began
   * @param refusals per reason, the refusals and failures of the last {@value #SECONDS} seconds
   */
  record View(
      long[] seconds,
      Map<Kind, int[]> reads,
      @Nullable Double[] behindMs,
      Map<String, @Nullable Double[]> lagMs,
      Totals totals,
      Map<String, Integer> refusals) {}

  /**
   * Running counts.
   *
   * @param offReads reads made without Tidemark
   * @param offStale of those, the ones that did not find the order just written
   * @param onReads reads made with Tidemark
   * @param onStale of those, the ones that did not find it: 0 is the guarantee
   * @param onRefused of those, the ones refused with a reason
   * @param failed writes or reads that failed with an error
   */
  record Totals(
      long offReads, long offStale, long onReads, long onStale, long onRefused, long failed) {}

  private record LagSample(long atMillis, String node, double lagMs) {}

  private final Clock clock;
  private final Deque<Read> reads = new ArrayDeque<>();
  private final Deque<LagSample> lags = new ArrayDeque<>();
  private long offReads;
  private long offStale;
  private long onReads;
  private long onStale;
  private long onRefused;
  private long failed;

  LiveFeed(Clock clock) {
    this.clock = clock;
  }

  /** Records what a client of {@link Scenario#client} saw. */
  void read(boolean tidemark, Scenario.Outcome outcome) {
    ReadReply reply = outcome.reply();
    if (reply == null) {
      // Without Tidemark nothing refuses: a 503 is a failed plain read.
      read(
          !tidemark ? Kind.OFF_FAILED : outcome.status() == 503 ? Kind.REFUSED : Kind.FAILED,
          outcome.refusal(),
          0,
          0,
          outcome.detail());
      return;
    }
    String reason = reply.servedBy().reason();
    Kind kind;
    if (!tidemark) {
      kind = reply.found() ? Kind.OFF_FOUND : Kind.OFF_STALE;
    } else if (!reply.found()) {
      kind = Kind.STALE;
    } else {
      kind =
          switch (reason) {
            case "REPLICA_CAUGHT_UP" -> Kind.REPLICA_CAUGHT_UP;
            case "REPLICA_AFTER_WAIT" -> Kind.REPLICA_AFTER_WAIT;
            case "SOURCE_FALLBACK" -> Kind.SOURCE_FALLBACK;
            default -> Kind.OTHER_ANSWER;
          };
    }
    read(kind, reason, reply.servedBy().waitedMs(), behind(reply, outcome.ageMs()), "");
  }

  /**
   * How far behind the replica was for a read, at least, from what the read learnt: the replica's
   * lag is sampled at every read, so a lag of a few hundred ms between the probes' samples shows. A
   * read with Tidemark waited that long for the replica to catch up with its token (a fallback gave
   * up after that long); a read that missed the order was behind by the order's age when it
   * answered; one that found it, by nothing it could tell.
   */
  private static double behind(ReadReply reply, double ageMs) {
    double waited = reply.tidemark() ? reply.servedBy().waitedMs() : 0;
    return reply.found() ? waited : Math.max(waited, ageMs);
  }

  synchronized void read(
      Kind kind, String reason, double waitedMs, double behindMs, String detail) {
    long now = clock.millis();
    reads.addLast(new Read(now, kind, reason, waitedMs, behindMs, detail));
    switch (kind) {
      case OFF_FOUND -> offReads++;
      case OFF_STALE -> {
        offReads++;
        offStale++;
      }
      case STALE -> {
        onReads++;
        onStale++;
      }
      case REFUSED -> {
        onReads++;
        onRefused++;
      }
      case FAILED, OFF_FAILED -> failed++;
      default -> onReads++;
    }
    prune(now);
  }

  synchronized void lag(String node, double lagMs) {
    long now = clock.millis();
    lags.addLast(new LagSample(now, node, lagMs));
    prune(now);
  }

  synchronized View view() {
    long now = clock.millis();
    prune(now);
    long last = Math.floorDiv(now, 1000);
    long first = last - SECONDS + 1;
    long[] seconds = new long[SECONDS];
    Arrays.setAll(seconds, i -> first + i);
    Map<Kind, int[]> byKind = new EnumMap<>(Kind.class);
    for (Kind kind : Kind.values()) {
      byKind.put(kind, new int[SECONDS]);
    }
    @Nullable Double[] behind = new Double[SECONDS];
    Map<String, Integer> refusals = new TreeMap<>();
    for (Read read : reads) {
      int slot = (int) (Math.floorDiv(read.atMillis(), 1000) - first);
      if (slot < 0 || slot >= SECONDS) {
        continue;
      }
      byKind.get(read.kind())[slot]++;
      if (read.kind() == Kind.REFUSED
          || read.kind() == Kind.FAILED
          || read.kind() == Kind.OFF_FAILED) {
        refusals.merge(read.reason(), 1, Integer::sum);
      } else {
        behind[slot] = Math.max(behind[slot] == null ? 0 : behind[slot], read.behindMs());
      }
    }
    Map<String, @Nullable Double[]> lagMs = new LinkedHashMap<>();
    for (LagSample sample : lags) {
      int slot = (int) (Math.floorDiv(sample.atMillis(), 1000) - first);
      if (slot < 0 || slot >= SECONDS) {
        continue;
      }
      @Nullable Double[] line = lagMs.computeIfAbsent(sample.node(), n -> new Double[SECONDS]);
      line[slot] = Math.max(line[slot] == null ? 0 : line[slot], sample.lagMs());
    }
    return new View(
        seconds,
        byKind,
        behind,
        lagMs,
        new Totals(offReads, offStale, onReads, onStale, onRefused, failed),
        refusals);
  }

  /** The last {@code count} reads, newest first. */
  synchronized List<Read> recent(int count) {
    List<Read> recent = new ArrayList<>(count);
    var newestFirst = reads.descendingIterator();
    while (newestFirst.hasNext() && recent.size() < count) {
      recent.add(newestFirst.next());
    }
    return recent;
  }

  private void prune(long now) {
    long oldest = (Math.floorDiv(now, 1000) - SECONDS) * 1000;
    while (!reads.isEmpty() && reads.peekFirst().atMillis() < oldest) {
      reads.removeFirst();
    }
    while (!lags.isEmpty() && lags.peekFirst().atMillis() < oldest) {
      lags.removeFirst();
    }
  }
}
