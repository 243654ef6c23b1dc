package io.dbqueue.bench.cli;

import io.dbqueue.postgres.PostgresServer;
import picocli.CommandLine.Option;

/** {@code --jdbc-url}: the PostgreSQL a command measures. */
final class ServerOption {

    @Option(names = "--jdbc-url", paramLabel = "URL",
            description = "External PostgreSQL instead of the embedded one (user from DBQ_JDBC_USER, default postgres;"
                    + " password from DBQ_JDBC_PASSWORD). Default: DBQ_JDBC_URL, else an embedded durable PostgreSQL.")
    String jdbcUrl;

    PostgresServer connect() {
        if (jdbcUrl == null) {
            return PostgresServer.start();
        }
        String user = System.getenv().getOrDefault(PostgresServer.USER_ENV, "postgres");
        String password = System.getenv().getOrDefault(PostgresServer.PASSWORD_ENV, "");
        return PostgresServer.external(jdbcUrl, user, password);
    }
}
