package io.tidemark.spring.messaging;

import io.tidemark.spring.autoconfigure.TidemarkStartupException;
import java.util.Locale;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.function.SingletonSupplier;

/**
 * Tokens on the messages sent through every JMS connection factory bean, and around the listener of
 * every listener container; refuses to start with a property name JMS cannot carry.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.jms.core.JmsTemplate")
@ConditionalOnBooleanProperty(name = "tidemark.messaging.jms.enabled", matchIfMissing = true)
class JmsTokensConfiguration {

  // Words of the selector grammar, which JMS forbids as property names.
  private static final Set<String> KEYWORDS =
      Set.of("NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE");

  /**
   * Checks the property name first, from the settings themselves: this post-processor is created
   * before the properties bean, and before anything could send.
   */
  @Bean
  static JmsTokensPostProcessor tidemarkJmsTokens(
      ObjectProvider<MessageTokens> tokens, Environment environment) {
    checkProperty(
        Binder.get(environment)
            .bindOrCreate("tidemark.messaging.jms", TidemarkMessagingProperties.Jms.class)
            .getProperty());
    return new JmsTokensPostProcessor(SingletonSupplier.of(tokens::getObject));
  }

  @Bean
  JmsListenerCoverage tidemarkJmsListenerCoverage(
      ConfigurableListableBeanFactory beans, ObjectProvider<MessageTokens> tokens) {
    return new JmsListenerCoverage(beans, SingletonSupplier.of(tokens::getObject));
  }

  /**
   * Refuses a name JMS would refuse on the first send, or on a selector: property names are Java
   * identifiers, not words of the selector grammar, and those beginning with {@code JMS} are the
   * specification's and the providers'.
   */
  static void checkProperty(String name) {
    boolean identifier =
        !name.isEmpty()
            && Character.isJavaIdentifierStart(name.charAt(0))
            && name.chars().allMatch(Character::isJavaIdentifierPart);
    if (!identifier || KEYWORDS.contains(name.toUpperCase(Locale.ROOT)) || name.startsWith("JMS")) {
      throw new TidemarkStartupException(
          "tidemark.messaging.jms.property is '"
              + name
              + "', which JMS cannot carry: a JMS property name is a Java identifier (letters,"
              + " digits, '_' and '$', not starting with a digit), not a selector keyword, and"
              + " does not begin with JMS.",
          "Set tidemark.messaging.jms.property to a name such as ConsistencyToken (the default),"
              + " or set tidemark.messaging.jms.enabled=false.");
    }
  }
}
