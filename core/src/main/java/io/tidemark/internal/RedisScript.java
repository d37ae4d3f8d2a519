package io.tidemark.internal;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * A Lua script run by its SHA-1 digest, sent in full only when the server answers {@code NOSCRIPT}
 * (first use, or after a restart or failover emptied its script cache).
 *
 * <p>Runs on standalone, Sentinel-managed and cluster connections alike: Lettuce routes a script by
 * its first key, so every script of Tidemark names all the keys it touches and gives them one hash
 * tag.
 */
public final class RedisScript {

  private final String source;
  private final String sha;

  /** A script with its digest computed once. */
  public RedisScript(String source) {
    this.source = source;
    this.sha = sha1(source);
  }

  /**
   * Starts the script on the node owning {@code keys}; the reply as Lettuce decodes {@code type}.
   */
  public <T> CompletableFuture<T> run(
      RedisClusterAsyncCommands<String, String> redis,
      ScriptOutputType type,
      String[] keys,
      String... arguments) {
    CompletionStage<T> bySha = redis.evalsha(sha, type, keys, arguments);
    return bySha
        .<CompletionStage<T>>handle(
            (result, failure) -> {
              if (failure == null) {
                return CompletableFuture.completedFuture(result);
              }
              Throwable cause = failure instanceof CompletionException c ? c.getCause() : failure;
              if (cause instanceof RedisNoScriptException) {
                return redis.eval(source, type, keys, arguments);
              }
              return CompletableFuture.failedFuture(cause);
            })
        .thenCompose(stage -> stage)
        .toCompletableFuture();
  }

  /**
   * Starts {@code call} and returns its result if it completes within {@code timeout}; cancels it
   * otherwise.
   *
   * @throws CallFailedException when it fails, is rejected, times out or the thread is interrupted
   *     (the interrupt flag is kept)
   */
  public static <T> T await(Supplier<? extends CompletionStage<T>> call, Duration timeout) {
    CompletableFuture<T> future;
    try {
      future = call.get().toCompletableFuture();
    } catch (RuntimeException e) {
      // Lettuce may reject a command before sending it, e.g. while disconnected.
      throw new CallFailedException(String.valueOf(e.getMessage()), e);
    }
    try {
      return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(false);
      throw new CallFailedException("no reply within " + timeout.toMillis() + " ms", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new CallFailedException(String.valueOf(cause.getMessage()), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(false);
      throw new CallFailedException("interrupted", e);
    }
  }

  /**
   * A Redis call that did not produce a reply in time; caught inside Tidemark and turned into an
   * "unknown" result and a counted failure, never thrown to callers.
   */
  public static final class CallFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    CallFailedException(String message, Throwable cause) {
      super(message, cause, false, false);
    }
  }

  private static String sha1(String source) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-1", e);
    }
  }
}
