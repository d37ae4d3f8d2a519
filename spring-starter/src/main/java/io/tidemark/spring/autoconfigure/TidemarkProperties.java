package io.tidemark.spring.autoconfigure;

import io.tidemark.ConsistencyLevel;
import io.tidemark.ReadPolicy;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.scope.ScopeStoreConfig;
import io.tidemark.token.TokenConfig;
import io.tidemark.topology.ExecutionHistory;
import io.tidemark.topology.NodeSelector;
import io.tidemark.topology.TopologyView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of Tidemark under {@code tidemark.*}. Everything but the replicas has a default; {@link
 * CoreConfigs} turns them into the core's configuration objects.
 */
@ConfigurationProperties("tidemark")
public class TidemarkProperties {

  /** Whether Tidemark routes reads, captures writes and handles the consistency header. */
  private boolean enabled = true;

  /**
   * Name of the database cluster the tokens of this application are for; services that share the
   * cluster must use the same name.
   */
  private String cluster = "default";

  /**
   * Name of the DataSource bean whose connections Tidemark captures and routes; needed when the
   * application has several and none is @Primary.
   */
  private @Nullable String datasource;

  /**
   * Order of Tidemark's advice among a bean's advisors: it runs after those of lower or equal
   * order. When not set, it runs right before the transaction advice, after every other (method
   * security, caching).
   */
  private @Nullable Integer adviceOrder;

  /** Name of the source node in the topology, health and metrics. */
  private String sourceName = "source";

  /**
   * Replicas of the source configured with spring.datasource; reads under @ReadYourWrites run on
   * them.
   */
  private List<Replica> replicas = new ArrayList<>();

  private final Token token = new Token();

  private final Read read = new Read();

  private final Topology topology = new Topology();

  private final Scope scope = new Scope();

  private final History history = new History();

  public boolean isEnabled() {
    return enabled;
  }

  public @Nullable String getDatasource() {
    return datasource;
  }

  public void setDatasource(@Nullable String datasource) {
    this.datasource = datasource;
  }

  public @Nullable Integer getAdviceOrder() {
    return adviceOrder;
  }

  public void setAdviceOrder(@Nullable Integer adviceOrder) {
    this.adviceOrder = adviceOrder;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public String getCluster() {
    return cluster;
  }

  public void setCluster(String cluster) {
    this.cluster = cluster;
  }

  public String getSourceName() {
    return sourceName;
  }

  public void setSourceName(String sourceName) {
    this.sourceName = sourceName;
  }

  public List<Replica> getReplicas() {
    return replicas;
  }

  public void setReplicas(List<Replica> replicas) {
    this.replicas = replicas;
  }

  public Token getToken() {
    return token;
  }

  public Read getRead() {
    return read;
  }

  public Topology getTopology() {
    return topology;
  }

  public Scope getScope() {
    return scope;
  }

  public History getHistory() {
    return history;
  }

  /** One replica: where it is and how to log in. */
  public static class Replica {

    /** Name of the replica in the topology, health and metrics; defaults to replica-N. */
    private @Nullable String name;

    /** JDBC URL of the replica, e.g. jdbc:mysql://replica-1:3306/shop. */
    private @Nullable String url;

    /** Login user of the replica; defaults to spring.datasource.username. */
    private @Nullable String username;

    /** Login password of the replica; defaults to spring.datasource.password. */
    private @Nullable String password;

    /** Tables (schema.table) the replica's replication filters leave out; reads of them skip it. */
    private List<String> filteredTables = new ArrayList<>();

    /**
     * Settings of the replica's connection pool, as spring.datasource.hikari.* names them (e.g.
     * connection-timeout, data-source-properties.sslMode), over those of spring.datasource.hikari.
     */
    private Map<String, String> hikari = new LinkedHashMap<>();

    public Map<String, String> getHikari() {
      return hikari;
    }

    public void setHikari(Map<String, String> hikari) {
      this.hikari = hikari;
    }

    public @Nullable String getName() {
      return name;
    }

    public void setName(@Nullable String name) {
      this.name = name;
    }

    public @Nullable String getUrl() {
      return url;
    }

    public void setUrl(@Nullable String url) {
      this.url = url;
    }

    public @Nullable String getUsername() {
      return username;
    }

    public void setUsername(@Nullable String username) {
      this.username = username;
    }

    public @Nullable String getPassword() {
      return password;
    }

    public void setPassword(@Nullable String password) {
      this.password = password;
    }

    public List<String> getFilteredTables() {
      return filteredTables;
    }

    public void setFilteredTables(List<String> filteredTables) {
      this.filteredTables = filteredTables;
    }
  }

  /** How tokens are signed and checked. */
  public static class Token {

    /**
     * Secret tokens are signed with, at least 32 characters, the same on every instance. When not
     * set, a single instance without a shared scope store signs with a random secret of its own; an
     * unresolved ${...} placeholder stops the start.
     */
    private @Nullable String secret;

    /** Id of the secret, written into every token so that secrets can be rotated. */
    private String keyId = "k1";

    /** Earlier secrets by key id, still accepted while tokens signed with them are alive. */
    private Map<String, String> previousSecrets = new LinkedHashMap<>();

    /** How long after it was issued a token is accepted. */
    private Duration timeToLive = TokenConfig.DEFAULT_TIME_TO_LIVE;

    /** How far the clocks of the issuing and the verifying instance may disagree. */
    private Duration clockSkew = TokenConfig.DEFAULT_CLOCK_SKEW;

    /**
     * How long an answer waits for the source's gtid_executed when its token must cover a write
     * that escaped capture, or be compacted, at most what is left of the request's budget; past it,
     * the token is a marker that sends the client's reads to the source.
     */
    private Duration coverTimeout = Duration.ofMillis(500);

    public @Nullable String getSecret() {
      return secret;
    }

    public void setSecret(@Nullable String secret) {
      this.secret = secret;
    }

    public String getKeyId() {
      return keyId;
    }

    public void setKeyId(String keyId) {
      this.keyId = keyId;
    }

    public Map<String, String> getPreviousSecrets() {
      return previousSecrets;
    }

    public void setPreviousSecrets(Map<String, String> previousSecrets) {
      this.previousSecrets = previousSecrets;
    }

    public Duration getTimeToLive() {
      return timeToLive;
    }

    public void setTimeToLive(Duration timeToLive) {
      this.timeToLive = timeToLive;
    }

    public Duration getClockSkew() {
      return clockSkew;
    }

    public void setClockSkew(Duration clockSkew) {
      this.clockSkew = clockSkew;
    }

    public Duration getCoverTimeout() {
      return coverTimeout;
    }

    public void setCoverTimeout(Duration coverTimeout) {
      this.coverTimeout = coverTimeout;
    }
  }

  /** How reads under {@code @ReadYourWrites}, or in the automatic mode, run. */
  public static class Read {

    /**
     * Whether every read-only transactional method (@Transactional(readOnly = true), a Spring Data
     * repository's query method), JdbcTemplate query and MyBatis mapper select outside a
     * transaction runs on a replica as @ReadYourWrites would, with these defaults, not only the
     * annotated ones.
     */
    private boolean automatic = false;

    /** Budget of a read (connection, wait and query) when the annotation names none. */
    private Duration timeout = ReadOptions.DEFAULT_TIMEOUT;

    /** What a read does when the replica has not caught up within the budget. */
    private ReadPolicy policy = ReadPolicy.FALLBACK_TO_SOURCE;

    /**
     * Whether an answer's token also carries what each read observed (on a replica or the source),
     * so that a client never reads an older state than it has seen (one more round trip per read).
     */
    private boolean monotonic = true;

    /**
     * What a read must see when its annotation names no level: SESSION, the client's own writes and
     * what it was shown (its token); GLOBAL, everything the source had committed when the read
     * began; BOUNDED, everything it had committed max-staleness before; EVENTUAL, what the replica
     * has, without waiting.
     */
    private ConsistencyLevel level = ConsistencyLevel.SESSION;

    /** How far behind the source a BOUNDED read may be. */
    private Duration maxStaleness = ReadOptions.DEFAULT_MAX_STALENESS;

    /** Most reads holding a replica connection at once; also the size of each replica's pool. */
    private int maxReplicaReads = ConsistentReader.Builder.DEFAULT_MAX_REPLICA_READS;

    /** Most reads falling back to the source at once; more fail with SOURCE_FALLBACK_LIMITED. */
    private int maxSourceFallbacks = ConsistentReader.Builder.DEFAULT_MAX_SOURCE_FALLBACKS;

    /** Time kept back from the wait so that the query still fits in the budget. */
    private Duration queryReserve = ConsistentReader.Builder.DEFAULT_QUERY_RESERVE;

    /**
     * Time kept back from the replica attempt of a read that may fall back (at most half its
     * timeout), so that a source fallback too ends within the read's deadline.
     */
    private Duration fallbackReserve = ConsistentReader.Builder.DEFAULT_FALLBACK_RESERVE;

    public boolean isAutomatic() {
      return automatic;
    }

    public void setAutomatic(boolean automatic) {
      this.automatic = automatic;
    }

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }

    public boolean isMonotonic() {
      return monotonic;
    }

    public Duration getMaxStaleness() {
      return maxStaleness;
    }

    public void setMaxStaleness(Duration maxStaleness) {
      this.maxStaleness = maxStaleness;
    }

    public ConsistencyLevel getLevel() {
      return level;
    }

    public void setLevel(ConsistencyLevel level) {
      this.level = level;
    }

    public void setMonotonic(boolean monotonic) {
      this.monotonic = monotonic;
    }

    public ReadPolicy getPolicy() {
      return policy;
    }

    public void setPolicy(ReadPolicy policy) {
      this.policy = policy;
    }

    public int getMaxReplicaReads() {
      return maxReplicaReads;
    }

    public void setMaxReplicaReads(int maxReplicaReads) {
      this.maxReplicaReads = maxReplicaReads;
    }

    public int getMaxSourceFallbacks() {
      return maxSourceFallbacks;
    }

    public void setMaxSourceFallbacks(int maxSourceFallbacks) {
      this.maxSourceFallbacks = maxSourceFallbacks;
    }

    public Duration getQueryReserve() {
      return queryReserve;
    }

    public void setQueryReserve(Duration queryReserve) {
      this.queryReserve = queryReserve;
    }

    public Duration getFallbackReserve() {
      return fallbackReserve;
    }

    public void setFallbackReserve(Duration fallbackReserve) {
      this.fallbackReserve = fallbackReserve;
    }
  }

  /** How the nodes' roles and lag are watched. */
  public static class Topology {

    /** Time between two probes of a node. */
    private Duration refreshInterval = TopologyView.DEFAULT_REFRESH_INTERVAL;

    /** Connect timeout of a probe. */
    private Duration probeConnectTimeout = TopologyView.DEFAULT_PROBE_CONNECT_TIMEOUT;

    /** Read timeout of a probe. */
    private Duration probeReadTimeout = TopologyView.DEFAULT_PROBE_READ_TIMEOUT;

    /** Lag above which a replica is not chosen for reads. */
    private Duration maxLag = NodeSelector.DEFAULT_MAX_LAG;

    /** Whether start-up fails when a node has GTID mode off or refuses the credentials. */
    private boolean failFast = true;

    public Duration getRefreshInterval() {
      return refreshInterval;
    }

    public void setRefreshInterval(Duration refreshInterval) {
      this.refreshInterval = refreshInterval;
    }

    public Duration getProbeConnectTimeout() {
      return probeConnectTimeout;
    }

    public void setProbeConnectTimeout(Duration probeConnectTimeout) {
      this.probeConnectTimeout = probeConnectTimeout;
    }

    public Duration getProbeReadTimeout() {
      return probeReadTimeout;
    }

    public void setProbeReadTimeout(Duration probeReadTimeout) {
      this.probeReadTimeout = probeReadTimeout;
    }

    public Duration getMaxLag() {
      return maxLag;
    }

    public void setMaxLag(Duration maxLag) {
      this.maxLag = maxLag;
    }

    public boolean isFailFast() {
      return failFast;
    }

    public void setFailFast(boolean failFast) {
      this.failFast = failFast;
    }
  }

  /** Where token scopes live between requests. */
  public static class Scope {

    /** Store of token scopes; REDIS shares them between instances. */
    private ScopeStoreKind store = ScopeStoreKind.NONE;

    /**
     * Redis URI of the scope store, e.g. redis://localhost:6379; when not set, the Redis of
     * spring.data.redis.
     */
    private @Nullable String redisUri;

    /** How long a scope lives after its last write. */
    private Duration timeToLive = ScopeStoreConfig.DEFAULT_TIME_TO_LIVE;

    /** Longest a scope-store call may take; past it the read takes the source path. */
    private Duration commandTimeout = ScopeStoreConfig.DEFAULT_COMMAND_TIMEOUT;

    /**
     * Whether a REDIS store answers repeated scope reads from a local copy for up to a second. It
     * saves a Redis round trip per read, but another instance's write reaches the copy by pub/sub,
     * which may arrive after the client's next request here: that read may then miss the write.
     */
    private boolean nearCache;

    public ScopeStoreKind getStore() {
      return store;
    }

    public void setStore(ScopeStoreKind store) {
      this.store = store;
    }

    public @Nullable String getRedisUri() {
      return redisUri;
    }

    public void setRedisUri(@Nullable String redisUri) {
      this.redisUri = redisUri;
    }

    public Duration getTimeToLive() {
      return timeToLive;
    }

    public void setTimeToLive(Duration timeToLive) {
      this.timeToLive = timeToLive;
    }

    public Duration getCommandTimeout() {
      return commandTimeout;
    }

    public void setCommandTimeout(Duration commandTimeout) {
      this.commandTimeout = commandTimeout;
    }

    public boolean isNearCache() {
      return nearCache;
    }

    public void setNearCache(boolean nearCache) {
      this.nearCache = nearCache;
    }
  }

  /** Kinds of scope store ({@link io.tidemark.scope.ScopeStore} is what each makes). */
  public enum ScopeStoreKind {
    /** No scopes: tokens travel in headers only. */
    NONE,
    /** In this instance's memory (Caffeine): scopes are not shared. */
    CAFFEINE,
    /** In Redis, shared by every instance. */
    REDIS
  }

  /** What is kept of past reads for the actuator endpoint. */
  public static class History {

    /** Number of recent reads kept. */
    private int capacity = ExecutionHistory.DEFAULT_CAPACITY;

    public int getCapacity() {
      return capacity;
    }

    public void setCapacity(int capacity) {
      this.capacity = capacity;
    }
  }
}
