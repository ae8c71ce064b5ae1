package rocelab.observe.report;

import java.io.IOException;

/** A file of a run's output folder that rocelab did not write as it is: the message names the file and position. */
public final class RunFolderException extends IOException {
    public RunFolderException(String message) {
        super(message);
    }
}
