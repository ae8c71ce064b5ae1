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

    private ScenarioException(String detail) {
        super(detail, null, false, false);
        this.file = null;
        this.line = 0;
        this.column = 0;
        this.detail = detail;
    }

    /**
     * A problem with a command-line option that names no file ({@code --example 'x' is not a built-in example; ...}):
     * the message has no position, as a made-up {@code --example:1:1:} would point into a file that does not exist.
     */
    public static ScenarioException ofOption(String detail) {
        return new ScenarioException(detail);
    }

    /** The file the problem is in (the scenario file or a CSV file it names); null for an option's problem. */
    public String file() {
        return file;
    }

    /** The 1-based line of the problem; 0 for an option's problem. */
    public int line() {
        return line;
    }

    /** The 1-based column of the problem; 0 for an option's problem. */
    public int column() {
        return column;
    }

    /** The message without its position. */
    public String detail() {
        return detail;
    }
}
