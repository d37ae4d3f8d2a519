package io.tidemark;

import java.util.BitSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * A slow, obviously correct GTID set for small GNOs, one bit per GTID, against which the fast
 * implementation is checked. Keys are lower-case UUIDs, then tags ("" when untagged).
 */
public final class GtidModel {

  private final TreeMap<String, TreeMap<String, BitSet>> gtids = new TreeMap<>();

  void add(String uuid, String tag, long start, long end) {
    BitSet bits =
        gtids
            .computeIfAbsent(uuid.toLowerCase(java.util.Locale.ROOT), u -> new TreeMap<>())
            .computeIfAbsent(tag.toLowerCase(java.util.Locale.ROOT), t -> new BitSet());
    bits.set((int) start, (int) end + 1);
  }

  GtidModel union(GtidModel other) {
    return combine(other, Op.UNION);
  }

  GtidModel subtract(GtidModel other) {
    return combine(other, Op.SUBTRACT);
  }

  GtidModel intersection(GtidModel other) {
    return combine(other, Op.INTERSECT);
  }

  boolean containsAll(GtidModel other) {
    return other.subtract(this).canonical().isEmpty();
  }

  /** The text MySQL prints for this set, built without any of the code under test. */
  String canonical() {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, TreeMap<String, BitSet>> uuid : gtids.entrySet()) {
      StringBuilder element = new StringBuilder(uuid.getKey());
      for (Map.Entry<String, BitSet> tag : uuid.getValue().entrySet()) {
        BitSet bits = tag.getValue();
        if (bits.isEmpty()) {
          continue;
        }
        if (!tag.getKey().isEmpty()) {
          element.append(':').append(tag.getKey());
        }
        for (int start = bits.nextSetBit(0); start >= 0; ) {
          int end = bits.nextClearBit(start) - 1;
          element.append(':').append(start);
          if (end > start) {
            element.append('-').append(end);
          }
          start = bits.nextSetBit(end + 1);
        }
      }
      if (element.length() > uuid.getKey().length()) {
        out.append(out.isEmpty() ? "" : ",\n").append(element);
      }
    }
    return out.toString();
  }

  private enum Op {
    UNION,
    SUBTRACT,
    INTERSECT
  }

  private GtidModel combine(GtidModel other, Op op) {
    GtidModel result = new GtidModel();
    for (GtidModel side : new GtidModel[] {this, other}) {
      side.gtids.forEach(
          (uuid, tags) ->
              tags.forEach(
                  (tag, bits) ->
                      result
                          .gtids
                          .computeIfAbsent(uuid, u -> new TreeMap<>())
                          .computeIfAbsent(tag, t -> new BitSet())));
    }
    result.gtids.forEach(
        (uuid, tags) ->
            tags.forEach(
                (tag, bits) -> {
                  BitSet mine = bits(uuid, tag);
                  BitSet theirs = other.bits(uuid, tag);
                  bits.or(mine);
                  switch (op) {
                    case UNION -> bits.or(theirs);
                    case SUBTRACT -> bits.andNot(theirs);
                    case INTERSECT -> bits.and(theirs);
                  }
                }));
    return result;
  }

  private BitSet bits(String uuid, String tag) {
    TreeMap<String, BitSet> tags = gtids.get(uuid);
    BitSet bits = tags == null ? null : tags.get(tag);
    return bits == null ? new BitSet() : bits;
  }
}
