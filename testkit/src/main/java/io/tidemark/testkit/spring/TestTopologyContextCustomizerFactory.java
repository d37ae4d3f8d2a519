package io.tidemark.testkit.spring;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/** Finds {@link TestTopology} on a test class, nested ones included. */
final class TestTopologyContextCustomizerFactory implements ContextCustomizerFactory {

  @Override
  public @Nullable ContextCustomizer createContextCustomizer(
      Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
    TestTopology topology =
        TestContextAnnotationUtils.findMergedAnnotation(testClass, TestTopology.class);
    return topology == null
        ? null
        : new TestTopologyContextCustomizer(topology.database(), topology.server());
  }
}
