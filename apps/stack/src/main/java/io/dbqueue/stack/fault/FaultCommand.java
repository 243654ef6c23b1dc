package io.dbqueue.stack.fault;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code stack fault NAME|all} ({@code ./bench fault}): runs fault scenarios and prints one line each. */
@Command(name = "fault", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs fault scenarios against the stack as separate processes and ends each with one PASS/FAIL"
                + " line: sent, acknowledged, processed, duplicates, lost (must be 0), recovery time.",
                "Scenarios: crash_consumer, crash_producer, connection_kill, crash_database (embedded PostgreSQL only),"
                + " lock_wait (the queue table locked as a migration would),"
                + " bad_input (the corpus of bad requests against producer-app and test-app, 500 requests at once),"
                + " held_xmin (a transaction holding the xmin horizon during a run), or all of these;"
                + " and soak (30 minutes at a steady rate: throughput, memory and table size must stay flat)."
                + " Writes fault.json and fault.md."})
public final class FaultCommand implements Callable<Integer> {

    private static final String BAD_INPUT = "bad_input";
    private static final String HELD_XMIN = "held_xmin";
    private static final String SOAK = "soak";

    @Parameters(index = "0", description = "scenario name, or all")
    String scenario;

    @Option(names = "--mode", description = "consumers' delivery mode: at-least-once or exactly-once (default: ${DEFAULT-VALUE})")
    String mode = "at-least-once";

    @Option(names = "--quick", description = "shortened variant: 20 s of load, fewer faults, a 5 s lease")
    boolean quick;

    @Option(names = "--load", description = "seconds of load (default: 60, quick: 20)")
    Integer loadSeconds;

    @Option(names = "--rate", description = "messages per second (default: ${DEFAULT-VALUE})")
    int rate = 1000;

    @Option(names = "--lease", description = "the consumers' lease in seconds (default: 30, the library's default; quick: 5)")
    Integer leaseSeconds;

    @Option(names = "--held", description = "held_xmin: seconds the transaction holds the horizon (default: 300, quick: 20)")
    Integer heldSeconds;

    @Option(names = "--soak", description = "soak: seconds at the steady rate (default: 1800, quick: 60)")
    Integer soakSeconds;

    @Option(names = "--table", description = "queue table, a layout preset (default: ${DEFAULT-VALUE})")
    String table = "queue_tasks_5";

    @Option(names = "--jdbc-url", description = "an external PostgreSQL (default: DB_URL, else an embedded one)")
    String jdbcUrl = System.getenv("DB_URL");

    @Option(names = "--out", description = "where fault.json, fault.md and the services' logs go (default: results/fault-<time>)")
    Path out;

    @Override
    public Integer call() throws Exception {
        boolean all = scenario.equals("all");
        Path dir = out != null ? out : Path.of("results", "fault-"
                + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now()));
        FaultSettings settings = new FaultSettings(mode, Duration.ofSeconds(loadSeconds != null ? loadSeconds : quick ? 20 : 60),
                rate, Duration.ofSeconds(leaseSeconds != null ? leaseSeconds : quick ? 5 : 30), quick, table, jdbcUrl,
                envOr("DB_USERNAME", "postgres"), envOr("DB_PASSWORD", ""), dir.resolve("logs"));
        // The scenarios that are not faults injected into a load: each runs its own way and has its own section.
        Map<String, Callable<ScenarioOutcome>> others = new LinkedHashMap<>();
        others.put(BAD_INPUT, () -> BadInputRun.run(settings));
        others.put(HELD_XMIN, () -> HeldXminRun.run(settings,
                Duration.ofSeconds(heldSeconds != null ? heldSeconds : quick ? 20 : 300)));
        others.put(SOAK, () -> SoakRun.run(settings, Duration.ofSeconds(soakSeconds != null ? soakSeconds : quick ? 60 : 1800)));
        List<FaultScenario> scenarios = others.containsKey(scenario) ? List.of() : FaultScenario.named(scenario);
        Map<String, Object> environment = environment();
        List<FaultResult> results = new ArrayList<>();
        for (FaultScenario s : scenarios) {
            if (s.needsOwnServer() && jdbcUrl != null && scenarios.size() > 1) {
                System.out.println(s.id() + " skipped: it stops the database, and " + jdbcUrl + " is not one this run owns");
                continue;
            }
            FaultResult result = FaultRun.run(s, settings, environment);
            System.out.println(result.line());
            results.add(result);
        }
        Map<String, ScenarioOutcome> sections = new LinkedHashMap<>();
        for (Map.Entry<String, Callable<ScenarioOutcome>> other : others.entrySet()) {
            // all: every scenario but the soak, which takes half an hour on its own
            if (other.getKey().equals(scenario) || (all && !other.getKey().equals(SOAK))) {
                ScenarioOutcome outcome = other.getValue().call();
                System.out.println(outcome.line());
                sections.put(other.getKey(), outcome);
            }
        }
        FaultReport.write(dir, environment, settings, results, sections);
        System.out.println("fault: results in " + dir.toAbsolutePath());
        boolean passed = results.stream().allMatch(FaultResult::passed)
                && sections.values().stream().allMatch(ScenarioOutcome::passed);
        return passed ? 0 : 1;
    }

    private static Map<String, Object> environment() {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("date", Instant.now().toString());
        env.put("commit", commit());
        env.put("jdk", System.getProperty("java.vm.vendor") + " " + Runtime.version());
        env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        env.put("cores", Runtime.getRuntime().availableProcessors());
        env.put("max_memory_mb", Runtime.getRuntime().maxMemory() >> 20);
        return env;
    }

    private static String commit() {
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes()).trim();
            return git.waitFor() == 0 ? out : "unknown";
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
