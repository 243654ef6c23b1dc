package io.dbqueue.bench.answer;

import java.util.List;
import java.util.Locale;

/**
 * One shape of work the answer sweeps: a message size and a producer batch, the systems that get
 * it and the offered rates they step through, lowest first.
 */
public record AnswerShape(int messageSize, int batchSize, List<AnswerSystem> systems, List<Integer> rates) {

    public AnswerShape {
        systems = List.copyOf(systems);
        rates = List.copyOf(rates);
        if (rates.isEmpty() || !rates.equals(rates.stream().sorted().distinct().toList()) || rates.get(0) < 1) {
            throw new IllegalArgumentException("rates must be positive and ascending, were " + rates);
        }
    }

    /** "1 KiB, batch 100": how tables and charts name the shape. */
    public String title() {
        return size() + ", batch " + batchSize;
    }

    /** "1kib-batch100": how file names carry the shape. */
    public String slug() {
        return size().toLowerCase(Locale.ROOT).replace(" ", "") + "-batch" + batchSize;
    }

    private String size() {
        return messageSize % 1024 == 0 ? messageSize / 1024 + " KiB" : messageSize + " B";
    }

    /** The same shape with only {@code wanted} of its systems (in the shape's order). */
    public AnswerShape only(List<AnswerSystem> wanted) {
        return new AnswerShape(messageSize, batchSize, systems.stream().filter(wanted::contains).toList(), rates);
    }
}
