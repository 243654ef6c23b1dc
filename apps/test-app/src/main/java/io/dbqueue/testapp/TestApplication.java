package io.dbqueue.testapp;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.scheduling.annotation.EnableScheduling;

/** The load generator and results store of the experiment. */
@SpringBootApplication
@EnableScheduling
@EnableConfigurationProperties(TestAppProperties.class)
public class TestApplication {

    public static void main(String[] args) {
        // HttpURLConnection keeps at most 5 idle connections per producer unless told otherwise: the
        // other senders would open a new connection for every request.
        if (System.getProperty("http.maxConnections") == null) {
            System.setProperty("http.maxConnections", "1000");
        }
        SpringApplication.run(TestApplication.class, args);
    }
}
