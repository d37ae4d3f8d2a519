/** A real RabbitMQ broker for tests: {@link io.tidemark.testkit.rabbitmq.RabbitServer}. */
@NullMarked
package io.tidemark.testkit.rabbitmq;

import org.jspecify.annotations.NullMarked;
