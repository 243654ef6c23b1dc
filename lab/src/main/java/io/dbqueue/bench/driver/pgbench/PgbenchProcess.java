package io.dbqueue.bench.driver.pgbench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One pgbench process running a script with {@code clients} connections on one thread ({@code -j 1}),
 * without vacuuming first ({@code -n}), for a fixed time. The first error pgbench reports on stderr (a
 * client aborted: pgbench would go on with the others) or a non-zero exit fails the load at once
 * with that line. {@link #pause()} and {@link #resume()} stop and continue the process (SIGSTOP,
 * SIGCONT): the producers' hold-back while too many messages wait.
 */
final class PgbenchProcess implements AutoCloseable {

    static final String EXECUTABLE = "pgbench";
    private static final String MISSING = "pgbench not found on the PATH: install PostgreSQL's client tools"
            + " (Debian: apt-get install postgresql-client)";

    private final String role;
    private final Process process;
    private final Path script;
    private final long startNanos = System.nanoTime();
    private final AtomicReference<Throwable> failure;
    private final List<String> stderrTail = new ArrayList<>();
    private volatile boolean stopping;
    private volatile boolean paused;
    private volatile String firstError;
    private Duration cpuAtStop;
    private long nanosAtStop;

    private PgbenchProcess(String role, Process process, Path script, AtomicReference<Throwable> failure) {
        this.role = role;
        this.process = process;
        this.script = script;
        this.failure = failure;
    }

    /** Why pgbench cannot run with {@code path} as the PATH, or null when it is on it. */
    static String unavailableReason(String path) {
        return find(path) == null ? MISSING : null;
    }

    /** The pgbench executable on {@code path}, a PATH, or null. */
    private static Path find(String path) {
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, EXECUTABLE);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /**
     * Starts pgbench as {@code role} ("producers", "consumers") with {@code script} against
     * {@code target} for {@code seconds}; {@code extra} are more flags (-D, -R). A failure goes to
     * {@code failure}.
     */
    static PgbenchProcess start(String role, PgbenchScripts.Script script, PgbenchTarget target, int clients,
                                long seconds, List<String> extra, AtomicReference<Throwable> failure)
            throws IOException {
        Path executable = find(System.getenv("PATH"));
        if (executable == null) {
            throw new IllegalStateException(MISSING);
        }
        Path file = Files.createTempFile("bench-pgbench-" + role + "-", ".sql");
        Files.writeString(file, script.text());
        List<String> command = new ArrayList<>(List.of(executable.toString(), "-n", "-M", script.mode().flag(),
                "-c", Integer.toString(clients), "-j", "1", "-T", Long.toString(seconds)));
        command.addAll(extra);
        command.addAll(List.of("-f", file.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(target.environment());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            Files.deleteIfExists(file);
            throw e;
        }
        PgbenchProcess pgbench = new PgbenchProcess(role, process, file, failure);
        pgbench.watch();
        return pgbench;
    }

    private void watch() {
        Thread stderr = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (stderrTail) {
                        stderrTail.add(line);
                        if (stderrTail.size() > 20) {
                            stderrTail.remove(0);
                        }
                    }
                    if (firstError == null && isError(line)) {
                        firstError = line.trim();
                        fail("pgbench (" + role + ") reported: " + firstError);
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "bench-pgbench-" + role + "-stderr");
        stderr.setDaemon(true);
        stderr.start();
        process.onExit().thenAccept(p -> {
            int code = p.exitValue();
            if (stopping) {
                return;
            }
            try {
                stderr.join(TimeUnit.SECONDS.toMillis(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (code != 0) {
                fail("pgbench (" + role + ") exited with status " + code + ": " + errorLine());
            } else {
                fail("pgbench (" + role + ") ended before the window did");
            }
        });
    }

    /** pgbench's own errors ("pgbench: error: ...", "pgbench: fatal: ...") and the server's ("ERROR:  ...", "FATAL:  ..."). */
    static boolean isError(String line) {
        String l = line.trim();
        return l.startsWith("pgbench: error:") || l.startsWith("pgbench: fatal:") || l.startsWith("ERROR:")
                || l.startsWith("FATAL:") || l.contains("connection to server") && l.contains("failed");
    }

    /** The first error line on stderr, else its last line, else a note that it said nothing. */
    String errorLine() {
        if (firstError != null) {
            return firstError;
        }
        synchronized (stderrTail) {
            return stderrTail.isEmpty() ? "(nothing on stderr)" : stderrTail.get(stderrTail.size() - 1).trim();
        }
    }

    private void fail(String message) {
        if (!stopping) {
            failure.compareAndSet(null, new IllegalStateException(message));
        }
    }

    /** Stops the process where it is (SIGSTOP); its connections stay open. */
    void pause() {
        if (!paused && process.isAlive()) {
            signal("STOP");
            paused = true;
        }
    }

    /** Lets a paused process go on (SIGCONT). */
    void resume() {
        if (paused) {
            signal("CONT");
            paused = false;
        }
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                kill.destroyForcibly();
                if (process.isAlive()) {
                    fail("could not send SIG" + name + " to pgbench (" + role + ")");
                }
            }
        } catch (IOException e) {
            fail("could not send SIG" + name + " to pgbench (" + role + "): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * CPU the process used per second of its life, in percent of one core, read when it was stopped
     * (warm-up and window together); null when the system did not tell.
     */
    Double cpuPercent() {
        if (cpuAtStop == null || nanosAtStop <= 0) {
            return null;
        }
        return 100.0 * cpuAtStop.toNanos() / nanosAtStop;
    }

    /** Ends the process (SIGTERM, then SIGKILL) and removes its script. */
    @Override
    public void close() throws IOException, InterruptedException {
        stopping = true;
        cpuAtStop = process.info().totalCpuDuration().orElse(null);
        nanosAtStop = System.nanoTime() - startNanos;
        if (process.isAlive()) {
            resume();
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
        Files.deleteIfExists(script);
    }
}
