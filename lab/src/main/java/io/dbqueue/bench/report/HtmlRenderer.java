package io.dbqueue.bench.report;

import java.util.Base64;
import java.util.List;

/** report.html: one file that opens from disk, the charts embedded as base64 PNGs. */
final class HtmlRenderer {

    private static final String STYLE = "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
            + "color:#222}table{border-collapse:collapse;margin:1em 0;font-size:0.9em}"
            + "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f0f0f0}"
            + "td:first-child,th:first-child{text-align:left}img{max-width:100%;display:block;margin:1em 0}";

    private HtmlRenderer() {
    }

    static String render(String title, Document document) {
        StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<title>" + escape(title) + "</title><style>" + STYLE + "</style></head><body>\n");
        for (Document.Block block : document.blocks()) {
            if (block instanceof Document.Heading h) {
                html.append("<h").append(h.level()).append('>').append(escape(h.text())).append("</h")
                        .append(h.level()).append(">\n");
            } else if (block instanceof Document.Paragraph p) {
                html.append("<p>").append(escape(p.text())).append("</p>\n");
            } else if (block instanceof Document.Table t) {
                html.append("<table><tr>").append(cells("th", t.header())).append("</tr>\n");
                t.rows().forEach(r -> html.append("<tr>").append(cells("td", r)).append("</tr>\n"));
                html.append("</table>\n");
            } else if (block instanceof Document.Image i) {
                html.append("<img alt=\"").append(escape(i.chart().title())).append("\" src=\"data:image/png;base64,")
                        .append(Base64.getEncoder().encodeToString(i.chart().png())).append("\">\n");
            }
        }
        return html.append("</body></html>\n").toString();
    }

    private static String cells(String tag, List<String> values) {
        StringBuilder s = new StringBuilder();
        values.forEach(v -> s.append('<').append(tag).append('>').append(escape(v)).append("</").append(tag).append('>'));
        return s.toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
