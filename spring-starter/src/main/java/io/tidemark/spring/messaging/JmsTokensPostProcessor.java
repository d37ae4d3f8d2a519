package io.tidemark.spring.messaging;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Advisor;
import org.springframework.aop.ClassFilter;
import org.springframework.aop.framework.AbstractAdvisingBeanPostProcessor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.jms.config.JmsListenerContainerFactory;
import org.springframework.jms.listener.AbstractMessageListenerContainer;

/**
 * Adds the token to JMS through the beans every send and every listener container start from.
 *
 * <p>Each {@link ConnectionFactory} bean gets a proxy whose connections, sessions and JMS contexts
 * are {@link JmsSendTokens} stand-ins: all of Spring's ways to send ({@code JmsTemplate}, {@code
 * JmsMessagingTemplate}, {@code JmsClient}, the replies of {@code @JmsListener} methods) and the
 * plain JMS API end in a {@code MessageProducer} or {@code JMSProducer} from there, while a
 * template's message converter or post-processor would see only some of them. The proxy is of the
 * bean's class, so a {@code CachingConnectionFactory} can still be injected as one, and it is the
 * bean itself that {@code JmsTransactionManager} and the templates share, so the transaction's
 * resources stay bound to the same key. A factory class that cannot be subclassed (final, or with a
 * final {@code create} method) is proxied by its interfaces instead, which is logged. The factory a
 * caching one wraps is covered the same way when it is asked for, since Boot's listener container
 * factory takes that one.
 *
 * <p>The containers of {@code @JmsListener} methods are no beans: the endpoint registry asks a
 * {@link JmsListenerContainerFactory} bean for each, at start or later (for a lazy bean's methods,
 * started at once). Each such factory bean gets a proxy that covers the container it returns,
 * before the registry initializes and starts it. Container beans are covered before their
 * initialization; {@link JmsListenerCoverage} covers, before they start, the containers neither
 * reached.
 */
@SuppressWarnings("serial")
final class JmsTokensPostProcessor extends AbstractAdvisingBeanPostProcessor {

  private static final Log log = LogFactory.getLog(JmsTokensPostProcessor.class);

  private static final Sends SENDS = new Sends();

  private final transient Supplier<MessageTokens> tokens;

  JmsTokensPostProcessor(Supplier<MessageTokens> tokens) {
    this.tokens = tokens;
    this.advisor = new DefaultPointcutAdvisor(SENDS, new Advice(tokens));
    // Outermost, so that what the application's own advice returns is covered too.
    this.beforeExistingAdvisors = true;
    setProxyTargetClass(true);
  }

  @Override
  public Object postProcessBeforeInitialization(Object bean, String beanName) {
    if (bean instanceof AbstractMessageListenerContainer) {
      JmsListenerTokens.cover(bean, tokens);
    }
    return bean;
  }

  @Override
  public Class<?> determineBeanType(Class<?> beanClass, String beanName) {
    // The type check first: this runs for every bean class of the context.
    return isEligible(beanClass) && !subclassable(beanClass)
        ? beanClass
        : super.determineBeanType(beanClass, beanName);
  }

  @Override
  protected ProxyFactory prepareProxyFactory(Object bean, String beanName) {
    ProxyFactory proxy = super.prepareProxyFactory(bean, beanName);
    if (!subclassable(bean.getClass())) {
      log.warn(
          "JMS bean '"
              + beanName
              + "' of "
              + bean.getClass().getName()
              + " is proxied by its interfaces, as its class cannot be subclassed, so that its"
              + " messages carry the consistency token: inject it by an interface, such as"
              + " ConnectionFactory.");
      proxy.setProxyTargetClass(false);
    }
    return proxy;
  }

  private static boolean subclassable(Class<?> type) {
    return !Modifier.isFinal(type.getModifiers())
        && Arrays.stream(type.getMethods())
            .noneMatch(
                method -> SENDS.matches(method, type) && Modifier.isFinal(method.getModifiers()));
  }

  /** The methods that hand out what leads to a send, and a listener container factory's. */
  private static final class Sends extends StaticMethodMatcherPointcut {

    Sends() {
      setClassFilter(
          (ClassFilter)
              type ->
                  ConnectionFactory.class.isAssignableFrom(type)
                      || JmsListenerContainerFactory.class.isAssignableFrom(type));
    }

    @Override
    public boolean matches(Method method, Class<?> targetClass) {
      if (JmsListenerContainerFactory.class.isAssignableFrom(targetClass)
          && method.getName().equals("createListenerContainer")
          && method.getParameterCount() == 1) {
        return true;
      }
      if (!ConnectionFactory.class.isAssignableFrom(targetClass)) {
        return false;
      }
      Class<?> returned = method.getReturnType();
      return method.getName().startsWith("create")
              && (Connection.class.isAssignableFrom(returned)
                  || JMSContext.class.isAssignableFrom(returned))
          || method.getName().equals("getTargetConnectionFactory")
              && method.getParameterCount() == 0
              && ConnectionFactory.class.isAssignableFrom(returned);
    }
  }

  private static final class Advice implements MethodInterceptor {

    private final Supplier<MessageTokens> tokens;
    private final Advisor advisor = new DefaultPointcutAdvisor(SENDS, this);
    private final Map<Object, Object> coveredTargets = new IdentityHashMap<>();

    Advice(Supplier<MessageTokens> tokens) {
      this.tokens = tokens;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
      Object result = invocation.proceed();
      String name = invocation.getMethod().getName();
      if (name.equals("createListenerContainer")) {
        if (!JmsListenerTokens.cover(result, tokens)) {
          JmsListenerCoverage.uncovered(result, "from a JmsListenerContainerFactory bean");
        }
        return result;
      }
      if (name.equals("getTargetConnectionFactory")) {
        return result == null ? null : covered(result);
      }
      return JmsSendTokens.wrap(result, tokens);
    }

    /**
     * The factory behind a caching one, covered as well: Boot hands it to the listener containers
     * it configures, as they cache on their own, and their sessions send the replies. One proxy per
     * target, so that each container and its transactions see the same factory.
     */
    private Object covered(Object target) {
      if (target instanceof Advised advised && advised.indexOf(this) >= 0) {
        return target;
      }
      synchronized (coveredTargets) {
        return coveredTargets.computeIfAbsent(
            target,
            factory -> {
              ProxyFactory proxy = new ProxyFactory(factory);
              proxy.setProxyTargetClass(subclassable(factory.getClass()));
              proxy.addAdvisor(advisor);
              return proxy.getProxy(factory.getClass().getClassLoader());
            });
      }
    }
  }
}
