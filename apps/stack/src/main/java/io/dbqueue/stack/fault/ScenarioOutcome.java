package io.dbqueue.stack.fault;

/** What a scenario ends with: whether it passed, its one line, and its section of fault.md. */
public interface ScenarioOutcome {

    boolean passed();

    String line();

    /** The scenario's section of fault.md; its line unless it has more to show. */
    default String markdown() {
        return line() + "\n";
    }
}
