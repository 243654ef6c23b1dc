package io.dbqueue.bench.driver.postgres;

import io.dbqueue.bench.ProjectDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stack launcher ({@code apps/stack/target/stack.jar}, what {@code ./stack} runs) as a child
 * process: it starts producer-app, consumer-app and test-app on free loopback ports against the
 * given PostgreSQL and prints test-app's URL when all are healthy. Closing it sends SIGTERM, on
 * which the launcher stops its services. Its output goes to {@code stack.log} in the log directory.
 */
final class StackProcess implements AutoCloseable {

    static final Path LAUNCHER = ProjectDir.get().resolve(Path.of("apps", "stack", "target", "stack.jar"));
    private static final Pattern TEST_APP_URL = Pattern.compile("^\\s*test-app\\s+(http://\\S+)");
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(4);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final String testAppUrl;

    private StackProcess(Process process, String testAppUrl) {
        this.process = process;
        this.testAppUrl = testAppUrl;
    }

    /** Starts the launcher with {@code arguments} and waits until it reports test-app's URL. */
    static StackProcess start(List<String> arguments, String dbUser, String dbPassword, Path logDir)
            throws IOException, InterruptedException {
        Files.createDirectories(logDir);
        Path log = logDir.resolve("stack.log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", LAUNCHER.toString()));
        command.addAll(arguments);
        // the launcher finds the service jars under apps/*/target of its working directory
        ProcessBuilder builder = new ProcessBuilder(command).directory(ProjectDir.get().toFile())
                .redirectErrorStream(true);
        builder.environment().put("DB_USERNAME", dbUser);
        builder.environment().put("DB_PASSWORD", dbPassword);
        Process process = builder.start();
        CompletableFuture<String> url = new CompletableFuture<>();
        Thread reader = new Thread(() -> copyOutput(process, log, url), "bench-stack-output");
        reader.setDaemon(true);
        reader.start();
        try {
            return new StackProcess(process, url.get(STARTUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("the stack did not come up within " + STARTUP_TIMEOUT + " (exit "
                    + (process.isAlive() ? "none" : process.exitValue()) + "); see " + log.toAbsolutePath(), e);
        }
    }

    String testAppUrl() {
        return testAppUrl;
    }

    private static void copyOutput(Process process, Path log, CompletableFuture<String> url) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.println(line);
                Matcher m = TEST_APP_URL.matcher(line);
                if (m.find()) {
                    url.complete(m.group(1));
                }
            }
            url.completeExceptionally(new IOException("the stack launcher exited"));
        } catch (IOException e) {
            url.completeExceptionally(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
    }
}
