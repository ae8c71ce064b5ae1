package rocelab.observe.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A CSV file that rocelab wrote (no quoted commas in the columns the report reads), by column name. */
final class Csv {
    final List<String> header;
    final List<String[]> rows;
    private final Map<String, Integer> index = new HashMap<>();

    private Csv(List<String> header, List<String[]> rows) {
        this.header = header;
        this.rows = rows;
        for (int i = 0; i < header.size(); i++) {
            index.put(header.get(i), i);
        }
    }

    /** Reads a file, or returns null when it does not exist. */
    static Csv read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty()) {
            return null;
        }
        List<String[]> rows = new ArrayList<>(lines.size());
        for (int i = 1; i < lines.size(); i++) {
            rows.add(lines.get(i).split(",", -1));
        }
        return new Csv(List.of(lines.get(0).split(",")), rows);
    }

    int col(String name) {
        Integer i = index.get(name);
        if (i == null) {
            throw new IllegalArgumentException("column " + name + " is missing");
        }
        return i;
    }

    static double num(String s) {
        return s.isEmpty() ? Double.NaN : Double.parseDouble(s);
    }
}
