package io.dbqueue.bench.run;

import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.workload.Cell;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * Tells the user what runs and how long is left: a bar redrawn in place on a terminal, one line
 * per repetition otherwise (CI logs, pipes).
 */
public final class Progress {

    private static final int BAR_WIDTH = 30;

    private final PrintStream out;
    private final boolean terminal;
    private final int total;
    private final long startNanos = System.nanoTime();
    private long lastDoneNanos = startNanos;
    private final Duration estimate;
    private int done;
    private String current;
    private Thread ticker;

    public Progress(PrintStream out, boolean terminal, int totalRepetitions, Duration estimate) {
        this.out = out;
        this.terminal = terminal;
        this.total = totalRepetitions;
        this.estimate = estimate;
    }

    synchronized void started(Cell cell, int repetition, int repeat) {
        current = cell + " (run " + repetition + "/" + repeat + ")";
        if (terminal) {
            redraw();
            if (ticker == null) {
                ticker = new Thread(this::tick, "bench-progress");
                ticker.setDaemon(true);
                ticker.start();
            }
        } else {
            out.println("[" + (done + 1) + "/" + total + "] " + current + " ... (" + left() + " left)");
        }
    }

    /** Redraws the bar once a second so that the time left counts down during a repetition. */
    private void tick() {
        try {
            while (true) {
                Thread.sleep(1000);
                synchronized (this) {
                    if (current != null) {
                        redraw();
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void redraw() {
        int filled = total == 0 ? BAR_WIDTH : BAR_WIDTH * done / total;
        out.print("\r\033[K[" + "#".repeat(filled) + " ".repeat(BAR_WIDTH - filled) + "] " + done + "/" + total
                + " " + left() + " left  " + current);
        out.flush();
    }

    synchronized void finished(Cell cell, Repetition repetition) {
        done++;
        lastDoneNanos = System.nanoTime();
        if (!terminal) {
            var m = repetition.measurement();
            String latency = m.latency().measured() ? String.format(Locale.ROOT, "p99 %.1f ms", m.latency().p99())
                    : "latency not measured";
            out.printf(Locale.ROOT, "[%d/%d] %s: %.0f processed/s, %s%s%n", done, total, cell,
                    m.processedPerSecond(), latency, m.interrupted() ? " (interrupted)" : "");
        }
    }

    synchronized void skipped(Cell cell, int repetitions, String reason) {
        done += repetitions;
        lastDoneNanos = System.nanoTime();
        out.println((terminal ? "\r\033[K" : "") + "skipped " + cell + ": " + reason);
    }

    public synchronized void end(String message) {
        current = null;
        out.println((terminal ? "\r\033[K" : "") + message);
    }

    /** Time left: the estimate, or once repetitions have finished, their pace so far. */
    private String left() {
        long now = System.nanoTime();
        double sinceLast = (now - lastDoneNanos) / 1e9;
        double pace = done == 0 ? 0 : (lastDoneNanos - startNanos) / 1e9 / done;
        double seconds = Math.max(0, done == 0 ? estimate.toSeconds() - sinceLast : pace * (total - done) - sinceLast);
        long s = Math.round(seconds);
        return s >= 60 ? s / 60 + "m" + String.format("%02d", s % 60) + "s" : s + "s";
    }
}
