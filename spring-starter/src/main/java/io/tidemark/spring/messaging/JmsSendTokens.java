package io.tidemark.spring.messaging;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;

/**
 * Stands in front of what a connection factory hands out (connections, sessions, JMS contexts) so
 * that each message producer it leads to puts the sending thread's token on every message, in place
 * of any the message had: one hook under every way Spring sends (the templates, {@code JmsClient},
 * listener replies), since the message passes through a producer whichever API made it. The
 * stand-ins are JDK proxies with all the target's public interfaces, so Spring's own session
 * proxies keep what they offer; they are equal only to themselves, as a new one is made for each
 * object handed out.
 */
final class JmsSendTokens implements InvocationHandler {

  private static final ClassValue<Class<?>[]> INTERFACES =
      new ClassValue<>() {
        @Override
        protected Class<?>[] computeValue(Class<?> type) {
          return ClassUtils.getAllInterfacesForClassAsSet(type, type.getClassLoader()).stream()
              .filter(face -> Modifier.isPublic(face.getModifiers()))
              .toArray(Class<?>[]::new);
        }
      };

  private final Object target;
  private final Supplier<MessageTokens> tokens;
  // The context a JMSProducer came from, to build the message of a send given only a body.
  private final @Nullable JMSContext context;

  private JmsSendTokens(Object target, Supplier<MessageTokens> tokens, @Nullable JMSContext ctx) {
    this.target = target;
    this.tokens = tokens;
    this.context = ctx;
  }

  /** {@code resource} behind a stand-in when it can lead to a send, else itself. */
  static @Nullable Object wrap(@Nullable Object resource, Supplier<MessageTokens> tokens) {
    return wrap(resource, tokens, null);
  }

  private static @Nullable Object wrap(
      @Nullable Object resource, Supplier<MessageTokens> tokens, @Nullable JMSContext context) {
    if (resource == null
        || Proxy.isProxyClass(resource.getClass())
            && Proxy.getInvocationHandler(resource) instanceof JmsSendTokens) {
      return resource;
    }
    if (resource instanceof Connection
        || resource instanceof Session
        || resource instanceof JMSContext
        || resource instanceof MessageProducer
        || resource instanceof JMSProducer) {
      Class<?> type = resource.getClass();
      return Proxy.newProxyInstance(
          type.getClassLoader(),
          INTERFACES.get(type),
          new JmsSendTokens(resource, tokens, context));
    }
    return resource;
  }

  @Override
  public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args)
      throws Throwable {
    switch (method.getName()) {
      case "equals":
        if (args != null && args.length == 1 && method.getParameterTypes()[0] == Object.class) {
          return proxy == args[0];
        }
        break;
      case "hashCode":
        if (method.getParameterCount() == 0) {
          return System.identityHashCode(proxy);
        }
        break;
      case "send":
      case "publish":
        if (target instanceof MessageProducer && args != null) {
          tokenOn(args);
        } else if (target instanceof JMSProducer && args != null && args.length == 2) {
          return sendFromContext(proxy, method, args);
        }
        break;
      default:
        break;
    }
    Object result = call(method, args);
    if (result == target) {
      // The fluent JMSProducer API: further calls must reach the stand-in, not the producer.
      return proxy;
    }
    return wrap(result, tokens, target instanceof JMSContext own ? own : context);
  }

  private void tokenOn(Object[] args) throws JMSException {
    MessageTokens messages = tokens.get();
    String value = messages.outgoing();
    if (value == null) {
      return;
    }
    for (Object arg : args) {
      if (arg instanceof Message message) {
        put(message, messages.jmsProperty(), value);
      }
    }
  }

  /**
   * A {@link JMSProducer} send: the producer's own properties would outlive this send, so a send of
   * a bare body becomes the send of the message JMS would have built from it, which carries the
   * token; a null context (a producer not from a stand-in context) leaves the body alone.
   */
  private Object sendFromContext(Object proxy, Method method, Object[] args) throws Throwable {
    MessageTokens messages = tokens.get();
    String value = messages.outgoing();
    if (value == null) {
      call(method, args);
      return proxy;
    }
    Object body = args[1];
    Message message;
    try {
      message = body instanceof Message given ? given : asMessage(method, body);
      if (message == null) {
        call(method, args);
        return proxy;
      }
      put(message, messages.jmsProperty(), value);
    } catch (MessageFormatException e) {
      throw new MessageFormatRuntimeException(e.getMessage(), e.getErrorCode(), e);
    } catch (JMSException e) {
      throw new JMSRuntimeException(e.getMessage(), e.getErrorCode(), e);
    }
    ((JMSProducer) target).send((Destination) args[0], message);
    return proxy;
  }

  @SuppressWarnings("unchecked")
  private @Nullable Message asMessage(Method method, @Nullable Object body) throws JMSException {
    if (context == null) {
      return null;
    }
    Class<?> type = method.getParameterTypes()[1];
    if (type == String.class) {
      return context.createTextMessage((String) body);
    } else if (type == Map.class) {
      MapMessage message = context.createMapMessage();
      if (body != null) {
        for (Map.Entry<String, Object> entry : ((Map<String, Object>) body).entrySet()) {
          message.setObject(entry.getKey(), entry.getValue());
        }
      }
      return message;
    } else if (type == byte[].class) {
      BytesMessage message = context.createBytesMessage();
      if (body != null) {
        message.writeBytes((byte[]) body);
      }
      return message;
    } else if (type == Serializable.class) {
      return context.createObjectMessage((Serializable) body);
    }
    return null;
  }

  private @Nullable Object call(Method method, @Nullable Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getTargetException();
    }
  }

  /**
   * Sets the token property of {@code message}. A received message being sent on has read-only
   * properties, which JMS lets only {@code clearProperties} make writable: its properties are kept
   * and set again, except the provider's own {@code JMSX} ones that it refuses from a client.
   */
  static void put(Message message, String property, String value) throws JMSException {
    try {
      message.setStringProperty(property, value);
      return;
    } catch (MessageNotWriteableException readOnly) {
      // Below: the copy JMS allows.
    }
    Map<String, Object> kept = new LinkedHashMap<>();
    for (Enumeration<?> names = message.getPropertyNames(); names.hasMoreElements(); ) {
      String name = (String) names.nextElement();
      Object old = message.getObjectProperty(name);
      if (old != null && !name.equals(property)) {
        kept.put(name, old);
      }
    }
    message.clearProperties();
    for (Map.Entry<String, Object> entry : kept.entrySet()) {
      try {
        message.setObjectProperty(entry.getKey(), entry.getValue());
      } catch (JMSException | RuntimeException refused) {
        if (!entry.getKey().startsWith("JMSX")) {
          throw refused;
        }
      }
    }
    message.setStringProperty(property, value);
  }
}
