package io.tidemark.token;

import java.security.GeneralSecurityException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * The HMAC-SHA256 secrets tokens are signed and verified with, by key id: new tokens are signed
 * with the active key, and tokens signed with any key of the ring verify, so that a key can be
 * rotated in by adding it first and activating it once every instance knows it.
 *
 * <pre>{@code
 * KeyRing ring = KeyRing.builder().key("2025a", oldSecret).key("2025b", newSecret).active("2025b").build();
 * }</pre>
 *
 * <p>{@link #toString()} names the key ids, never the secrets.
 */
public final class KeyRing {

  /** Shortest secret accepted, in bytes: the output length of SHA-256. */
  public static final int MIN_SECRET_LENGTH = 32;

  /** Longest key id: it travels in every token. */
  public static final int MAX_KEY_ID_LENGTH = 32;

  private static final String ALGORITHM = "HmacSHA256";

  /** The bytes of an HMAC-SHA256. */
  static final int MAC_LENGTH = 32;

  private final Key[] keys;
  private final Set<String> keyIds;
  private final Key active;

  private KeyRing(Key[] keys, Key active) {
    this.keys = keys;
    Set<String> ids = new LinkedHashSet<>();
    for (Key key : keys) {
      ids.add(key.id);
    }
    this.keyIds = Collections.unmodifiableSet(ids);
    this.active = active;
  }

  /** Starts a key ring; add at least one key and name the active one. */
  public static Builder builder() {
    return new Builder();
  }

  /** The id of the key new tokens are signed with. */
  public String activeKeyId() {
    return active.id;
  }

  /** Every key id a token may be signed with, in the order added. */
  public Set<String> keyIds() {
    return keyIds;
  }

  Key activeKey() {
    return active;
  }

  /**
   * The key whose id is {@code text} from {@code from} to {@code to}, or null when the ring has no
   * such key; compared in place, as a ring holds a few keys.
   */
  @Nullable Key key(String text, int from, int to) {
    int length = to - from;
    for (Key key : keys) {
      if (key.id.length() == length && text.regionMatches(from, key.id, 0, length)) {
        return key;
      }
    }
    return null;
  }

  /** A secret with its id, signing with initialized MACs that are reused, not made per call. */
  static final class Key {
    private final String id;
    private final SlotPool<Mac> macs;

    private Key(String id, Mac prototype) {
      this.id = id;
      this.macs = new SlotPool<>(() -> copy(prototype));
    }

    String id() {
      return id;
    }

    /** Writes the MAC of {@code input[0, length)} to {@code mac[0, MAC_LENGTH)}. */
    void sign(byte[] input, int length, byte[] mac) {
      Mac engine = macs.take();
      engine.update(input, 0, length);
      try {
        engine.doFinal(mac, 0);
      } catch (ShortBufferException e) {
        throw new IllegalArgumentException("a MAC needs " + MAC_LENGTH + " bytes", e);
      }
      // Only a MAC that finished, and so was reset, goes back.
      macs.giveBack(engine);
    }
  }

  /** Cloning an initialized MAC is much cheaper than looking up the algorithm and initializing. */
  private static Mac copy(Mac prototype) {
    try {
      return (Mac) prototype.clone();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException(
          "the " + ALGORITHM + " provider " + prototype.getProvider() + " cannot clone a MAC", e);
    }
  }

  static boolean isKeyId(CharSequence id) {
    if (id.isEmpty() || id.length() > MAX_KEY_ID_LENGTH) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (!((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '_'
          || c == '-')) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return "KeyRing{active=" + active.id + ", keys=" + keyIds + "}";
  }

  /** Collects keys and the active key id; {@link #build()} checks them. */
  public static final class Builder {
    private final Map<String, Mac> prototypes = new LinkedHashMap<>();
    private @Nullable String active;

    private Builder() {}

    /**
     * Adds a key; the secret is copied.
     *
     * @param id 1 to {@value #MAX_KEY_ID_LENGTH} letters, digits, {@code _} or {@code -}
     * @param secret at least {@value #MIN_SECRET_LENGTH} random bytes
     * @throws IllegalArgumentException when the id is not valid or already added, or the secret is
     *     shorter than {@value #MIN_SECRET_LENGTH} bytes
     */
    public Builder key(String id, byte[] secret) {
      if (!isKeyId(id)) {
        throw new IllegalArgumentException(
            "key id must be 1 to "
                + MAX_KEY_ID_LENGTH
                + " letters, digits, '_' or '-': '"
                + id
                + "'");
      }
      if (secret.length < MIN_SECRET_LENGTH) {
        throw new IllegalArgumentException(
            "secret of key "
                + id
                + " has "
                + secret.length
                + " bytes; HMAC-SHA256 needs at least "
                + MIN_SECRET_LENGTH
                + " random bytes");
      }
      if (prototypes.containsKey(id)) {
        throw new IllegalArgumentException("key id " + id + " added twice");
      }
      try {
        Mac mac = Mac.getInstance(ALGORITHM);
        mac.init(new SecretKeySpec(secret, ALGORITHM));
        // Fails here, at configuration, on a provider that cannot clone.
        copy(mac);
        prototypes.put(id, mac);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
      }
      return this;
    }

    /** Names the key new tokens are signed with. */
    public Builder active(String id) {
      this.active = id;
      return this;
    }

    /**
     * Builds the ring.
     *
     * @throws IllegalArgumentException when no key is active or the active key was not added
     */
    public KeyRing build() {
      if (active == null || !prototypes.containsKey(active)) {
        throw new IllegalArgumentException(
            "active key " + active + " is not among the keys " + prototypes.keySet());
      }
      Key[] keys = new Key[prototypes.size()];
      int activeIndex = 0;
      int i = 0;
      for (Map.Entry<String, Mac> entry : prototypes.entrySet()) {
        if (entry.getKey().equals(active)) {
          activeIndex = i;
        }
        keys[i++] = new Key(entry.getKey(), entry.getValue());
      }
      return new KeyRing(keys, keys[activeIndex]);
    }
  }
}
