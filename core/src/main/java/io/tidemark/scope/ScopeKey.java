package io.tidemark.scope;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The name of a token scope: a user ({@code user:alice}), a session ({@code session:3f9c}) or a
 * business object ({@code object:order:101}). Request chains need no key: their token travels in
 * the header only.
 *
 * <p>The text is at most {@value #MAX_LENGTH} characters without control characters, braces or
 * whitespace, so that it can sit inside a Redis hash tag ({@code {...}}) unchanged.
 */
public final class ScopeKey {

  /** Longest key text, in characters. */
  public static final int MAX_LENGTH = 256;

  private final String text;

  private ScopeKey(String text) {
    this.text = text;
  }

  /** The scope of everything one user wrote, on any device. */
  public static ScopeKey user(String userId) {
    return of("user:" + part("userId", userId));
  }

  /** The scope of one session, e.g. one browser with its session cookie. */
  public static ScopeKey session(String sessionId) {
    return of("session:" + part("sessionId", sessionId));
  }

  /** The scope of one business object, e.g. {@code object("order", "101")}. */
  public static ScopeKey object(String type, String id) {
    return of("object:" + part("type", type) + ":" + part("id", id));
  }

  /**
   * A key from its text, as {@link #toString()} prints it.
   *
   * @throws IllegalArgumentException when the text is empty, too long or holds a brace, a control
   *     character or whitespace
   */
  public static ScopeKey of(String text) {
    Objects.requireNonNull(text, "text");
    if (text.isEmpty() || text.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "scope key must have 1 to " + MAX_LENGTH + " characters: " + text.length());
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{' || c == '}' || c <= ' ' || c == 0x7f) {
        throw new IllegalArgumentException(
            "scope key must not hold braces, whitespace or control characters: " + text);
      }
    }
    return new ScopeKey(text);
  }

  private static String part(String name, String value) {
    if (Objects.requireNonNull(value, name).isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
    return value;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ScopeKey other && text.equals(other.text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /** The key text, e.g. {@code object:order:101}. */
  @Override
  public String toString() {
    return text;
  }
}
