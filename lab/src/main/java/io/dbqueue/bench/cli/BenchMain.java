package io.dbqueue.bench.cli;

import picocli.CommandLine;

import java.io.PrintWriter;

/** Entry point of {@code ./bench}. Exit codes: 0 done, 1 the run failed, 2 bad arguments, 130 stopped by Ctrl-C. */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line and returns its exit code; errors are written to {@code err} as one line. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new BenchCommand());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((e, arguments) -> {
            // the qualified name is "bench run" for a subcommand and "bench" for the top command
            err.println("bench: " + oneLine(e.getMessage()) + " (see "
                    + e.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
            return ExitCodes.USAGE;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException) {
                err.println("bench: " + oneLine(e.getMessage()));
                return ExitCodes.USAGE;
            }
            err.println("bench: " + oneLine(e.getMessage() == null ? e.toString() : e.getMessage()));
            return ExitCodes.FAILED;
        });
        return cli.execute(args);
    }

    static String oneLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("").trim();
    }

    /** Exit codes of the bench command. */
    static final class ExitCodes {
        static final int FAILED = 1;
        static final int USAGE = 2;
        static final int INTERRUPTED = 130;

        private ExitCodes() {
        }
    }
}
