package io.tidemark.spring.routing;

import io.tidemark.scope.ScopeKey;
import io.tidemark.scope.ScopeStore;
import java.lang.reflect.Method;
import org.springframework.beans.factory.ObjectProvider;

/** The scope store and the scopes the annotations name, for reads and scoped writes alike. */
final class Scopes {

  private final ObjectProvider<ScopeStore> store;
  private final MethodExpressions expressions;

  Scopes(ObjectProvider<ScopeStore> store, MethodExpressions expressions) {
    this.store = store;
    this.expressions = expressions;
  }

  /** The scope {@code expression} names for this call; {@code what} says which annotation. */
  ScopeKey key(String expression, Method method, Object[] arguments, String what) {
    String text = expressions.evaluate(expression, method, arguments, String.class, what);
    try {
      return ScopeKey.of(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          what + " of " + method.toGenericString() + " gave an invalid scope: " + e.getMessage(),
          e);
    }
  }

  /**
   * The scope store.
   *
   * @throws IllegalStateException when none is configured
   */
  ScopeStore store(String what) {
    ScopeStore scopes = store.getIfAvailable();
    if (scopes == null) {
      throw new IllegalStateException(
          what + " needs a scope store: set tidemark.scope.store to REDIS or CAFFEINE");
    }
    return scopes;
  }
}
