package io.dbqueue.bench.scenario;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.postgres.PostgresServer;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A consumer process of a multi-process scenario: starts the workers its arguments describe
 * ({@link ConsumerSpec#toArgs}) on the database of {@code DBQ_JDBC_URL}, {@code DBQ_JDBC_USER} and
 * {@code DBQ_JDBC_PASSWORD}, and reports every task event on standard output, one line each
 * ({@link ConsumerProcess} reads them): {@code ready}, {@code c <id> <attempt> <micros>},
 * {@code d <id> <attempt> <micros>}, {@code f <id> <micros>}, {@code x <id> <dead 0|1>}, and {@code switches <n>} when told to stop
 * (a line {@code stop}, or the end of standard input).
 */
public final class ScenarioWorkerMain {

    private ScenarioWorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        ConsumerSpec spec = ConsumerSpec.fromArgs(args);
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                false, StandardCharsets.UTF_8);
        ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor();
        flusher.scheduleAtFixedRate(out::flush, 20, 20, TimeUnit.MILLISECONDS);
        TaskEvents events = new TaskEvents() {
            @Override
            public void claimed(long id, int attempt, long micros) {
                out.println("c " + id + " " + attempt + " " + micros);
            }

            @Override
            public void comesDue(long id, int attempt, long micros) {
                out.println("d " + id + " " + attempt + " " + micros);
            }

            @Override
            public void finished(long id, long micros) {
                out.println("f " + id + " " + micros);
            }

            @Override
            public void failed(long id, boolean dead) {
                out.println("x " + id + " " + (dead ? 1 : 0));
            }
        };
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl(System.getenv(PostgresServer.JDBC_URL_ENV));
        pool.setUsername(System.getenv(PostgresServer.USER_ENV));
        pool.setPassword(System.getenv(PostgresServer.PASSWORD_ENV));
        pool.setMaximumPoolSize(ScenarioRun.poolFor(spec.workers()));
        try (HikariDataSource dataSource = new HikariDataSource(pool);
             ConsumerSpec.Running running = spec.start(dataSource, events)) {
            out.println("ready");
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            do {
                line = in.readLine();
            } while (line != null && !line.equals("stop"));
            running.close();
            out.println("switches " + running.workers().wakeupSwitches());
        } finally {
            flusher.shutdownNow();
            out.flush();
        }
    }
}
