package io.tidemark.spring.routing;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionException;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/** SpEL expressions over a method's arguments ({@code #id}, {@code #p0}), parsed once each. */
final class MethodExpressions {

  private final SpelExpressionParser parser = new SpelExpressionParser();
  private final ParameterNameDiscoverer names = new DefaultParameterNameDiscoverer();
  private final Map<String, Expression> parsed = new ConcurrentHashMap<>();
  private final @Nullable BeanFactory beans;

  MethodExpressions(@Nullable BeanFactory beans) {
    this.beans = beans;
  }

  /**
   * The value of {@code expression} for this call, as {@code type}.
   *
   * @throws IllegalArgumentException when the expression does not parse, fails, or gives null
   */
  <T> T evaluate(String expression, Method method, Object[] arguments, Class<T> type, String what) {
    try {
      Expression parsedExpression = parsed.computeIfAbsent(expression, parser::parseExpression);
      MethodBasedEvaluationContext context =
          new MethodBasedEvaluationContext(method, method, arguments, names);
      if (beans != null) {
        context.setBeanResolver(new BeanFactoryResolver(beans));
      }
      T value = parsedExpression.getValue(context, type);
      if (value == null) {
        throw new IllegalArgumentException(
            what + " '" + expression + "' of " + method.toGenericString() + " gave null");
      }
      return value;
    } catch (ExpressionException e) {
      throw new IllegalArgumentException(
          what
              + " '"
              + expression
              + "' of "
              + method.toGenericString()
              + " could not be evaluated: "
              + e.getMessage(),
          e);
    }
  }
}
