package io.tidemark.jdbc;

import io.tidemark.ExecutionRecord;

/**
 * What a read returned, and where and why it ran.
 *
 * @param value the read's result
 * @param record the node, reason and times of the read
 * @param <T> the type of the result
 */
public record ReadResult<T>(T value, ExecutionRecord record) {}
