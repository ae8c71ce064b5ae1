package rocelab.observe.report;

import java.io.IOException;

/** A run folder's file that the report cannot read; the message names the file, line and column. */
public final class ReportInputException extends IOException {
    public ReportInputException(String message) {
        super(message);
    }
}
