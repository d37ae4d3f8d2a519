package io.tidemark.testkit.redis;

import java.util.List;

/** Where a {@link RedisServer} runs: a local process, or a container of a Docker engine. */
interface RedisRunner {

  /** Starts {@code redis-server} with {@code arguments} without waiting for it. */
  void start(List<String> arguments);

  boolean isAlive();

  /** Why it is not alive, for a failure's message. */
  String exitDetail();

  /** Kills it (SIGKILL) and returns once it is gone; its folder stays. */
  void kill();

  /** Suspends it: connections are accepted, nothing answers. */
  void freeze();

  /** Resumes it after {@link #freeze()}. */
  void thaw();

  /** What runs: the executable or the image. */
  String describe();
}
