package io.dbqueue.bench.cli;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** Where a command writes: {@code --out}, or {@code results/<timestamp><suffix>}. */
final class OutputDir {

    private OutputDir() {
    }

    static Path of(Path out, String suffix) {
        return out != null ? out : Path.of("results", LocalDateTime.now()
                .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + suffix);
    }
}
