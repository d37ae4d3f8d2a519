package io.tidemark.spring.autoconfigure;

import java.util.Locale;
import java.util.Map;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;

/**
 * Has Hibernate give its connection back at the end of each transaction. Spring's default keeps a
 * session's first connection until the session closes, and with {@code spring.jpa.open-in-view} on
 * (Boot's default) the session lives as long as the request: a {@code @ReadYourWrites} read would
 * then run on whichever connection the request took first, and a write after a read on the read's
 * replica connection. Released per transaction, every read and every write takes its own connection
 * from Tidemark's {@code DataSource}. A mode set by the application that holds the connection stops
 * the start: reads could not be protected.
 */
final class HibernateConnectionRelease implements HibernatePropertiesCustomizer {

  static final String HANDLING_MODE = "hibernate.connection.handling_mode";
  static final String RELEASE_AFTER_TRANSACTION =
      "DELAYED_ACQUISITION_AND_RELEASE_AFTER_TRANSACTION";

  @Override
  public void customize(Map<String, Object> properties) {
    Object mode = properties.putIfAbsent(HANDLING_MODE, RELEASE_AFTER_TRANSACTION);
    if (mode != null && mode.toString().toUpperCase(Locale.ROOT).endsWith("_HOLD")) {
      throw new TidemarkStartupException(
          "spring.jpa.properties."
              + HANDLING_MODE
              + "="
              + mode
              + " keeps a JPA session's first connection for the whole session, so"
              + " @ReadYourWrites reads would run on a connection that never waited for their"
              + " token.",
          "Remove the setting (Tidemark sets "
              + RELEASE_AFTER_TRANSACTION
              + "), or set it to a mode that releases the connection.");
    }
  }
}
