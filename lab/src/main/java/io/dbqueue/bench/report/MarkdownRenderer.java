package io.dbqueue.bench.report;

import java.util.List;

/** report.md: charts are linked from charts/. */
final class MarkdownRenderer {

    private MarkdownRenderer() {
    }

    static String render(Document document) {
        StringBuilder md = new StringBuilder();
        for (Document.Block block : document.blocks()) {
            if (block instanceof Document.Heading h) {
                md.append("#".repeat(h.level())).append(' ').append(h.text()).append("\n\n");
            } else if (block instanceof Document.Paragraph p) {
                md.append(p.text()).append("\n\n");
            } else if (block instanceof Document.Table t) {
                md.append(row(t.header()));
                md.append("|---".repeat(t.header().size())).append("|\n");
                t.rows().forEach(r -> md.append(row(r)));
                md.append('\n');
            } else if (block instanceof Document.Image i) {
                md.append("![").append(i.chart().title()).append("](").append(i.chart().path()).append(")\n\n");
            }
        }
        return md.toString();
    }

    private static String row(List<String> cells) {
        return "| " + String.join(" | ", cells.stream().map(c -> c.replace("|", "\\|")).toList()) + " |\n";
    }
}
