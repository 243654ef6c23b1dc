package io.dbqueue.spring.dashboard;

import io.dbqueue.spring.actuate.DbQueueEndpoint;
import io.dbqueue.spring.actuate.DbQueueEndpointAutoConfiguration;
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

    @Bean
    public RouterFunction<ServerResponse> dbQueueDashboard(DbQueueDashboardProperties properties,
                                                           Environment environment) {
        String endpoint = properties.endpoint() != null ? properties.endpoint()
                : environment.getProperty("management.endpoints.web.base-path", "/actuator") + "/dbqueue";
        return new DashboardPage(endpoint).route(properties.path());
    }
}
