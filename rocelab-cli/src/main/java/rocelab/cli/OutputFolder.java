package rocelab.cli;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Set;
import java.util.function.Predicate;
import rocelab.observe.output.IoProblem;
import rocelab.scenario.sweep.LocalSweep;

/**
 * A run's output folder, written whole: every file goes into a fresh hidden sibling folder
 * ({@code .NAME.partial-PID}), which replaces the folder only when everything is written. So the folder is always
 * either the previous run, the new run, or (for the instant between two renames, or if the machine stops then)
 * absent, never a mix of two runs. A sibling left by a killed run is removed by the next run into the same folder.
 */
final class OutputFolder implements AutoCloseable {
    /** What a rocelab output folder holds, so that replacing one never deletes a file rocelab did not write. */
    private static final Set<String> OWN_FILES = Set.of("summary.json", "manifest.json", "flows.csv",
            "flows_aggregated.csv", "slowdown_by_size.csv", "ports.csv", "nics.csv", "topology.csv", "pfc.csv", "pfc_counters.csv", "vl.csv", "collectives.csv", "transfers.csv", "jobs.csv",
            "ranks.csv", "timeline.csv", "timeline.json", "requests.csv", "llm_calls.csv", "rates.csv", "queues.csv", "links.csv", "throughput.csv", "report.html",
            "charts", "compare.csv", "results.csv", "sweep.html");

    private static final String PARTIAL = ".partial-";
    /** A sweep's own files besides its points; every other file of {@link #OWN_FILES} is a run's (or a compare's). */
    private static final Set<String> SWEEP_FILES = Set.of("results.csv", "sweep.html");
    /** The typed table a sweep on Spark writes besides results.csv. */
    private static final String SPARK_TABLE = "results.parquet";

    private final Path target;
    private final Path staging;
    /** The outermost folder above the staging copy that this run created (e.g. ./out), or null when none. */
    private final Path made;
    private final Thread cleanup;
    private boolean committed;

    private OutputFolder(Path target, Path staging, Path made) {
        this.target = target;
        this.staging = staging;
        this.made = made;
        // Ctrl-C or a plain kill still removes the unfinished copy; a hard kill leaves it for the next run.
        this.cleanup = new Thread(this::discard, "rocelab-output-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /**
     * What is wrong with {@code dir} as an output folder, or null when it is usable. {@code subfolders} names
     * folders a previous run of the same command may have left inside it (compare's per-mode folders).
     */
    static String problem(Path dir, Set<String> subfolders) {
        return problem(dir, subfolders, null);
    }

    /**
     * What is wrong with {@code dir} as a sweep's output folder, or null: a sweep adds its points to the folder
     * ({@code points}) and replaces nothing, so it takes a new or empty folder or an earlier sweep's, never an earlier
     * run's (whose files it would leave mixed with its own).
     */
    static String sweepProblem(Path dir, String points) {
        return problem(dir, Set.of(points), points);
    }

    /** {@code sweepPoints}: the points folder of a sweep's output, or null for a run's (replaced as a whole). */
    private static String problem(Path dir, Set<String> subfolders, String sweepPoints) {
        Path full = dir.toAbsolutePath().normalize();
        if (full.getParent() == null) {
            return "is a file system root; expected a folder of its own for the run's files";
        }
        if (Path.of("").toAbsolutePath().normalize().startsWith(full)) {
            // The folder is replaced as a whole at the end: it cannot be the one the user works in.
            return "is the current folder or holds it; expected a folder of its own for the run's files";
        }
        Path p = full;
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p == null) {
            return null;
        }
        if (!Files.isDirectory(p)) {
            return (p.equals(full) ? "exists" : p + " exists")
                    + " and is not a directory; expected a folder to write the run's files into";
        }
        Path writableHere = p.equals(full) ? full.getParent() : p;
        if (!Files.isWritable(writableHere) || p.equals(full) && !Files.isWritable(full)) {
            return writableHere + " is not writable; expected a folder the run may write into";
        }
        String refused = refusal(writableHere, false);
        if (refused != null) {
            return "cannot create a folder in " + writableHere + " (" + refused + "); expected a folder the run may"
                    + " write into";
        }
        if (p.equals(full)) {
            return sweepPoints == null ? runFolderProblem(full, subfolders) : sweepFolderProblem(full, sweepPoints);
        }
        return null;
    }

    private static String runFolderProblem(Path full, Set<String> subfolders) {
        String expected = "expected a new or empty folder, or the output folder of an earlier run (its files are"
                + " replaced as a whole)";
        if (Files.isDirectory(full.resolve(LocalSweep.POINTS), LinkOption.NOFOLLOW_LINKS)
                && !subfolders.contains(LocalSweep.POINTS)) {
            return "is a sweep's output folder (it holds " + LocalSweep.POINTS + "/), which this would replace as a whole,"
                    + " the sweep's runs with it; " + expected;
        }
        String foreign = foreignEntry(full, subfolders);
        if (foreign != null) {
            return "holds " + foreign + ", which rocelab did not write; " + expected;
        }
        String unfinished = unmarkedEntry(full);
        return unfinished == null ? null : "holds " + unfinished + " but no summary.json or compare.csv, so it is not"
                + " an earlier run's output folder (every finished run leaves one); " + expected;
    }

    /**
     * The first entry (by name) of a folder whose entries all have rocelab's names but that holds neither a run's
     * summary.json nor a compare's compare.csv, or null. A run's folder appears only when it is written whole, so such
     * a folder is someone else's files that merely share a name with ours (a pfc.csv kept aside), not to be replaced.
     */
    private static String unmarkedEntry(Path dir) {
        if (Files.exists(dir.resolve("summary.json"), LinkOption.NOFOLLOW_LINKS)
                || Files.exists(dir.resolve("compare.csv"), LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        return firstEntry(dir, n -> !(n.startsWith(".") && n.contains(".partial")));
    }

    /** The first entry of {@code dir} by name that {@code kept} keeps, or null (none, or it cannot be listed). */
    private static String firstEntry(Path dir, Predicate<String> kept) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            String first = null;
            for (Path e : entries) {
                String n = e.getFileName().toString();
                if (kept.test(n) && (first == null || n.compareTo(first) < 0)) {
                    first = n;
                }
            }
            return first;
        } catch (IOException e) {
            return null;
        }
    }

    private static String sweepFolderProblem(Path full, String points) {
        String expected = "expected a new or empty folder, or an earlier sweep's output folder (it goes on there)";
        String foreign = foreignEntry(full, Set.of(points));
        if (foreign != null) {
            return "holds " + foreign + ", which rocelab did not write; " + expected;
        }
        String run = runFile(full);
        return run == null ? null : "is an earlier run's output folder (it holds " + run + "): a sweep adds its points"
                + " to its folder and replaces nothing, so its files would be left mixed with the sweep's; " + expected;
    }

    /** A file of {@code dir} that a run (or a compare) writes and a sweep does not (summary.json first), or null. */
    private static String runFile(Path dir) {
        if (Files.exists(dir.resolve("summary.json"), LinkOption.NOFOLLOW_LINKS)) {
            return "summary.json";
        }
        return firstEntry(dir, n -> OWN_FILES.contains(n) && !SWEEP_FILES.contains(n));
    }

    /**
     * What is wrong with {@code file} as a file the run writes besides its folder {@code dir} (a capture), or null:
     * checked before the run, so nothing is simulated for an output that cannot be written.
     */
    static String fileProblem(Path file, Path dir) {
        Path full = file.toAbsolutePath().normalize();
        Path folder = dir.toAbsolutePath().normalize();
        if (full.equals(folder)) {
            return "is the run's output folder; expected a file name (e.g. trace.pcap)";
        }
        if (folder.startsWith(full)) {
            // A folder above it: not the output folder itself, but no file can be written there either.
            return "is a folder that holds the run's output folder " + dir + "; expected a file name (e.g. "
                    + file.resolve("trace.pcap") + ")";
        }
        if (full.startsWith(folder) && OWN_FILES.contains(folder.relativize(full).getName(0).toString())) {
            return "would overwrite the run's own " + folder.relativize(full) + "; expected another file name";
        }
        return full.startsWith(folder) ? null : fileProblem(file, "trace.pcap");
    }

    /** What is wrong with {@code file} as a file a command writes, or null (checked before any work is done). */
    static String fileProblem(Path file, String exampleName) {
        Path full = file.toAbsolutePath().normalize();
        if (Files.isDirectory(full)) {
            return "is a directory; expected a file name (e.g. " + file.resolve(exampleName) + ")";
        }
        if (Files.exists(full) && !Files.isWritable(full)) {
            return "exists and is not writable; expected a file that may be replaced";
        }
        Path p = full.getParent();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p != null && !Files.isDirectory(p)) {
            return p + " is not a directory; expected a folder for the file";
        }
        if (p != null && !Files.isWritable(p)) {
            return p + " is not writable; expected a folder the file may be written into";
        }
        String refused = p == null ? null : refusal(p, p.equals(full.getParent()));
        if (refused != null) {
            return "cannot create a " + (p.equals(full.getParent()) ? "file" : "folder") + " in " + p + " ("
                    + refused + "); expected a folder the file may be written into";
        }
        return null;
    }

    /**
     * Why {@code dir} refuses a new entry, or null when it takes one: a folder ({@code file} false) or a file is made
     * there and removed at once. Permissions alone do not tell: /proc and /sys look writable to root, yet refuse.
     */
    private static String refusal(Path dir, boolean file) {
        try {
            Path probe = file ? Files.createTempFile(dir, ".rocelab-probe-", "")
                    : Files.createTempDirectory(dir, ".rocelab-probe-");
            Files.delete(probe);
            return null;
        } catch (IOException e) {
            return IoProblem.cause(e);
        }
    }

    /** The first entry of an existing folder that is not a rocelab output, or null when every entry is. */
    private static String foreignEntry(Path dir, Set<String> subfolders) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path e : entries) {
                String n = e.getFileName().toString();
                boolean own = OWN_FILES.contains(n) || n.endsWith(".pcap")
                        || subfolders.contains(n) && Files.isDirectory(e)
                        || n.startsWith(".") && n.contains(".partial")
                        || subfolders.contains(LocalSweep.POINTS) && sparkSweepFile(n, e);
                if (!own) {
                    return n;
                }
            }
            return null;
        } catch (IOException e) {
            return "entries that cannot be listed (" + e.getMessage() + ")";
        }
    }

    /**
     * Whether {@code n} is a file that rocelab-spark's SweepApp writes beside a sweep's own, so that a sweep run on
     * Spark goes on here as any earlier sweep's folder does (an audit: its folder was refused for .sweep.html.crc,
     * "which rocelab did not write"): results.parquet, and the checksum files Hadoop's local file system writes.
     */
    private static boolean sparkSweepFile(String n, Path e) {
        return n.equals(SPARK_TABLE) && Files.isDirectory(e, LinkOption.NOFOLLOW_LINKS)
                || n.startsWith(".") && n.endsWith(".crc") && SWEEP_FILES.contains(n.substring(1, n.length() - 4));
    }

    /** Starts writing a run whose output replaces {@code target}: files go to {@link #dir()} until {@link #commit()}. */
    static OutputFolder open(Path target) throws IOException {
        Path full = target.toAbsolutePath().normalize();
        Path parent = full.getParent();
        Path made = parent;
        while (made.getParent() != null && !Files.exists(made.getParent())) {
            made = made.getParent();
        }
        made = Files.exists(made) ? null : made;
        try {
            Files.createDirectories(parent);
            String prefix = "." + full.getFileName() + PARTIAL;
            removeAbandoned(parent, prefix);
            Path staging = parent.resolve(prefix + ProcessHandle.current().pid());
            deleteRecursively(staging);
            Files.createDirectory(staging);
            return new OutputFolder(full, staging, made);
        } catch (IOException e) {
            removeEmpty(parent, made);
            throw e;
        }
    }

    /**
     * {@code e}'s file and cause, with the staging copy's name replaced by the output folder's own ({@code target} as
     * the user gave it): the user never chose the name {@code .x.partial-1234}.
     */
    static String describe(IOException e, Path target) {
        String file = e instanceof FileSystemException f ? f.getFile() : null;
        if (file == null) {
            return IoProblem.describe(e);
        }
        Path full = target.toAbsolutePath().normalize();
        Path failed = Path.of(file).toAbsolutePath().normalize();
        Path parent = full.getParent();
        if (parent != null && failed.startsWith(parent) && !failed.equals(parent)) {
            Path inParent = parent.relativize(failed);
            String first = inParent.getName(0).toString();
            String name = "." + full.getFileName();
            if (first.startsWith(name + PARTIAL) || first.startsWith(name + ".old-")) {
                return target.resolve(inParent.getName(0).relativize(inParent)) + ": " + IoProblem.cause(e);
            }
        }
        return IoProblem.describe(e);
    }

    /** Where the run's files go while it writes them. */
    Path dir() {
        return staging;
    }

    /** Where a file meant for {@code path} goes while the run writes: inside the staging copy when it is in the folder. */
    Path redirect(Path path) {
        Path full = path.toAbsolutePath().normalize();
        return full.startsWith(target) ? staging.resolve(target.relativize(full)) : path;
    }

    /** Puts the finished copy in place of the folder (the previous run's folder is removed). */
    void commit() throws IOException {
        Path old = null;
        if (Files.exists(target)) {
            old = target.resolveSibling("." + target.getFileName() + ".old-" + ProcessHandle.current().pid());
            deleteRecursively(old);
            move(target, old);
        }
        move(staging, target);
        committed = true;
        if (old != null) {
            deleteRecursively(old);
        }
    }

    @Override
    public void close() {
        if (!committed) {
            discard();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or will run; it deletes nothing that still matters.
        }
    }

    /** Removes the unfinished copy, and the folders the run created for it when nothing else is in them. */
    private void discard() {
        deleteQuietly(staging);
        removeEmpty(staging.getParent(), made);
    }

    /** Removes {@code dir} and its parents up to {@code outermost} (null: none), stopping at one that is not empty. */
    private static void removeEmpty(Path dir, Path outermost) {
        if (outermost == null) {
            return;
        }
        for (Path p = dir; p != null && p.startsWith(outermost); p = p.getParent()) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException notEmptyOrRefused) {
                // Something else is in it now (another run's folder): it stays, and so do its parents.
                return;
            }
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to);
        }
    }

    /** Removes staging copies (and replaced folders) of runs whose process no longer exists. */
    private static void removeAbandoned(Path parent, String prefix) throws IOException {
        String oldPrefix = prefix.replace(PARTIAL, ".old-");
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent, ".*")) {
            for (Path e : entries) {
                String n = e.getFileName().toString();
                String pid = n.startsWith(prefix) ? n.substring(prefix.length())
                        : n.startsWith(oldPrefix) ? n.substring(oldPrefix.length()) : null;
                if (pid != null && pid.matches("[0-9]{1,18}") && ProcessHandle.of(Long.parseLong(pid)).isEmpty()) {
                    deleteRecursively(e);
                }
            }
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            deleteRecursively(p);
        } catch (IOException | RuntimeException ignored) {
            // Best effort: a leftover is removed by the next run into the same folder.
        }
    }

    private static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(p)) {
                for (Path e : entries) {
                    deleteRecursively(e);
                }
            }
        }
        Files.deleteIfExists(p);
    }
}
