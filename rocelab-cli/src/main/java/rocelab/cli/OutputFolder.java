package rocelab.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** Checks, before a run starts, that its output folder can be created or written. */
final class OutputFolder {
    private OutputFolder() {}

    /** What is wrong with {@code dir} as an output folder, or null when it is usable. */
    static String problem(Path dir) {
        Path p = dir.toAbsolutePath().normalize();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p == null) {
            return null;
        }
        if (!Files.isDirectory(p)) {
            return (p.equals(dir.toAbsolutePath().normalize()) ? "exists" : p + " exists")
                    + " and is not a directory; expected a folder to write the run's files into";
        }
        if (!Files.isWritable(p)) {
            return p + " is not writable; expected a folder the run may write into";
        }
        return null;
    }
}
