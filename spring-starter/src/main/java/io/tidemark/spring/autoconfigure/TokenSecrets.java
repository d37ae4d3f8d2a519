package io.tidemark.spring.autoconfigure;

import io.tidemark.token.KeyRing;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * Refuses a configured token secret that anyone could read, since it signs every token: a
 * placeholder that did not resolve (Boot's binder leaves its text in place when the variable is
 * unset), a value the documentation shows, or one too short for HMAC-SHA256.
 */
final class TokenSecrets {

  /** Values the documentation has shown as secrets: copied, they are public keys. */
  private static final Set<String> SAMPLES =
      Set.of(
          "a-test-secret-of-at-least-32-characters", "demo-secret-that-is-at-least-32-characters");

  private static final String GENERATE =
      " a random string of at least "
          + KeyRing.MIN_SECRET_LENGTH
          + " characters, the same on every instance (for example from openssl rand -base64 32)";

  private TokenSecrets() {}

  /**
   * @throws TidemarkStartupException naming {@code property} when {@code secret} is not one to sign
   *     with
   */
  static void check(String property, String secret) {
    int open = secret.indexOf("${");
    if (open >= 0) {
      String variable = variable(secret, open);
      throw new TidemarkStartupException(
          property
              + " is "
              + secret
              + ", a placeholder that did not resolve: "
              + variable
              + " is set neither in the environment nor as a property, and the placeholder's own"
              + " text would sign every token.",
          "Set the environment variable " + environmentName(variable) + " to" + GENERATE + ".");
    }
    if (SAMPLES.contains(secret)) {
      throw new TidemarkStartupException(
          property
              + " is a sample value from Tidemark's documentation: tokens signed with it could be"
              + " forged by anyone who read it.",
          "Set " + property + " to" + GENERATE + ", e.g. from an environment variable.");
    }
    int bytes = secret.getBytes(StandardCharsets.UTF_8).length;
    if (bytes < KeyRing.MIN_SECRET_LENGTH) {
      throw new TidemarkStartupException(
          property
              + " has "
              + bytes
              + " bytes; HMAC-SHA256 needs at least "
              + KeyRing.MIN_SECRET_LENGTH
              + " random ones.",
          "Set " + property + " to" + GENERATE + ".");
    }
  }

  /** The name inside {@code ${name}} or {@code ${name:default}}. */
  private static String variable(String secret, int open) {
    int end = secret.length();
    for (int i = open + 2; i < secret.length(); i++) {
      char c = secret.charAt(i);
      if (c == '}' || c == ':') {
        end = i;
        break;
      }
    }
    return secret.substring(open + 2, end);
  }

  /**
   * The environment variable Spring reads for a placeholder's name, as its relaxed rules map it.
   */
  private static String environmentName(String name) {
    return name.replace('.', '_').replace('-', '_').toUpperCase(Locale.ROOT);
  }
}
