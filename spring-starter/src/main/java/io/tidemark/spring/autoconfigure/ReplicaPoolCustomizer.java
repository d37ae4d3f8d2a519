package io.tidemark.spring.autoconfigure;

import com.zaxxer.hikari.HikariConfig;

/**
 * Changes the settings of a replica's connection pool before it starts, after those of {@code
 * spring.datasource.hikari.*} and {@code tidemark.replicas[N].hikari.*}; every bean of this type is
 * applied, in bean order. The pool's URL, credentials, name and the settings reads rely on are set
 * after it and cannot be changed.
 */
@FunctionalInterface
public interface ReplicaPoolCustomizer {

  /** Customizes the pool of the replica called {@code replica}. */
  void customize(String replica, HikariConfig pool);
}
