package io.tidemark.token;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.SplittableRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class TokenTextTests {

  private static final String ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  private final SplittableRandom random = new SplittableRandom(7);

  /** A signed part and the JDK's HMAC-SHA256 of it under a random secret. */
  private byte[] jdkMac(String signed) throws GeneralSecurityException {
    byte[] secret = new byte[32];
    random.nextBytes(secret);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret, "HmacSHA256"));
    return mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII));
  }

  private static String jdkBase64(byte[] bytes) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  @Test
  void acceptsExactlyTheBase64OfTheJdkMac() throws GeneralSecurityException {
    byte[] scratch = new byte[43];
    for (int i = 0; i < 1_000; i++) {
      String signed = "v1.k1." + randomDigits(1 + random.nextInt(200));
      byte[] mac = jdkMac(signed);
      String token = signed + '.' + jdkBase64(mac);

      assertThat(TokenText.isBase64Of(mac, scratch, token, signed.length() + 1)).isTrue();
    }
  }

  @Test
  void rejectsEverySingleCharacterChangeOfTheSignature() throws GeneralSecurityException {
    byte[] scratch = new byte[43];
    int rejected = 0;
    for (int round = 0; round < 20; round++) {
      String signed = "v1.k1." + randomDigits(120);
      byte[] mac = jdkMac(signed);
      String signature = jdkBase64(mac);
      int from = signed.length() + 1;
      for (int i = 0; i < signature.length(); i++) {
        char original = signature.charAt(i);
        // Every other token character, including the spellings of the last digit that encode
        // the same bytes and differ only in the unused low bits, and wider characters whose
        // low byte is the original.
        String others = ALPHABET + ".=+/" + (char) (0x100 | original) + (char) (0xff00 | original);
        for (char c : others.toCharArray()) {
          if (c == original) {
            continue;
          }
          String tampered =
              signed + '.' + signature.substring(0, i) + c + signature.substring(i + 1);
          assertThat(TokenText.isBase64Of(mac, scratch, tampered, from))
              .as("signature %s with %s at %d", signature, c, i)
              .isFalse();
          rejected++;
        }
      }
      assertThat(TokenText.isBase64Of(mac, scratch, signed + '.' + signature + 'A', from))
          .isFalse();
      assertThat(
              TokenText.isBase64Of(mac, scratch, signed + '.' + signature.substring(0, 42), from))
          .isFalse();
    }
    assertThat(rejected).isEqualTo(20 * 43 * 69);
  }

  @Test
  void decodesAsTheJdkUrlDecoderDoesTextWithoutPadding() {
    String characters = ALPHABET + ".+/ ";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder text = new StringBuilder("v1.k1.");
      int length = random.nextInt(40);
      boolean onlyDigits = random.nextInt(4) > 0;
      for (int c = 0; c < length; c++) {
        String from = onlyDigits ? ALPHABET : characters;
        text.append(from.charAt(random.nextInt(from.length())));
      }
      byte[] out = new byte[30];

      int decoded = TokenText.decode(text.toString(), 6, text.length(), out);

      byte[] expected = jdkDecode(text.substring(6));
      if (expected == null) {
        assertThat(decoded).as(text.toString()).isEqualTo(-1);
      } else {
        assertThat(Arrays.copyOf(out, Math.max(decoded, 0)))
            .as(text.toString())
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void refusesToDecodeCharactersBeyondAsciiWhoseLowByteIsADigit() {
    byte[] out = new byte[30];

    assertThat(TokenText.decode("QUJD", 0, 4, out)).isEqualTo(3);
    assertThat(TokenText.decode("QUJ\u0144", 0, 4, out)).isEqualTo(-1);
    assertThat(TokenText.decode("QU\u014a", 0, 3, out)).isEqualTo(-1);
  }

  @Test
  void copiesTheLowBytesOfTheCharacters() {
    byte[] bytes = new byte[8];

    TokenText.copyLowBytes("v1.k1.AB", 7, bytes);

    assertThat(bytes).containsExactly('v', '1', '.', 'k', '1', '.', 'A', 0);
  }

  @Test
  void knowsTokenTextFromAnyOtherCharacter() {
    assertThat(TokenText.isTokenText("")).isFalse();
    for (char c = 0; c < 0x400; c++) {
      boolean tokenText = ALPHABET.indexOf(c) >= 0 || c == '.';
      assertThat(TokenText.isTokenText("v1.k" + c + "1.x")).as("%s", (int) c).isEqualTo(tokenText);
    }
  }

  private String randomDigits(int length) {
    StringBuilder out = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      out.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return out.toString();
  }

  private static byte @Nullable [] jdkDecode(String text) {
    try {
      return Base64.getUrlDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
