package io.tidemark.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * Folder of things that are expensive to make and safe to reuse between runs: extracted server
 * binaries and initialized data directory templates. Entries are built in a scratch folder and
 * renamed into place, so concurrent JVMs never see half-built entries.
 */
public final class CacheDirectory {

  private final Path root;

  private CacheDirectory(Path root) {
    this.root = root;
  }

  /** {@code TIDEMARK_CACHE} when set, else {@code ~/.cache/tidemark}. */
  public static CacheDirectory fromEnvironment(Map<String, String> env) {
    String configured = env.get("TIDEMARK_CACHE");
    Path root =
        configured != null && !configured.isBlank()
            ? Path.of(configured)
            : Path.of(System.getProperty("user.home"), ".cache", "tidemark");
    return new CacheDirectory(root);
  }

  public interface Builder {
    void build(Path scratch) throws IOException, InterruptedException;
  }

  /** Returns the entry {@code name}, building it first when it does not exist yet. */
  public Path entry(String name, Builder builder) {
    Path target = root.resolve(name);
    if (Files.isDirectory(target)) {
      return target;
    }
    Path scratch = null;
    try {
      Files.createDirectories(root);
      scratch = Files.createTempDirectory(root, ".build-" + name + "-");
      builder.build(scratch);
      try {
        Files.move(scratch, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException raced) {
        // Another JVM finished the same entry first; theirs is as good as ours.
        if (!Files.isDirectory(target)) {
          throw raced;
        }
      } catch (IOException e) {
        if (!Files.isDirectory(target)) {
          throw e;
        }
      }
      return target;
    } catch (IOException e) {
      throw new TestkitException("cannot build cache entry " + target, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TestkitException("interrupted while building cache entry " + target, e);
    } finally {
      if (scratch != null && Files.exists(scratch)) {
        FileTrees.deleteRecursively(scratch);
      }
    }
  }

  /** Copies a class-path resource to {@code target}. */
  public static void copyResource(String resource, Path target) throws IOException {
    try (InputStream in = CacheDirectory.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("class-path resource " + resource + " not found");
      }
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
