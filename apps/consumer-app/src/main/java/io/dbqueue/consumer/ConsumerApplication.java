package io.dbqueue.consumer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** The experiment's consumer: processes queued messages and reports their timings to test-app. */
@SpringBootApplication
@EnableConfigurationProperties(ConsumerProperties.class)
public class ConsumerApplication {

    public static void main(String[] args) {
        SpringApplication.run(ConsumerApplication.class, args);
    }
}
