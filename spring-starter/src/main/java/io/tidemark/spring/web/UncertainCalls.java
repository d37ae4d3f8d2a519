package io.tidemark.spring.web;

import io.tidemark.ConsistencyContext;
import io.tidemark.internal.Failures;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The calls whose outcome the caller cannot know, and what they leave in its context. A call that
 * may change state downstream (any method but GET, HEAD, OPTIONS and TRACE) and ends without the
 * called service's answer, after a read timeout or a reset connection, may have committed there:
 * its token never came back, so the caller's context is marked dirty, as a commit whose outcome is
 * unknown marks it. The rest of the unit of work then reads from the source, and its answer's token
 * covers the source's state, the called service's commits included.
 *
 * <p>So does such a call answered with a 5xx and no consistency header. A Tidemark service's error
 * answer carries its token, like every other answer, whenever it committed anything (and when the
 * caller sent one): a 5xx without any either came from a service that wrote nothing or from
 * something in between (a gateway's 504, a proxy's 502 or 503) that gave up waiting for a service
 * that may still have committed.
 *
 * <p>The reason names the method and the host, never the path, the query or the body, since it
 * reaches log lines.
 */
final class UncertainCalls {

  private UncertainCalls() {}

  /**
   * Whether a call with {@code method} may change state downstream: every method but those RFC 9110
   * defines as safe. Method names are case-sensitive, so {@code get} counts as unsafe.
   */
  static boolean mayWrite(String method) {
    return switch (method) {
      case "GET", "HEAD", "OPTIONS", "TRACE" -> false;
      default -> true;
    };
  }

  /**
   * Notes that a call with {@code method} to {@code uri} ended with {@code failure} and no answer:
   * the context turns dirty when the call may have written downstream, unless the failure shows
   * that the request never left (the connection was refused or could not be opened in time, the
   * host is unknown).
   */
  static void unanswered(
      @Nullable ConsistencyContext context, String method, URI uri, Throwable failure) {
    if (context != null && mayWrite(method) && !neverSent(failure)) {
      context.markDirty(
          method
              + " to "
              + target(uri)
              + " got no answer ("
              + Failures.innermost(failure).getClass().getSimpleName()
              + "): it may have written there");
    }
  }

  /**
   * Notes that a call with {@code method} to {@code uri} was answered with {@code status}, with or
   * without a consistency header: a 5xx without one to a call that may have written turns the
   * context dirty.
   */
  static void answered(
      @Nullable ConsistencyContext context,
      String method,
      URI uri,
      int status,
      boolean carriedHeader) {
    if (context != null && status >= 500 && status <= 599 && !carriedHeader && mayWrite(method)) {
      context.markDirty(
          method
              + " to "
              + target(uri)
              + " was answered "
              + status
              + " without a token: it may have written there");
    }
  }

  /**
   * Whether {@code failure}, or what it wraps, shows that no byte of the request reached the other
   * side: no connection was made.
   */
  static boolean neverSent(Throwable failure) {
    return Failures.find(failure, ConnectException.class) != null
        || Failures.find(failure, UnknownHostException.class) != null
        || Failures.find(failure, HttpConnectTimeoutException.class) != null;
  }

  /** The host and port of {@code uri}: no user information, path or query. */
  static String target(URI uri) {
    String host = uri.getHost();
    if (host == null) {
      return "an unnamed host";
    }
    return uri.getPort() == -1 ? host : host + ":" + uri.getPort();
  }
}
