package io.dbqueue.bench.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** A phase of the lab's side commands: threads that each repeat an action until a fixed time has passed. */
public final class Phase {

    private Phase() {
    }

    /**
     * Runs {@code action} in a loop on {@code threads} threads named {@code name-<i>} for
     * {@code length}, waits for the actions in progress, and returns how many seconds the phase took.
     * An action handles its own failures.
     */
    public static double run(int threads, String name, Duration length, Runnable action) throws InterruptedException {
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> started = new ArrayList<>(threads);
        for (int i = 0; i < threads; i++) {
            started.add(new Thread(() -> {
                while (running.get()) {
                    action.run();
                }
            }, name + "-" + i));
        }
        long start = System.nanoTime();
        started.forEach(Thread::start);
        Thread.sleep(length.toMillis()); // the phase: the threads run meanwhile
        running.set(false);
        for (Thread thread : started) {
            thread.join();
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
