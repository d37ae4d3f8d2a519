package io.tidemark.benchmarks;

import io.tidemark.GtidSet;
import io.tidemark.token.ConsistencyHeader;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.KeyRing;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenConfig;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Measures the per-request cost of tokens on one thread (issue part 7): verifying a signed token of
 * three source UUIDs from its wire form (length and syntax checks, HMAC-SHA256, payload decoding),
 * the same from a two-cluster header, signing one, merging two tokens, and parsing, uniting and
 * comparing GTID sets. {@code hmacOnlyBaseline} computes just the HMAC over the same bytes, so that
 * the difference to {@code verifyToken} is what decoding and checking cost on top of the
 * cryptography. The set operations run at two sizes (parameter {@code sets}, UUIDs x intervals per
 * UUID): {@code 3x1}, a source's {@code gtid_executed} after two failovers against a token of a few
 * writes, and {@code 10x100}, a fragmented set such as a long-lived session's token collects. With
 * {@code -prof gc} JMH also reports the bytes allocated per operation.
 *
 * <p>Run alone, quickly: {@code ./mvnw -B -pl benchmarks -am package -DskipTests} then {@code java
 * -jar benchmarks/target/benchmarks.jar TokenCodecBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
public class TokenCodecBenchmark extends ForkedBenchmark {

  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String B = "0ad6eae9-1234-11e1-9e33-c80aa9429562";
  private static final String C = "f0c1b2a3-5d4e-11ef-8f20-0c5415bfaa1d";

  /** What {@code @@gtid_executed} prints on a source that has seen two failovers. */
  private static final String EXECUTED = B + ":1-1834,\n" + A + ":1-2817463,\n" + C + ":1-95310";

  /** GTID sets of a realistic size for {@code parseGtidSet}, {@code union}, {@code containsAll}. */
  @State(Scope.Benchmark)
  public static class Sets {
    @Param({"3x1", "10x100"})
    public String sets;

    String executedText;
    GtidSet executed;
    GtidSet written;

    @Setup
    public void setUp() {
      if ("3x1".equals(sets)) {
        executedText = EXECUTED;
        written = GtidSet.parse(B + ":1834," + A + ":2817401:2817460-2817463," + C + ":95310");
      } else {
        // Ten sources, each with 100 intervals of 5 GNOs and gaps of 5; the token holds one GNO
        // of every interval.
        StringBuilder all = new StringBuilder();
        StringBuilder some = new StringBuilder();
        for (int u = 0; u < 10; u++) {
          String uuid = String.format("%08x-5d4e-11ef-8f20-0c5415bfaa1d", u + 1);
          all.append(u == 0 ? "" : ",").append(uuid);
          some.append(u == 0 ? "" : ",").append(uuid);
          for (int i = 0; i < 100; i++) {
            long start = 1 + 10L * i;
            all.append(':').append(start).append('-').append(start + 4);
            some.append(':').append(start + 2);
          }
        }
        executedText = all.toString();
        written = GtidSet.parse(some);
      }
      executed = GtidSet.parse(executedText);
    }
  }

  private TokenCodec codec;
  private String encoded;
  private String header;
  private byte[] signedBytes;
  private Mac hmac;
  private ConsistencyToken token;
  private ConsistencyToken other;

  /** Builds one codec and the inputs, outside the measurement. */
  @Setup
  public void setUp() throws GeneralSecurityException {
    byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    KeyRing ring = KeyRing.builder().key("k1", secret).active("k1").build();
    codec = new TokenCodec(TokenConfig.builder(ring).build());
    GtidSet written = GtidSet.parse(B + ":1834," + A + ":2817401:2817460-2817463," + C + ":95310");
    token = codec.issue("orders", written);
    other = codec.issue("orders", GtidSet.parse(A + ":2817464-2817470," + C + ":95311"));
    encoded = codec.encode(token);
    header = "orders=" + encoded + ", payments=v1.p1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.sig";
    signedBytes =
        encoded.substring(0, encoded.lastIndexOf('.')).getBytes(StandardCharsets.US_ASCII);
    hmac = Mac.getInstance("HmacSHA256");
    hmac.init(new SecretKeySpec(secret, "HmacSHA256"));
  }

  @Benchmark
  public ConsistencyToken verifyToken() {
    return codec.verify(encoded, "orders");
  }

  @Benchmark
  public byte[] hmacOnlyBaseline() {
    return hmac.doFinal(signedBytes);
  }

  @Benchmark
  public ConsistencyToken parseHeaderAndVerify() {
    ConsistencyHeader parsed = codec.parseHeader(header);
    return codec.verify(parsed, "orders").orElseThrow();
  }

  @Benchmark
  public String encodeToken() {
    return codec.encode(token);
  }

  @Benchmark
  public ConsistencyToken mergeTokens() {
    return token.merge(other);
  }

  @Benchmark
  public GtidSet parseGtidSet(Sets s) {
    return GtidSet.parse(s.executedText);
  }

  @Benchmark
  public GtidSet union(Sets s) {
    return s.executed.union(s.written);
  }

  @Benchmark
  public boolean containsAll(Sets s) {
    return s.executed.containsAll(s.written);
  }
}
