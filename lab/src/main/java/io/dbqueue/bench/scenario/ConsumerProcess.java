package io.dbqueue.bench.scenario;

import io.dbqueue.postgres.PostgresServer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A {@link ScenarioWorkerMain} child JVM, whose event lines this reads into {@link TaskEvents}. */
final class ConsumerProcess implements AutoCloseable {

    private final Process process;
    private final Thread reader;
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile long switches;

    private ConsumerProcess(Process process, TaskEvents events) {
        this.process = process;
        this.reader = new Thread(() -> read(events), "scenario-consumer-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts a consumer process on {@code server}'s database and waits until its workers run. */
    static ConsumerProcess start(ConsumerSpec spec, PostgresServer server, TaskEvents events)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ScenarioWorkerMain.class.getName());
        command.addAll(spec.toArgs());
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put(PostgresServer.JDBC_URL_ENV, server.jdbcUrl());
        builder.environment().put(PostgresServer.USER_ENV, server.user());
        builder.environment().put(PostgresServer.PASSWORD_ENV, server.password() == null ? "" : server.password());
        ConsumerProcess child = new ConsumerProcess(builder.start(), events);
        if (!child.ready.await(60, TimeUnit.SECONDS)) {
            child.process.destroyForcibly();
            throw new IllegalStateException("consumer process " + child.process.pid() + " did not start within 60 s");
        }
        return child;
    }

    long pid() {
        return process.pid();
    }

    /** How often its adaptive workers switched; known once it has stopped. */
    long switches() {
        return switches;
    }

    private void read(TaskEvents events) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split(" ");
                switch (f[0]) {
                    case "c" -> events.claimed(Long.parseLong(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]));
                    case "d" -> events.comesDue(Long.parseLong(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]));
                    case "f" -> events.finished(Long.parseLong(f[1]), Long.parseLong(f[2]));
                    case "x" -> events.failed(Long.parseLong(f[1]), f[2].equals("1"));
                    case "ready" -> ready.countDown();
                    case "switches" -> switches = Long.parseLong(f[1]);
                    default -> System.err.println("bench: consumer " + process.pid() + ": " + line);
                }
            }
        } catch (IOException e) {
            System.err.println("bench: lost consumer process " + process.pid() + ": " + e.getMessage());
        }
    }

    /** Tells it to stop, and waits for its last events. */
    @Override
    public void close() throws InterruptedException {
        try (OutputStream in = process.getOutputStream()) {
            in.write("stop\n".getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // it is gone already; the wait below finds out
        }
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
    }
}
