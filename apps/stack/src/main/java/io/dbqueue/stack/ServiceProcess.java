package io.dbqueue.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One service JVM started with {@code java -jar}, its output going to a log file. */
final class ServiceProcess {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final int port;
    private final Path log;
    private final ProcessBuilder builder;
    private final Process process;

    private ServiceProcess(String name, int port, Path log, ProcessBuilder builder, Process process) {
        this.name = name;
        this.port = port;
        this.log = log;
        this.builder = builder;
        this.process = process;
    }

    /** Starts {@code jar} on the JDK running this launcher, with {@code env} added to this process's environment. */
    static ServiceProcess start(String name, Path jar, int port, Map<String, String> env, List<String> jvmArgs,
                                Path logDir) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmArgs);
        command.add("-jar");
        command.add(jar.toAbsolutePath().toString());
        Path log = logDir.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(env);
        builder.environment().put("SERVER_PORT", Integer.toString(port));
        // the stack listens on loopback only, whatever address the launcher's shell exports for its own services
        builder.environment().put("SERVER_ADDRESS", "127.0.0.1");
        return launch(name, port, log, builder);
    }

    private static ServiceProcess launch(String name, int port, Path log, ProcessBuilder builder) {
        try {
            return new ServiceProcess(name, port, log, builder, builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + builder.command(), e);
        }
    }

    /** Kills the process with SIGKILL (no shutdown hook runs, nothing is flushed) and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** The same service started again (after {@link #kill}), its output appended to the same log. */
    ServiceProcess restart() {
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        return launch(name, port, log, builder);
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    Path log() {
        return log;
    }

    /** Waits until the actuator health endpoint answers UP; fails if the process dies or the deadline passes. */
    void awaitHealthy(long deadlineNanos) throws InterruptedException {
        HttpRequest health = HttpRequest.newBuilder(URI.create(url() + "/actuator/health"))
                .timeout(Duration.ofSeconds(2)).build();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue() + " while starting; "
                        + "end of " + log + ":\n" + tail());
            }
            try {
                HttpResponse<String> response = HTTP.send(health, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadlineNanos) {
                throw new IllegalStateException(name + " not healthy at " + url() + " in time; end of " + log + ":\n"
                        + tail());
            }
            process.waitFor(250, TimeUnit.MILLISECONDS);
        }
    }

    /** Asks the process to stop (SIGTERM) so it can flush what it holds. */
    void terminate() {
        process.destroy();
    }

    /** Ends the process with SIGKILL, without waiting: for a caller that cannot wait. */
    void killNow() {
        process.destroyForcibly();
    }

    /** After {@link #killNow}: waits up to 5 s for the process to be gone; another interrupt ends the wait. */
    void awaitKilled() {
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            // the caller sets the flag again when it is done
        }
    }

    /** Waits for the process to exit, killing it when {@code timeout} passes. Returns whether it exited by itself. */
    boolean awaitExit(Duration timeout) throws InterruptedException {
        if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return true;
        }
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        return false;
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(cannot read the log: " + e + ")";
        }
    }
}
