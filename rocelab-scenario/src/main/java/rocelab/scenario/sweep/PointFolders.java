package rocelab.scenario.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import rocelab.observe.output.RunWriter;

/**
 * A sweep's point folders on disk: a point's run is written into a hidden folder {@code .ID.partial-PID-N} and renamed
 * into {@code ID} when complete, so a point folder is always a whole run, whichever of several sweeps into the same
 * output wrote it.
 */
final class PointFolders {
    static final String PARTIAL = ".partial-";
    /** Numbers this process's partial folders, so that two threads never pick the same name. */
    private static final AtomicInteger PARTIAL_COUNT = new AtomicInteger();

    private PointFolders() {}

    /** The summary.json text of a complete run folder, or null (no folder, or a summary missing or unreadable). */
    static String completeSummary(Path folder) {
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try {
            String text = Files.readString(folder.resolve(RunWriter.SUMMARY), StandardCharsets.UTF_8);
            return SummaryMetrics.problem(text) == null ? text : null;
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
    }

    /**
     * Renames a finished run folder into place; the point folder exists only when complete. Returns null when this
     * run's folder became the point's, or the summary.json of the complete folder another sweep into the same output
     * put there first (same scenario and seed, same run: that one is kept and this copy removed).
     */
    static String publish(Path partial, Path target) throws IOException {
        try {
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, target);
            }
            return null;
        } catch (FileSystemException e) {
            // Renaming onto a folder that is not empty fails with the system's "Directory not empty", not always as
            // DirectoryNotEmptyException: whatever the kind, a complete folder there means another sweep won.
            String theirs = completeSummary(target);
            if (theirs == null) {
                throw e;
            }
            deleteTree(partial);
            return theirs;
        }
    }

    /**
     * A new hidden folder {@code .ID.partial-PID-N} to write point {@code id}'s run into. Made as any folder is (not
     * as a temporary one, which is private), so the point folder it becomes has the permissions the umask gives.
     */
    static Path partialFolder(Path points, String id) throws IOException {
        String prefix = "." + id + PARTIAL + ProcessHandle.current().pid() + "-";
        while (true) {
            try {
                return Files.createDirectory(points.resolve(prefix + PARTIAL_COUNT.incrementAndGet()));
            } catch (FileAlreadyExistsException e) {
                // Left by an earlier process that had this process id: try the next number.
            }
        }
    }

    /**
     * Folders of runs a killed sweep left half written: those of processes that no longer run (another sweep into
     * the same folder may be writing its own).
     */
    static void removePartials(Path points) throws IOException {
        try (var list = Files.list(points)) {
            for (Path p : list.toList()) {
                String n = p.getFileName().toString();
                int at = n.indexOf(PARTIAL);
                if (!n.startsWith(".") || at < 0) {
                    continue;
                }
                if (!isAlive(n.substring(at + PARTIAL.length()))) {
                    deleteTree(p);
                }
            }
        }
    }

    /** Whether the process that named a hidden folder {@code PID-N} still runs. */
    static boolean isAlive(String pidAndCount) {
        String pid = pidAndCount.replaceFirst("-[0-9]+$", "");
        return pid.matches("[0-9]{1,18}") && ProcessHandle.of(Long.parseLong(pid)).isPresent();
    }

    static void deleteQuietly(Path dir) {
        try {
            if (dir != null) {
                deleteTree(dir);
            }
        } catch (IOException | UncheckedIOException e) {
            // Best effort: the next sweep into this folder from another process removes it.
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
