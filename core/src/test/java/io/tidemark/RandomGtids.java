package io.tidemark;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Seeded generator of GTID set text in the untidy shapes servers and people write: several UUIDs
 * from a small pool (so they repeat), overlapping, touching and unsorted intervals, mixed case,
 * whitespace and line breaks at every place the syntax allows, and empty list elements. Each sample
 * comes with a {@link GtidModel} of what it means.
 */
public final class RandomGtids {

  /** Source UUIDs; the pool is small so that sets share and repeat them. */
  public static final String[] UUIDS = {
    "3e11fa47-71ca-11e1-9e33-c80aa9429562",
    "0ad6eae9-1234-11e1-9e33-c80aa9429562",
    "3e11fa47-71ca-11e1-9e33-c80aa9429563",
    "f0000000-0000-0000-0000-000000000001",
    "7fffffff-ffff-ffff-8000-000000000000",
    "80000000-0000-0000-7fff-ffffffffffff"
  };

  private static final String[] TAGS = {"alpha", "b_2", "_x"};
  private static final String[] SPACE = {" ", "\t", "\n", "\r\n", "  "};

  /** A GTID set's text and its meaning. */
  public record Sample(String text, GtidModel model) {}

  private final SplittableRandom random;
  private final boolean tags;

  /**
   * A generator for {@code seed}; with {@code tags} it also writes tagged GTIDs, which servers
   * before 8.3 refuse.
   */
  public RandomGtids(long seed, boolean tags) {
    this.random = new SplittableRandom(seed);
    this.tags = tags;
  }

  /** The next set, parsed. */
  public GtidSet nextSet() {
    return GtidSet.parse(next().text());
  }

  public Sample next() {
    GtidModel model = new GtidModel();
    StringBuilder text = new StringBuilder();
    int elements = random.nextInt(10) == 0 ? 0 : 1 + random.nextInt(5);
    space(text);
    for (int e = 0; e < elements; e++) {
      if (e > 0) {
        text.append(',');
        space(text);
        if (random.nextInt(12) == 0) {
          text.append(',');
          space(text);
        }
      }
      element(text, model);
      space(text);
    }
    return new Sample(text.toString(), model);
  }

  private void element(StringBuilder text, GtidModel model) {
    String uuid = UUIDS[random.nextInt(UUIDS.length)];
    text.append(random.nextInt(4) == 0 ? uuid.toUpperCase(Locale.ROOT) : uuid);
    String tag = "";
    int sections = 1 + random.nextInt(5);
    for (int s = 0; s < sections; s++) {
      space(text);
      text.append(':');
      space(text);
      if (tags && random.nextInt(4) == 0) {
        tag = TAGS[random.nextInt(TAGS.length)];
        text.append(random.nextBoolean() ? tag.toUpperCase(Locale.ROOT) : tag);
        space(text);
        text.append(':');
        space(text);
      }
      long start = 1 + random.nextInt(60);
      long end = start + (random.nextInt(3) == 0 ? 0 : random.nextInt(12));
      text.append(start);
      if (end != start || random.nextInt(8) == 0) {
        space(text);
        text.append('-');
        space(text);
        text.append(end);
      }
      model.add(uuid, tag, start, end);
    }
  }

  private void space(StringBuilder text) {
    if (random.nextInt(5) == 0) {
      text.append(SPACE[random.nextInt(SPACE.length)]);
    }
  }
}
