package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.StandIns;
import io.tidemark.internal.JdbcProxies;
import java.sql.Connection;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

class BoundedAcquireTests {

  @Test
  void aStuckPoolIsAskedNoMoreOnceEnoughRequestsAreLeftWaitingForIt() throws Exception {
    CountDownLatch answer = new CountDownLatch(1);
    AtomicInteger asked = new AtomicInteger();
    FakeConnection connection = new FakeConnection(statement -> null);
    // Each late connection is closed right after its helper stops counting as left behind.
    CountDownLatch lateClosed = new CountDownLatch(BoundedAcquire.MAX_ABANDONED);
    Connection counted =
        StandIns.of(
            Connection.class,
            (proxy, method, args) -> {
              if (method.getName().equals("close")) {
                lateClosed.countDown();
              }
              return JdbcProxies.invoke(connection.connection(), method, args);
            });
    DataSource stuck =
        StandIns.of(
            DataSource.class,
            (proxy, method, args) -> {
              if (!method.getName().equals("getConnection")) {
                throw new UnsupportedOperationException(method.getName());
              }
              asked.incrementAndGet();
              answer.await();
              return counted;
            });

    for (int i = 0; i < 100; i++) {
      assertThatThrownBy(() -> BoundedAcquire.connection(stuck, TimeUnit.MILLISECONDS.toNanos(1)))
          .isInstanceOf(SQLTransientConnectionException.class);
    }

    assertThat(asked.get())
        .as("helper threads left blocked in the pool")
        .isEqualTo(BoundedAcquire.MAX_ABANDONED);
    answer.countDown();
    assertThat(lateClosed.await(10, TimeUnit.SECONDS))
        .as("the late connections went back")
        .isTrue();
    Connection taken = BoundedAcquire.connection(stuck, TimeUnit.SECONDS.toNanos(1));
    assertThat(taken).as("asked again once the pool answered").isNotNull();
    assertThat(connection.log()).contains("close()");
  }
}
