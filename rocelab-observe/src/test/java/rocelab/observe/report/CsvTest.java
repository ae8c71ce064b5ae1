package rocelab.observe.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.output.CsvTable;

class CsvTest {
    @TempDir
    Path dir;

    @Test
    void shouldKeepQuotedCommasQuotesAndNewlinesInTheirField() throws Exception {
        CsvTable t = new CsvTable(List.of("job", "name", "time_us"));
        t.row("gpt", "gpt/grads/tp(dp=0,pp=0)", 12.5);
        t.row("gpt", "step \"one\"\nsecond line", 3);
        t.row("x", "<script>alert(1)</script>", 1);
        Path f = dir.resolve("c.csv");
        Files.writeString(f, t.toString());
        Csv c = Csv.read(f);
        assertThat(c.rows).hasSize(3);
        assertThat(c.text(0, "name")).isEqualTo("gpt/grads/tp(dp=0,pp=0)");
        assertThat(c.num(0, "time_us")).isEqualTo(12.5);
        assertThat(c.text(1, "name")).isEqualTo("step \"one\"\nsecond line");
        assertThat(c.num(1, "time_us")).isEqualTo(3);
        assertThat(c.text(2, "name")).isEqualTo("<script>alert(1)</script>");
    }

    @Test
    void shouldNameFileLineAndColumnOfABadNumber() throws Exception {
        Path f = dir.resolve("bad.csv");
        Files.writeString(f, "a,b\n1,2\n\"x\ny\",oops\n");
        Csv c = Csv.read(f);
        assertThatThrownBy(() -> c.num(1, "b")).isInstanceOf(RunFolderException.class)
                .hasMessage(f + ":3:2: expected a number in column b, found 'oops'");
        assertThatThrownBy(() -> c.col("missing")).hasMessageContaining(f + ":1:1: expected a column named missing");
    }

    @Test
    void shouldRefuseARowWithTheWrongNumberOfFields() throws Exception {
        Path f = dir.resolve("short.csv");
        Files.writeString(f, "a,b,c\n1,2,3\n4,5\n");
        assertThatThrownBy(() -> Csv.read(f)).isInstanceOf(RunFolderException.class)
                .hasMessage(f + ":3:1: 2 fields; expected 3 (a,b,c)");
    }
}
