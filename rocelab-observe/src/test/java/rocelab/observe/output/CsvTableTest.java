package rocelab.observe.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CSV cells: quoted per RFC 4180, and text a spreadsheet would run as a formula neutralised. */
class CsvTableTest {
    @Test
    void shouldNeutraliseTextThatASpreadsheetWouldReadAsAFormula() {
        String csv = new CsvTable(List.of("name", "value"))
                .row("=HYPERLINK(\"http://x\",\"y\")", 1)
                .row("+cmd", 2)
                .row("-2+3", 3)
                .row("@SUM(A1)", 4)
                .row("\tx", 5)
                .toString();

        assertThat(csv.lines()).containsExactly("name,value", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",1",
                "'+cmd,2", "'-2+3,3", "'@SUM(A1),4", "'\tx,5");
    }

    @Test
    void shouldKeepNegativeNumbersAsNumbers() {
        String csv = new CsvTable(List.of("a", "b", "c", "d")).row(-5, -1.25, "-3.5", "-1e-3").toString();

        assertThat(csv.lines()).containsExactly("a,b,c,d", "-5,-1.25,-3.5,-1e-3");
    }

    @Test
    void shouldQuoteCarriageReturns() {
        assertThat(new CsvTable(List.of("a")).row("x\ry").toString()).isEqualTo("a\n\"x\ry\"\n");
    }

    /** A streamed table writes what a kept one holds, whatever its size, in pieces through the sink. */
    @Test
    void shouldStreamTheSameTextAsAKeptTable() throws IOException {
        List<String> header = List.of("i", "name", "x");
        CsvTable kept = new CsvTable(header);
        StringWriter sink = new StringWriter();
        CsvTable streamed = CsvTable.streamedTo(sink, header);
        for (int i = 0; i < 20_000; i++) {
            Object[] row = {i, "a,b" + i, i / 7.0};
            kept.row(row);
            streamed.row(row);
        }
        assertThat(sink.getBuffer().length()).as("written before the end").isPositive();
        streamed.finish();
        assertThat(sink.toString()).isEqualTo(kept.toString());
        assertThatThrownBy(streamed::toString).isInstanceOf(IllegalStateException.class);
    }
}
