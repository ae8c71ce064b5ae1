package rocelab.observe.output;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;

/**
 * What went wrong with a file, in words: Java's file exceptions often carry only the path as their message ("cannot
 * write the output /proc/x: /proc/.x.partial-1" says nothing of why), so the cause is named from the exception's kind
 * or the operating system's reason. Shared by the CLI's output folders and the sweeps' points.
 */
public final class IoProblem {
    private IoProblem() {}

    /** {@code e}'s file and cause, e.g. {@code /proc/.x.partial-1: permission denied}. */
    public static String describe(IOException e) {
        String file = e instanceof FileSystemException f ? f.getFile() : null;
        String other = e instanceof FileSystemException f ? f.getOtherFile() : null;
        return (file == null ? "" : file + (other == null ? "" : " -> " + other) + ": ") + cause(e);
    }

    /**
     * Only {@code e}'s cause, e.g. {@code permission denied}: for a message that names the user's own path rather
     * than the temporary file the failure happened on.
     */
    public static String cause(IOException e) {
        if (!(e instanceof FileSystemException f)) {
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
        String cause = f.getReason();
        if (cause == null || cause.isBlank()) {
            return e instanceof AccessDeniedException ? "permission denied"
                    : e instanceof NoSuchFileException ? "no such file or directory"
                    : e instanceof NotDirectoryException ? "not a directory"
                    : e instanceof FileAlreadyExistsException ? "already exists"
                    : e instanceof DirectoryNotEmptyException ? "directory not empty"
                    : "the file system refused it";
        }
        return cause.substring(0, 1).toLowerCase(Locale.ROOT) + cause.substring(1);
    }
}
