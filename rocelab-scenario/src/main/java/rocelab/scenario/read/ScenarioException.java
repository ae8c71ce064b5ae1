package rocelab.scenario.read;

/**
 * A scenario file that cannot be used, with the position of the problem: {@code file:line:column: detail}, where
 * the detail reads "what is wrong; expected what was expected".
 */
public final class ScenarioException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final int column;
    private final String detail;

    /**
     * @param file the file as the user named it
     * @param line 1-based line
     * @param column 1-based column
     * @param detail what is wrong and what was expected
     */
    public ScenarioException(String file, int line, int column, String detail) {
        super(file + ":" + line + ":" + column + ": " + detail, null, false, false);
        this.file = file;
        this.line = line;
        this.column = column;
        this.detail = detail;
    }

    /** The file the problem is in (the scenario file or a CSV file it names). */
    public String file() {
        return file;
    }

    /** The 1-based line of the problem. */
    public int line() {
        return line;
    }

    /** The 1-based column of the problem. */
    public int column() {
        return column;
    }

    /** The message without its position. */
    public String detail() {
        return detail;
    }
}
