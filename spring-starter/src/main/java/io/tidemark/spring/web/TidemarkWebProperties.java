package io.tidemark.spring.web;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** How tokens travel over HTTP: the settings under {@code tidemark.web.*}. */
@ConfigurationProperties("tidemark.web")
public class TidemarkWebProperties {

  /**
   * Whether the consistency header of HTTP requests is read and written; when off, reads wait only
   * for tokens the code puts in the consistency context.
   */
  private boolean enabled = true;

  /** Name of the request and response header that carries the tokens. */
  private String header = "Consistency-Token";

  /**
   * Name of the request header by which a client chooses the level of the request's reads (SESSION,
   * GLOBAL, BOUNDED, EVENTUAL) where their annotation names none.
   */
  private String levelHeader = "Consistency-Level";

  private final Cookie cookie = new Cookie();

  /**
   * Name of a response header that says which node served the request's last read
   * under @ReadYourWrites, and why; none when not set. For development: it shows node names to
   * clients.
   */
  private @Nullable String readHeader;

  /** What a request with a token that does not verify gets. */
  private InvalidToken invalidToken = InvalidToken.REJECT;

  /**
   * Budget of a whole request: reads under it wait at most what is left, and writes begun within it
   * end by it (a 503 before their commit, an unknown outcome while committing). None when not set.
   */
  private @Nullable Duration requestTimeout;

  /**
   * Longest the reads of one request wait for replicas, all together; a read after that runs on a
   * replica that already has the token, else on the source.
   */
  private Duration requestWait = Duration.ofMillis(800);

  /**
   * Where the reads of a POST, PUT, PATCH or DELETE request run. SOURCE: such a request is about to
   * write, and an entity it loads, changes and saves must not be a replica's older copy.
   */
  private UnsafeMethodReads unsafeMethodReads = UnsafeMethodReads.SOURCE;

  /**
   * Retry-After of a 503 that replica lag does not explain: no writable source, a busy pool, a
   * failed connection, or a replica behind while no replica's lag is known.
   */
  private Duration retryAfter = Duration.ofSeconds(1);

  /**
   * Most Retry-After of a read refused because the replica had not caught up, which otherwise is
   * the least lagging readable replica's lag, rounded up to whole seconds.
   */
  private Duration maxRetryAfter = Duration.ofSeconds(30);

  /**
   * Order of the token filter; before Spring Security's (-100), so that every filter after sees the
   * context.
   */
  private int filterOrder = -105;

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public String getHeader() {
    return header;
  }

  public void setHeader(String header) {
    this.header = header;
  }

  public String getLevelHeader() {
    return levelHeader;
  }

  public void setLevelHeader(String levelHeader) {
    this.levelHeader = levelHeader;
  }

  public Cookie getCookie() {
    return cookie;
  }

  public @Nullable String getReadHeader() {
    return readHeader;
  }

  public void setReadHeader(@Nullable String readHeader) {
    this.readHeader = readHeader;
  }

  public InvalidToken getInvalidToken() {
    return invalidToken;
  }

  public void setInvalidToken(InvalidToken invalidToken) {
    this.invalidToken = invalidToken;
  }

  public @Nullable Duration getRequestTimeout() {
    return requestTimeout;
  }

  public UnsafeMethodReads getUnsafeMethodReads() {
    return unsafeMethodReads;
  }

  public void setUnsafeMethodReads(UnsafeMethodReads unsafeMethodReads) {
    this.unsafeMethodReads = unsafeMethodReads;
  }

  public void setRequestTimeout(@Nullable Duration requestTimeout) {
    this.requestTimeout = requestTimeout;
  }

  public Duration getRetryAfter() {
    return retryAfter;
  }

  public void setRetryAfter(Duration retryAfter) {
    this.retryAfter = retryAfter;
  }

  public Duration getMaxRetryAfter() {
    return maxRetryAfter;
  }

  public void setMaxRetryAfter(Duration maxRetryAfter) {
    this.maxRetryAfter = maxRetryAfter;
  }

  public int getFilterOrder() {
    return filterOrder;
  }

  public void setFilterOrder(int filterOrder) {
    this.filterOrder = filterOrder;
  }

  /**
   * Where the tokens travel, for the start-up line: the header and the cookie of {@code cluster}.
   */
  String carriers(String cluster) {
    String cookie = this.cookie.nameFor(cluster);
    return "tokens travel in the "
        + header
        + " header"
        + (cookie == null
            ? " only (tidemark.web.cookie.enabled=false: browsers get none)"
            : " and the " + cookie + " cookie");
  }

  /** The cookie that carries the tokens for browsers, which never send a response header back. */
  public static class Cookie {

    /**
     * Whether answers also carry this cluster's token in a cookie, which a browser sends back by
     * itself; set only when an answer carries something new.
     */
    private boolean enabled = true;

    /** Name of the cookie; when not set, Consistency-Token- and the cluster's name. */
    private @Nullable String name;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public @Nullable String getName() {
      return name;
    }

    public void setName(@Nullable String name) {
      this.name = name;
    }

    /** The cookie's name for {@code cluster}, or {@code null} when it is off. */
    public @Nullable String nameFor(String cluster) {
      if (!enabled) {
        return null;
      }
      return name != null && !name.isBlank() ? name : "Consistency-Token-" + cluster;
    }
  }

  /** Where the reads of a request with an unsafe HTTP method run. */
  public enum UnsafeMethodReads {
    /** On the source, which has what every client committed (Reason SOURCE_FOR_WRITE). */
    SOURCE,
    /**
     * As in any request: a replica that has the request's token. A form's entity loaded there and
     * saved whole may write back an older copy of another client's change.
     */
    REPLICA
  }

  /** What a request does with a token that does not verify. */
  public enum InvalidToken {
    /** Answer 400 with a problem+json body naming the reason. */
    REJECT,
    /** Go on as if the request had carried no token, and log it. */
    IGNORE
  }
}
