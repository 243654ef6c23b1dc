package io.dbqueue.producer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** The experiment's producer: HTTP in, batched writes to the queue table. */
@SpringBootApplication
@EnableConfigurationProperties(ProducerProperties.class)
public class ProducerApplication {

    public static void main(String[] args) {
        SpringApplication.run(ProducerApplication.class, args);
    }
}
