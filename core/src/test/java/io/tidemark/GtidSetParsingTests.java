package io.tidemark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSetFormatException.Problem;
import java.util.UUID;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class GtidSetParsingTests {

  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String B = "0ad6eae9-1234-11e1-9e33-c80aa9429562";

  @Test
  void printsWhatMysqlPrintsSortedMergedAndLowerCase() {
    GtidSet set = GtidSet.parse(A.toUpperCase() + ":7:1-5, " + B + ":3");

    assertThat(set).hasToString(B + ":3,\n" + A + ":1-5:7");
    assertThat(set.uuidCount()).isEqualTo(2);
    assertThat(set.intervalCount()).isEqualTo(3);
    assertThat(set.uuids()).containsExactly(UUID.fromString(B), UUID.fromString(A));
  }

  @Test
  void readsGtidExecutedAsTheServerPrintsIt() {
    String printed = B + ":1-100,\n" + A + ":1-5:7-9";

    assertThat(GtidSet.parse(printed)).hasToString(printed);
  }

  @Test
  void sortsUuidsAsTheirTextSortsNotAsSignedNumbers() {
    String high = "ffffffff-ffff-ffff-ffff-ffffffffffff";
    String middle = "80000000-0000-0000-0000-000000000000";
    String low = "00000000-0000-0000-0000-000000000001";

    assertThat(GtidSet.parse(high + ":1," + low + ":1," + middle + ":4"))
        .hasToString(low + ":1,\n" + middle + ":4,\n" + high + ":1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\n\t ", ",", " , ,, "})
  void readsEmptyTextAndEmptyElementsAsTheEmptySet(String text) {
    GtidSet set = GtidSet.parse(text);

    assertThat(set).isEqualTo(GtidSet.EMPTY).hasToString("");
    assertThat(set.isEmpty()).isTrue();
    assertThat(set.uuidCount()).isZero();
  }

  static Stream<Arguments> acceptedByTheServer() {
    return Stream.of(
        Arguments.of(" " + A + " : 1 - 5 : 7 ,\n " + B + ":3 ", B + ":3,\n" + A + ":1-5:7"),
        Arguments.of(A + ":1-5," + A + ":6-9", A + ":1-9"),
        Arguments.of(A + ":1-5:3-9:2", A + ":1-9"),
        Arguments.of(A + ":1:1:2-4", A + ":1-4"),
        Arguments.of(A + ":3-3", A + ":3"),
        Arguments.of(A + ":03", A + ":3"),
        Arguments.of(A + ":1-5,," + B + ":1", B + ":1,\n" + A + ":1-5"),
        Arguments.of(A + ":1-5,", A + ":1-5"),
        Arguments.of(A + ":9223372036854775806", A + ":9223372036854775806"),
        Arguments.of(A + ":1-9223372036854775806", A + ":1-9223372036854775806"));
  }

  @ParameterizedTest
  @MethodSource("acceptedByTheServer")
  void acceptsWhatTheServerAcceptsAndNormalizesAsItDoes(String text, String canonical) {
    assertThat(GtidSet.parse(text)).hasToString(canonical);
  }

  @Test
  void acceptsEveryWhitespaceTheServerSkips() {
    String text = A + ":1\u000b:2\f:3\r\n:4\t:5 :6";

    assertThat(GtidSet.parse(text)).hasToString(A + ":1-6");
  }

  @Test
  void readsTaggedGtidsAsMysql83PrintsThem() {
    GtidSet set = GtidSet.parse(A + ":Domain_2:8-52, " + A + ":domain_1:15-21:1-3," + A + ":1-3");

    assertThat(set).hasToString(A + ":1-3:domain_1:1-3:15-21:domain_2:8-52");
    assertThat(set.uuidCount()).isEqualTo(1);
    assertThat(set.intervalCount()).isEqualTo(4);
    assertThat(GtidSet.parse(set.toString())).isEqualTo(set);
  }

  @Test
  void keepsTaggedAndUntaggedGtidsOfOneUuidApart() {
    GtidSet untagged = GtidSet.parse(A + ":1-5");
    GtidSet tagged = GtidSet.parse(A + ":t:1-5");

    assertThat(untagged.containsAll(tagged)).isFalse();
    assertThat(untagged.union(tagged)).hasToString(A + ":1-5:t:1-5");
    assertThat(untagged.union(tagged).subtract(untagged)).isEqualTo(tagged);
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("inverted interval", A + ":5-3", 37),
        Arguments.of("inverted to zero", A + ":3-0", 39),
        Arguments.of("GNO 0", A + ":0", 37),
        Arguments.of("GNO 0 as start", A + ":0-3", 37),
        Arguments.of("GNO 2^63-1", A + ":9223372036854775807", 37),
        Arguments.of("GNO 2^63", A + ":9223372036854775808", 37),
        Arguments.of("GNO 2^64+1", A + ":18446744073709551617", 37),
        Arguments.of("interval end 2^63-1", A + ":1-9223372036854775807", 39),
        Arguments.of("interval without end", A + ":1-", 39),
        Arguments.of("interval without start", A + ":-3", 37),
        Arguments.of("UUID without intervals", A, 36),
        Arguments.of("UUID without intervals before a comma", A + "," + B + ":1", 36),
        Arguments.of("colon without interval", A + ":", 37),
        Arguments.of("trailing colon", A + ":1-5:", 41),
        Arguments.of("double colon", A + "::1", 37),
        Arguments.of("signed GNO", A + ":+3", 37),
        Arguments.of("signed end", A + ":1-+5", 39),
        Arguments.of("two numbers", A + ":1 2", 39),
        Arguments.of("double dash", A + ":1--3", 39),
        Arguments.of("two dashes", A + ":1-2-3", 40),
        Arguments.of("junk after interval", A + ":1-5 junk", 41),
        Arguments.of("semicolon", A + ":1;" + B + ":2", 38),
        Arguments.of("NUL, where the server stops reading", A + ":1-5\0garbage", 40),
        Arguments.of("non-breaking space", A + ":1-5\u00a0:7", 40),
        Arguments.of("short UUID", "3e11fa47-71ca-11e1-9e33-c80aa942956:1", 35),
        Arguments.of("UUID without dashes", "3e11fa4771ca11e19e33c80aa9429562:1", 0),
        Arguments.of("UUID in braces", "{" + A + "}:1", 0),
        Arguments.of("non-hex digit", "3e11fa47-71ca-11e1-9e33-c80aa942956g:1", 35),
        Arguments.of("non-ASCII digit", "3e11fa47-71ca-11e1-9e33-c80aa942956\u0663:1", 35),
        Arguments.of("underscore for dash", "3e11fa47_71ca-11e1-9e33-c80aa9429562:1", 8),
        Arguments.of("two UUIDs run together", A + B + ":1", 36),
        Arguments.of("colon after comma", A + ":1,:2", 39),
        Arguments.of("tag without intervals", A + ":tag", 40),
        Arguments.of("two tags in a row", A + ":t1:t2:1", 40),
        Arguments.of("tag starting with a digit", A + ":1tag:1", 38),
        Arguments.of("tag of 33 characters", A + ":" + "t".repeat(33) + ":1", 69),
        Arguments.of("tag with a dash", A + ":t-1:1", 38));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void refusesMalformedTextNamingThePosition(String what, String text, int position) {
    assertThatThrownBy(() -> GtidSet.parse(text))
        .isInstanceOfSatisfying(
            GtidSetFormatException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Problem.MALFORMED);
              assertThat(e.position()).isEqualTo(position);
              assertThat(e.getMessage()).contains("at position " + position);
            });
  }

  @Test
  void acceptsATagOfThirtyTwoCharacters() {
    String tag = "t".repeat(32);

    assertThat(GtidSet.parse(A + ":" + tag + ":1")).hasToString(A + ":" + tag + ":1");
  }

  @Test
  void refusesAMegabyteBeforeReadingAnyOfIt() {
    CountingText text = new CountingText(1 << 20, 'x');

    assertThatThrownBy(() -> GtidSet.parse(text))
        .isInstanceOfSatisfying(
            GtidSetFormatException.class, e -> assertThat(e.reason()).isEqualTo(Problem.TOO_LONG));
    assertThat(text.reads).isZero();
  }

  @Test
  void stopsReadingAtTheFirstUuidOverTheLimit() {
    String element = A + ":1,";
    CountingText text = new CountingText(element.repeat(100));
    GtidLimits limits = new GtidLimits(100_000, 10, 1_000);

    assertThatThrownBy(() -> GtidSet.parse(text, limits))
        .isInstanceOfSatisfying(
            GtidSetFormatException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Problem.TOO_MANY_UUIDS);
              assertThat(e.position()).isEqualTo(10 * element.length());
            });
    assertThat(text.reads).isLessThan(text.length() / 2);
  }

  @Test
  void stopsReadingAtTheFirstIntervalOverTheLimit() {
    StringBuilder text = new StringBuilder(A);
    LongStream.rangeClosed(1, 100_000).forEach(gno -> text.append(':').append(gno * 2));
    GtidLimits limits = new GtidLimits(2_000_000, 10, 1_000);

    assertThatThrownBy(() -> GtidSet.parse(text, limits))
        .isInstanceOfSatisfying(
            GtidSetFormatException.class,
            e -> assertThat(e.reason()).isEqualTo(Problem.TOO_MANY_INTERVALS));
  }

  @Test
  void countsRepeatedUuidsEachTimeTheyAreWritten() {
    GtidLimits limits = new GtidLimits(1_000, 2, 100);

    assertThat(GtidSet.parse(A + ":1," + A + ":2", limits).uuidCount()).isEqualTo(1);
    assertThatThrownBy(() -> GtidSet.parse(A + ":1," + A + ":2," + A + ":3", limits))
        .isInstanceOf(GtidSetFormatException.class);
  }

  @Test
  void refusesLimitsThatAreNotPositive() {
    assertThatThrownBy(() -> new GtidLimits(0, 1, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  /** Text that counts how often its characters are read. */
  private static final class CountingText implements CharSequence {
    private final String text;
    int reads;

    CountingText(int length, char c) {
      this(String.valueOf(c).repeat(length));
    }

    CountingText(String text) {
      this.text = text;
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public char charAt(int index) {
      reads++;
      return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      reads += end - start;
      return text.subSequence(start, end);
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
