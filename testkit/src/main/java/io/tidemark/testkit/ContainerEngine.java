package io.tidemark.testkit;

import org.testcontainers.DockerClientFactory;

/** The container engine, in a class of its own so that Testcontainers is loaded only when asked. */
final class ContainerEngine {

  private ContainerEngine() {}

  /** Whether Testcontainers is on the class path and finds a Docker API that answers. */
  static boolean answers() {
    try {
      Class.forName("org.testcontainers.DockerClientFactory");
    } catch (ClassNotFoundException e) {
      return false;
    }
    return DockerClientFactory.instance().isDockerAvailable();
  }
}
