package rocelab.engine;

/**
 * A partitioned run found, between two windows, that it cannot reproduce the order of one thread: something one
 * partition observed in the window just run should have started something in another partition inside that same
 * window. Nothing of the run can be kept; its caller runs it again on one thread. The message says what was found,
 * for the note that tells the user.
 */
public final class InexactSplitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InexactSplitException(String message) {
        super(message, null, false, false);
    }
}
