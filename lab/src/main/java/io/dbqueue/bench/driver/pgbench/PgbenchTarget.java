package io.dbqueue.bench.driver.pgbench;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where pgbench connects: the bench's server, from its JDBC URL
 * ({@code jdbc:postgresql://host[:port]/database?user=...&password=...}) and the user and password
 * the bench connects with. libpq takes them from the environment ({@link #environment}), so that a
 * password never appears on a command line.
 */
record PgbenchTarget(String host, int port, String database, String user, String password) {

    private static final String PREFIX = "jdbc:postgresql:";
    private static final int DEFAULT_PORT = 5432;

    /** The target of {@code jdbcUrl}; {@code user} and {@code password} win over the URL's parameters when given. */
    static PgbenchTarget of(String jdbcUrl, String user, String password) {
        if (jdbcUrl == null || !jdbcUrl.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + jdbcUrl);
        }
        String rest = jdbcUrl.substring(PREFIX.length());
        Map<String, String> params = new LinkedHashMap<>();
        int query = rest.indexOf('?');
        if (query >= 0) {
            for (String pair : rest.substring(query + 1).split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    params.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
            rest = rest.substring(0, query);
        }
        String host = "localhost";
        int port = DEFAULT_PORT;
        String database;
        if (rest.startsWith("//")) {
            int slash = rest.indexOf('/', 2);
            String authority = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
            database = slash < 0 ? "" : rest.substring(slash + 1);
            if (authority.contains(",")) {
                throw new IllegalArgumentException("pgbench needs a single host, the JDBC URL names several: "
                        + authority);
            }
            int colon = authority.startsWith("[") ? authority.indexOf(':', authority.indexOf(']'))
                    : authority.lastIndexOf(':');
            String name = colon < 0 ? authority : authority.substring(0, colon);
            if (colon >= 0) {
                port = Integer.parseInt(authority.substring(colon + 1));
            }
            if (name.startsWith("[") && name.endsWith("]")) {
                name = name.substring(1, name.length() - 1);
            }
            if (!name.isEmpty()) {
                host = name;
            }
        } else {
            database = rest;
        }
        database = URLDecoder.decode(database, StandardCharsets.UTF_8);
        String u = user != null && !user.isEmpty() ? user : params.getOrDefault("user", "postgres");
        String p = password != null && !password.isEmpty() ? password : params.getOrDefault("password", "");
        return new PgbenchTarget(host, port, database.isEmpty() ? u : database, u, p);
    }

    /** libpq's environment variables for this target. */
    Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PGHOST", host);
        env.put("PGPORT", Integer.toString(port));
        env.put("PGDATABASE", database);
        env.put("PGUSER", user);
        if (!password.isEmpty()) {
            env.put("PGPASSWORD", password);
        }
        env.put("PGAPPNAME", "bench-pgbench");
        return env;
    }

    @Override
    public String toString() {
        return user + "@" + host + ":" + port + "/" + database;
    }
}
