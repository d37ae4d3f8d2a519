package io.tidemark.spring.autoconfigure;

import io.tidemark.topology.NodeState;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Says at start, in one INFO line, that Tidemark is on: the source and the replicas it reads from,
 * the cluster, the read policy and each server's product and version, and where tokens travel (the
 * header and the cookie, once the web configuration is known), so that a newcomer sees what a
 * browser and an API client will get.
 */
final class StartupReport implements SmartInitializingSingleton {

  private static final Log log = LogFactory.getLog(StartupReport.class);

  private final TidemarkProperties properties;
  private final NodeRuntime nodes;
  private final boolean webEnabled;
  private final ObjectProvider<TokenCarriers> carriers;

  /**
   * @param webEnabled {@code tidemark.web.enabled}
   * @param carriers where tokens travel over HTTP, told by the web configuration that runs
   */
  StartupReport(
      TidemarkProperties properties,
      NodeRuntime nodes,
      boolean webEnabled,
      ObjectProvider<TokenCarriers> carriers) {
    this.properties = properties;
    this.nodes = nodes;
    this.webEnabled = webEnabled;
    this.carriers = carriers;
  }

  @Override
  public void afterSingletonsInstantiated() {
    log.info(line());
  }

  String line() {
    List<NodeState> states = nodes.view().snapshot().nodes();
    List<String> replicas =
        states.stream()
            .map(NodeState::name)
            .filter(name -> !name.equals(properties.getSourceName()))
            .toList();
    StringBuilder line =
        new StringBuilder("Tidemark is on: writes go to ")
            .append(properties.getSourceName())
            .append(
                properties.getRead().isAutomatic()
                    ? ", reads in the automatic mode (read-only transactions, repository finders,"
                        + " JdbcTemplate, MyBatis and jOOQ queries outside a transaction) and"
                        + " under @ReadYourWrites to "
                    : ", reads under @ReadYourWrites to ")
            .append(String.join(", ", replicas))
            .append(" (cluster ")
            .append(properties.getCluster())
            .append(", policy ")
            .append(properties.getRead().getPolicy())
            .append("; ")
            .append(
                states.stream()
                    .map(
                        node ->
                            node.name()
                                + (node.server() == null
                                    ? " not reached yet"
                                    : " " + node.server()))
                    .collect(Collectors.joining(", ")))
            .append("); ");
    TokenCarriers web = carriers.getIfAvailable();
    if (!webEnabled) {
      line.append("no HTTP token filter, since tidemark.web.enabled is false");
    } else if (web == null) {
      line.append("no HTTP token filter, since this is not a web application");
    } else {
      line.append(web.describe());
    }
    return line.append('.').toString();
  }
}
