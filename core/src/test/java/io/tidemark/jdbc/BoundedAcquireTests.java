package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
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
    DataSource stuck =
        (DataSource)
            Proxy.newProxyInstance(
                DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                  if (!method.getName().equals("getConnection")) {
                    throw new UnsupportedOperationException(method.getName());
                  }
                  asked.incrementAndGet();
                  answer.await();
                  return connection.connection();
                });

    for (int i = 0; i < 100; i++) {
      assertThatThrownBy(() -> BoundedAcquire.connection(stuck, TimeUnit.MILLISECONDS.toNanos(1)))
          .isInstanceOf(SQLTransientConnectionException.class);
    }

    assertThat(asked.get())
        .as("helper threads left blocked in the pool")
        .isEqualTo(BoundedAcquire.MAX_ABANDONED);
    answer.countDown();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    Connection taken = null;
    while (taken == null && System.nanoTime() < until) {
      try {
        taken = BoundedAcquire.connection(stuck, TimeUnit.SECONDS.toNanos(1));
      } catch (SQLTransientConnectionException stillCounted) {
        Thread.sleep(5);
      }
    }
    assertThat(taken).as("asked again once the pool answered").isNotNull();
    assertThat(connection.log()).as("the late connections went back").contains("close()");
  }
}
