package io.dbqueue.bench;

import java.nio.file.Path;

/** The project checkout the bench runs from: set by ./bench, else the working directory. */
public final class ProjectDir {

    public static final String PROPERTY = "bench.project.dir";

    private ProjectDir() {
    }

    public static Path get() {
        return Path.of(System.getProperty(PROPERTY, ".")).toAbsolutePath().normalize();
    }
}
