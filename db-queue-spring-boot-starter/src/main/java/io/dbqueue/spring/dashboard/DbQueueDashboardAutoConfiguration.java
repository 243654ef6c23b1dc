package io.dbqueue.spring.dashboard;

import io.dbqueue.spring.actuate.DbQueueEndpoint;
import io.dbqueue.spring.actuate.DbQueueEndpointAutoConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

/** The dashboard page ({@link DashboardPage}) at {@code dbq.dashboard.path}, when {@code dbq.dashboard.enabled}. */
@AutoConfiguration(after = DbQueueEndpointAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(RouterFunction.class)
@ConditionalOnBooleanProperty("dbq.dashboard.enabled")
@ConditionalOnBean(DbQueueEndpoint.class)
@EnableConfigurationProperties(DbQueueDashboardProperties.class)
public class DbQueueDashboardAutoConfiguration {

    /**
     * The page reads {@code dbq.dashboard.endpoint} as given, else the endpoint where Actuator maps it (its base path
     * and {@code management.endpoints.web.path-mapping.dbqueue}) under the page's own context path.
     */
    @Bean
    public RouterFunction<ServerResponse> dbQueueDashboard(DbQueueDashboardProperties properties,
                                                           ObjectProvider<PathMappedEndpoints> mapped,
                                                           Environment environment) {
        if (properties.endpoint() != null) {
            return new DashboardPage(properties.endpoint(), false).route(properties.path());
        }
        PathMappedEndpoints endpoints = mapped.getIfAvailable();
        String path = endpoints != null && endpoints.getPath(DbQueueEndpoint.ID) != null
                ? endpoints.getPath(DbQueueEndpoint.ID)
                : environment.getProperty("management.endpoints.web.base-path", "/actuator") + "/dbqueue";
        return new DashboardPage(path, true).route(properties.path());
    }
}
