package io.dbqueue.stack.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Crashes a PostgreSQL this process owns the way {@code pg_ctl stop -m immediate} does (SIGQUIT to the
 * postmaster: no checkpoint, every backend gone, crash recovery at the next start) and starts it
 * again with the same command line. The embedded server runs its postmaster in a user namespace
 * ({@code unshare -U}) when started as root, and so does the restart.
 */
final class PostgresCrash {

    private final List<String> command;
    private final long postmasterPid;
    private final Path log;

    private PostgresCrash(List<String> command, long postmasterPid, Path log) {
        this.command = command;
        this.postmasterPid = postmasterPid;
        this.log = log;
    }

    /** Finds the postmaster of the server {@code c} is connected to; it must run on this machine. */
    static PostgresCrash of(Connection c, Path log) throws SQLException, IOException {
        String dataDirectory;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW data_directory")) {
            rs.next();
            dataDirectory = rs.getString(1);
        }
        long pid = Long.parseLong(Files.readAllLines(Path.of(dataDirectory, "postmaster.pid")).get(0).trim());
        ProcessHandle postmaster = ProcessHandle.of(pid)
                .orElseThrow(() -> new IllegalStateException("no postmaster process " + pid + " on this machine"));
        List<String> command = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("unshare", "-U"));
        }
        command.add(postmaster.info().command().orElseThrow(() -> new IllegalStateException(
                "cannot read the command line of postmaster " + pid)));
        command.addAll(List.of(postmaster.info().arguments().orElseThrow()));
        return new PostgresCrash(command, pid, log);
    }

    /** SIGQUIT to the postmaster; returns once it is gone. */
    void crash() throws IOException, InterruptedException {
        ProcessHandle postmaster = ProcessHandle.of(postmasterPid).orElseThrow();
        new ProcessBuilder("kill", "-QUIT", Long.toString(postmasterPid)).inheritIO().start().waitFor();
        try {
            postmaster.onExit().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("postmaster " + postmasterPid + " did not stop within 60 s", e);
        }
    }

    /** Starts the server again; it accepts connections once crash recovery is done. */
    PostgresCrash restart() throws IOException {
        Process started = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new PostgresCrash(command, started.pid(), log);
    }
}
