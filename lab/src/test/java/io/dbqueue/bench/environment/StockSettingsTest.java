package io.dbqueue.bench.environment;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class StockSettingsTest {

    private static final String FILE = "configuration file";
    private static final String COMMAND_LINE = "command line";

    @Test
    void theLabsEmbeddedServerIsStock() {
        // what the durable embedded PostgreSQL 18 and 15 report, initdb's choices among them
        assertEquals(List.of(), StockSettings.openingLines(List.of(
                set("DateStyle", "ISO, MDY", FILE, true), set("TimeZone", "UTC", COMMAND_LINE, false),
                set("default_text_search_config", "pg_catalog.english", FILE, false),
                set("fsync", "on", COMMAND_LINE, true), set("full_page_writes", "on", COMMAND_LINE, true),
                set("synchronous_commit", "on", COMMAND_LINE, true), set("lc_messages", "C.UTF-8", FILE, false),
                set("log_timezone", "Etc/UTC", FILE, false), set("max_connections", "300", COMMAND_LINE, false),
                set("max_wal_size", "1GB", FILE, true), set("port", "55418", COMMAND_LINE, false),
                set("shared_buffers", "128MB", FILE, true), set("track_wal_io_timing", "on", COMMAND_LINE, false))));
    }

    @Test
    void aCiServerWithoutAutovacuumOpensTheReport() {
        // this machine's PostgreSQL 15: conf.d/90-ci.conf turns autovacuum off
        assertEquals(List.of("Not stock: autovacuum = off (configuration file)"), StockSettings.openingLines(List.of(
                set("autovacuum", "off", FILE, false), set("cluster_name", "15/main", FILE, false),
                set("fsync", "on", FILE, true), set("listen_addresses", "127.0.0.1", FILE, false),
                set("max_connections", "100", FILE, true), set("unix_socket_directories", "/var/run/postgresql", FILE,
                        true))));
    }

    @Test
    void durabilityOffIsNamedApartFromOtherDifferences() {
        assertEquals(List.of("Not durable: synchronous_commit = off (command line), fsync = off (configuration file)",
                        "Not stock: autovacuum_naptime = 1s (command line), log_min_duration_statement = 0 (database)"),
                StockSettings.openingLines(List.of(set("synchronous_commit", "off", COMMAND_LINE, false),
                        set("autovacuum_naptime", "1s", COMMAND_LINE, false), set("fsync", "off", FILE, false),
                        set("log_min_duration_statement", "0", "database", false))));
    }

    @Test
    void aLabSettingAtAnotherValueIsNotStock() {
        assertEquals(List.of("Not stock: max_connections = 1000 (configuration file)"),
                StockSettings.openingLines(List.of(set("max_connections", "1000", FILE, false))));
    }

    private static Environment.Setting set(String name, String value, String source, boolean matchesDefault) {
        return new Environment.Setting(name, value, source, matchesDefault);
    }
}
