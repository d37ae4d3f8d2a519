package io.tidemark.testkit;

import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Makes sure no server outlives the JVM that started it. Every server lives in a folder under one
 * run folder per JVM and writes a {@code *.pid} file there, or a {@code *.cid} file with its
 * container's id. A shutdown hook closes what is still open; a small watchdog shell, started once,
 * outlives even a JVM killed with SIGKILL, then kills every process named by a pid file, removes
 * every container named by a cid file (with the podman or docker command) and deletes the run
 * folder.
 */
public final class ProcessReaper {

  private static final String WATCHDOG =
      """
      jvm=$1; root=$2
      while kill -0 "$jvm" 2>/dev/null; do sleep 1; done
      find "$root" -name '*.pid' -type f 2>/dev/null | while read -r f; do
        kill -9 "$(cat "$f")" 2>/dev/null
      done
      find "$root" -name '*.cid' -type f 2>/dev/null | while read -r f; do
        podman rm -f "$(cat "$f")" >/dev/null 2>&1 || docker rm -f "$(cat "$f")" >/dev/null 2>&1
      done
      rm -rf "$root"
      """;

  private static final Set<AutoCloseable> OPEN =
      Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
  private static @Nullable Path runRoot;

  private ProcessReaper() {}

  /** Creates a fresh folder for one topology or server under this JVM's run folder. */
  public static synchronized Path newFolder(String prefix) {
    try {
      Path root = runRoot;
      if (root == null) {
        root = Files.createTempDirectory("tidemark-testkit-");
        runRoot = root;
        startWatchdog(root);
        Runtime.getRuntime()
            .addShutdownHook(new Thread(ProcessReaper::closeAll, "tidemark-testkit-shutdown"));
      }
      return Files.createTempDirectory(root, prefix + "-");
    } catch (IOException e) {
      throw new TestkitException("cannot create a run folder under " + runRoot, e);
    }
  }

  public static synchronized Path runRoot() {
    Path root = runRoot;
    if (root == null) {
      throw new IllegalStateException("no server started in this JVM");
    }
    return root;
  }

  /** Names the container of a server living in {@code folder}, for the watchdog. */
  public static void containerStarted(Path folder, String containerId) {
    try {
      Files.writeString(folder.resolve("container.cid"), containerId);
    } catch (IOException e) {
      throw new TestkitException("cannot write the container id into " + folder, e);
    }
  }

  /** The container of a server living in {@code folder} is gone. */
  public static void containerRemoved(Path folder) {
    try {
      Files.deleteIfExists(folder.resolve("container.cid"));
    } catch (IOException e) {
      throw new TestkitException("cannot remove the container id from " + folder, e);
    }
  }

  /** Closes {@code resource} at JVM shutdown unless it was {@link #forget forgotten} first. */
  public static void closeAtShutdown(AutoCloseable resource) {
    OPEN.add(resource);
  }

  /**
   * Takes {@code resource} off what is closed at JVM shutdown.
   *
   * @return whether it was on it: {@code true} once, so that a {@code close()} that begins here
   *     runs once, whether the application or the shutdown calls it first
   */
  public static boolean forget(AutoCloseable resource) {
    return OPEN.remove(resource);
  }

  private static void startWatchdog(Path root) throws IOException {
    new ProcessBuilder(
            "sh",
            "-c",
            WATCHDOG,
            "tidemark-testkit-watchdog",
            Long.toString(ProcessHandle.current().pid()),
            root.toString())
        .redirectInput(Redirect.from(new File("/dev/null")))
        .redirectOutput(Redirect.DISCARD)
        .redirectError(Redirect.DISCARD)
        .start();
  }

  private static void closeAll() {
    List<AutoCloseable> open;
    synchronized (OPEN) {
      open = new ArrayList<>(OPEN);
    }
    for (AutoCloseable resource : open) {
      try {
        resource.close();
      } catch (Exception e) {
        System.err.println("tidemark-testkit: could not close " + resource + ": " + e);
      }
    }
  }
}
