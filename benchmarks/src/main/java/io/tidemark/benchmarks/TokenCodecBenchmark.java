package io.tidemark.benchmarks;

import io.tidemark.ConsistencyHeader;
import io.tidemark.ConsistencyToken;
import io.tidemark.GtidSet;
import io.tidemark.KeyRing;
import io.tidemark.TokenCodec;
import io.tidemark.TokenConfig;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Measures the per-request cost of tokens on one thread: verifying a signed token of three source
 * UUIDs from its wire form (length and syntax checks, HMAC-SHA256, payload decoding), the same from
 * a two-cluster header, signing one, and parsing, uniting and comparing the GTID sets behind them.
 * {@code hmacOnlyBaseline} computes just the HMAC over the same bytes, so that the difference to
 * {@code verifyToken} is what decoding and checking cost on top of the cryptography.
 *
 * <p>Run alone, quickly: {@code ./mvnw -B -pl benchmarks -am package -DskipTests} then {@code java
 * -jar benchmarks/target/benchmarks.jar TokenCodecBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TokenCodecBenchmark {

  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String B = "0ad6eae9-1234-11e1-9e33-c80aa9429562";
  private static final String C = "f0c1b2a3-5d4e-11ef-8f20-0c5415bfaa1d";

  /** What {@code @@gtid_executed} prints on a source that has seen two failovers. */
  private static final String EXECUTED = B + ":1-1834,\n" + A + ":1-2817463,\n" + C + ":1-95310";

  private TokenCodec codec;
  private String encoded;
  private String header;
  private byte[] signedBytes;
  private Mac hmac;
  private ConsistencyToken token;
  private GtidSet executed;
  private GtidSet written;

  /** Builds one codec and the inputs, outside the measurement. */
  @Setup
  public void setUp() throws GeneralSecurityException {
    byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    KeyRing ring = KeyRing.builder().key("k1", secret).active("k1").build();
    codec = new TokenCodec(TokenConfig.builder(ring).build());
    executed = GtidSet.parse(EXECUTED);
    written = GtidSet.parse(B + ":1834," + A + ":2817401:2817460-2817463," + C + ":95310");
    token = codec.issue("orders", written).withRevision("order:101", 7);
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
  public GtidSet parseGtidSet() {
    return GtidSet.parse(EXECUTED);
  }

  @Benchmark
  public GtidSet union() {
    return executed.union(written);
  }

  @Benchmark
  public boolean containsAll() {
    return executed.containsAll(written);
  }
}
