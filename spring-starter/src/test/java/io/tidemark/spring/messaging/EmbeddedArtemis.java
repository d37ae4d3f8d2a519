package io.tidemark.spring.messaging;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.spring.autoconfigure.TestConfigurations;
import io.tidemark.spring.autoconfigure.TestTokens;
import org.springframework.boot.artemis.autoconfigure.ArtemisAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Contexts with Boot's JMS on an embedded Artemis server of their own, and tokens to send. */
final class EmbeddedArtemis {

  static final String GTIDS = TestTokens.A + ":1-7";

  private EmbeddedArtemis() {}

  static ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                ArtemisAutoConfiguration.class,
                JmsAutoConfiguration.class,
                TidemarkMessagingAutoConfiguration.class))
        .withUserConfiguration(TestConfigurations.Codec.class)
        .withPropertyValues(
            "spring.artemis.mode=embedded",
            "tidemark.token.secret=" + TestTokens.SECRET,
            "spring.jms.template.receive-timeout=5s");
  }

  /** A context holding {@link #GTIDS}, bound on this thread until closed. */
  static ConsistencyContext.Binding afterWrites() {
    return ConsistencyContext.open(GtidSet.parse(GTIDS));
  }
}
