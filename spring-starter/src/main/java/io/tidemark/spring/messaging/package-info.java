/**
 * The consistency token on messages: Kafka records, RabbitMQ and JMS messages carry the sending
 * thread's token, and listeners run in the context of their message's token; with their settings
 * ({@code tidemark.messaging.*}) and auto-configuration.
 */
@NullMarked
package io.tidemark.spring.messaging;

import org.jspecify.annotations.NullMarked;
