package io.dbqueue.bench.environment;

import io.dbqueue.postgres.PostgresServer;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Which of a server's non-default settings make it other than the stock PostgreSQL our users run, and so
 * must open a report. A setting is stock when its value is PostgreSQL's built-in default (however it was
 * set), when it is one the lab's embedded server sets for itself ({@link PostgresServer#DURABLE_SETTINGS}:
 * durability on, WAL flushes timed, 300 connections), or when it is {@link #HARMLESS}.
 */
public final class StockSettings {

    /**
     * Where the server is (paths, ports), how it presents values to a session (time zone, locale, date
     * style) and where and how it writes logs: none of them changes what a benchmark measures. Logging
     * more (log_statement, log_min_duration_statement, ...) does, so those are not here.
     */
    static final Set<String> HARMLESS = Set.of(
            "application_name", "client_encoding", "DateStyle", "IntervalStyle", "TimeZone",
            "timezone_abbreviations", "default_text_search_config", "extra_float_digits",
            "port", "listen_addresses", "unix_socket_directories", "unix_socket_group", "unix_socket_permissions",
            "data_directory", "config_file", "hba_file", "ident_file", "external_pid_file", "cluster_name",
            "logging_collector", "log_destination", "log_directory", "log_filename", "log_file_mode",
            "log_line_prefix", "log_timezone", "log_rotation_age", "log_rotation_size", "log_truncate_on_rotation",
            "syslog_facility", "syslog_ident");

    /** Settings that decide whether a commit survives a crash; off, they are reported as not durable. */
    static final Set<String> DURABILITY = Set.of("fsync", "synchronous_commit", "full_page_writes", "wal_sync_method");

    private StockSettings() {
    }

    /**
     * The report's opening lines: "Not durable: ..." for durability settings that differ from stock, and
     * "Not stock: ..." for every other difference; nothing on a stock server. Results written before the
     * settings were recorded ({@code settings} null) say that it is not known.
     */
    public static List<String> openingLines(List<Environment.Setting> settings) {
        if (settings == null) {
            return List.of("Not known whether stock: this run predates the lab's record of the settings that"
                    + " differ from PostgreSQL's defaults.");
        }
        List<Environment.Setting> differ = settings.stream().filter(s -> !stock(s)).toList();
        return Stream.of(
                        line("Not durable", differ.stream().filter(s -> DURABILITY.contains(s.name())).toList()),
                        line("Not stock", differ.stream().filter(s -> !DURABILITY.contains(s.name())).toList()))
                .filter(l -> !l.isEmpty()).toList();
    }

    static boolean stock(Environment.Setting setting) {
        String name = setting.name();
        return setting.matchesDefault() || HARMLESS.contains(name) || name.startsWith("lc_")
                || setting.setting().equals(PostgresServer.DURABLE_SETTINGS.get(name));
    }

    private static String line(String label, List<Environment.Setting> settings) {
        return settings.isEmpty() ? "" : label + ": " + settings.stream()
                .map(s -> s.name() + " = " + s.setting() + " (" + s.source() + ")").collect(Collectors.joining(", "));
    }
}
