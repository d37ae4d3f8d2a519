package io.tidemark.spring.messaging;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How tokens travel on messages, Kafka records, RabbitMQ messages and JMS messages: the settings
 * under {@code tidemark.messaging.*}.
 */
@ConfigurationProperties("tidemark.messaging")
public class TidemarkMessagingProperties {

  /** Name of the Kafka record header and RabbitMQ message header that carries the tokens. */
  private String header = "Consistency-Token";

  private final Technology kafka = new Technology();

  private final Technology rabbit = new Technology();

  private final Jms jms = new Jms();

  public String getHeader() {
    return header;
  }

  public void setHeader(String header) {
    this.header = header;
  }

  public Technology getKafka() {
    return kafka;
  }

  public Technology getRabbit() {
    return rabbit;
  }

  public Jms getJms() {
    return jms;
  }

  /** Whether one messaging technology's sends and listeners carry the tokens. */
  public static class Technology {

    /**
     * Whether sends carry the tokens of the sending thread and listeners run in the context of the
     * message's token.
     */
    private boolean enabled = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** How tokens travel on JMS messages. */
  public static class Jms extends Technology {

    /**
     * Name of the JMS message property that carries the tokens; a Java identifier, as JMS requires
     * of property names.
     */
    private String property = "ConsistencyToken";

    public String getProperty() {
      return property;
    }

    public void setProperty(String property) {
      this.property = property;
    }
  }
}
