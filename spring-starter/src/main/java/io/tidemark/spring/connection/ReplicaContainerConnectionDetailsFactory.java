package io.tidemark.spring.connection;

import io.tidemark.spring.autoconfigure.ReplicaConnectionDetails;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.testcontainers.containers.JdbcDatabaseContainer;

/** A replica from a database container marked {@link ReplicaServiceConnection}. */
final class ReplicaContainerConnectionDetailsFactory
    extends ContainerConnectionDetailsFactory<JdbcDatabaseContainer<?>, ReplicaConnectionDetails> {

  ReplicaContainerConnectionDetailsFactory() {
    super(ReplicaServiceConnection.NAME);
  }

  @Override
  protected ReplicaConnectionDetails getContainerConnectionDetails(
      ContainerConnectionSource<JdbcDatabaseContainer<?>> source) {
    return new ContainerReplica(source);
  }

  private static final class ContainerReplica
      extends ContainerConnectionDetails<JdbcDatabaseContainer<?>>
      implements ReplicaConnectionDetails {

    ContainerReplica(ContainerConnectionSource<JdbcDatabaseContainer<?>> source) {
      super(source);
    }

    @Override
    public String getJdbcUrl() {
      return getContainer().getJdbcUrl();
    }

    @Override
    public String getUsername() {
      return getContainer().getUsername();
    }

    @Override
    public String getPassword() {
      return getContainer().getPassword();
    }
  }
}
