package io.dbqueue.bench.report;

import java.util.ArrayList;
import java.util.List;

/** The report as a list of blocks, rendered once to Markdown and once to self-contained HTML. */
final class Document {

    sealed interface Block permits Heading, Paragraph, Table, Image {
    }

    record Heading(int level, String text) implements Block {
    }

    record Paragraph(String text) implements Block {
    }

    record Table(List<String> header, List<List<String>> rows) implements Block {
    }

    record Image(ChartImage chart) implements Block {
    }

    private final List<Block> blocks = new ArrayList<>();

    Document heading(int level, String text) {
        blocks.add(new Heading(level, text));
        return this;
    }

    Document paragraph(String text) {
        blocks.add(new Paragraph(text));
        return this;
    }

    Document table(List<String> header, List<List<String>> rows) {
        blocks.add(new Table(header, rows));
        return this;
    }

    Document image(ChartImage chart) {
        blocks.add(new Image(chart));
        return this;
    }

    List<Block> blocks() {
        return blocks;
    }
}
