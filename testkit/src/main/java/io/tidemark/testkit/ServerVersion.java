package io.tidemark.testkit;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A MySQL server version such as {@code 8.0.15}, read from {@code mysqld --version}.
 *
 * @param major major version
 * @param minor minor version
 * @param patch patch version
 */
public record ServerVersion(int major, int minor, int patch) implements Comparable<ServerVersion> {

  private static final Pattern VERSION = Pattern.compile("\\b(\\d+)\\.(\\d+)\\.(\\d+)");

  /**
   * Reads the first {@code x.y.z} in a version banner such as {@code mysqld Ver 8.0.15 for
   * linux-glibc2.12 on x86_64}.
   *
   * @throws IllegalArgumentException when the text holds no version
   */
  public static ServerVersion parse(String banner) {
    Matcher m = VERSION.matcher(banner);
    if (!m.find()) {
      throw new IllegalArgumentException("no x.y.z version in: " + banner);
    }
    return new ServerVersion(
        Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
  }

  /** Whether this version is the given one or newer. */
  public boolean atLeast(int major, int minor, int patch) {
    return compareTo(new ServerVersion(major, minor, patch)) >= 0;
  }

  @Override
  public int compareTo(ServerVersion other) {
    int c = Integer.compare(major, other.major);
    if (c == 0) {
      c = Integer.compare(minor, other.minor);
    }
    return c != 0 ? c : Integer.compare(patch, other.patch);
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
