package io.dbqueue.testapp;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/** The RestClient the load generator posts to the producers with (Boot's builder: its factory, timeouts and observations). */
@Configuration(proxyBeanMethods = false)
class HttpClientConfiguration {

    @Bean
    RestClient producersClient(RestClient.Builder builder) {
        return builder.build();
    }
}
