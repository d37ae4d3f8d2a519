package io.tidemark.cache;

/** Turns cached values into the text Redis stores and back. */
public interface ValueCodec<V> {

  /** The stored text of {@code value}. */
  String encode(V value);

  /** The value {@link #encode} made {@code text} from. */
  V decode(String text);

  /** The codec for values that are text already. */
  static ValueCodec<String> text() {
    return new ValueCodec<>() {
      @Override
      public String encode(String value) {
        return value;
      }

      @Override
      public String decode(String text) {
        return text;
      }
    };
  }
}
