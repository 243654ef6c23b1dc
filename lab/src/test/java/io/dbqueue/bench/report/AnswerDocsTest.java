package io.dbqueue.bench.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AnswerDocsTest {

    private static final String PAGE = "# Title\n\n" + AnswerDocs.START + "\nold table\n" + AnswerDocs.END + "\n\nmore\n";

    @Test
    void replacesOnlyTheTextBetweenTheMarkers() {
        String page = AnswerDocs.replace(PAGE, "| new |");
        assertEquals("# Title\n\n" + AnswerDocs.START + "\n| new |\n" + AnswerDocs.END + "\n\nmore\n", page);
        assertEquals("| new |", AnswerDocs.current(page));
    }

    @Test
    void aPageWithoutMarkersIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> AnswerDocs.replace("# no markers", "x"));
        assertNull(AnswerDocs.current("# no markers"));
    }
}
