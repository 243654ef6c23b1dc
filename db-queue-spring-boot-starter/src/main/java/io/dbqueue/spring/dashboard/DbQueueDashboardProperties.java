package io.dbqueue.spring.dashboard;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code dbq.dashboard.*} properties: the dashboard page, built on the Actuator endpoint {@code dbqueue}.
 *
 * @param enabled  Whether the application serves the dashboard page (a Spring MVC web application with Actuator and
 *                 the endpoint dbqueue exposed).
 * @param path     Where the page is served.
 * @param endpoint Where the page reads the endpoint dbqueue; by default where Actuator maps it
 *                 (management.endpoints.web.base-path and any path-mapping) under the page's own context path.
 *                 With a separate management port, give its full URL and allow the page's origin there
 *                 (management.endpoints.web.cors.*).
 */
@ConfigurationProperties("dbq.dashboard")
public record DbQueueDashboardProperties(@DefaultValue("false") boolean enabled,
                                         @DefaultValue("/dbqueue") String path,
                                         String endpoint) {
}
