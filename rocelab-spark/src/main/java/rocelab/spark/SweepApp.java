package rocelab.spark;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.SweepReader;
import rocelab.scenario.sweep.LocalSweep;
import rocelab.scenario.sweep.PointOutcome;
import rocelab.scenario.sweep.PointLint;
import rocelab.scenario.sweep.PointRunner;
import rocelab.scenario.sweep.SummaryMetrics;
import rocelab.scenario.sweep.SweepPlan;
import rocelab.scenario.sweep.SweepPoint;
import rocelab.scenario.sweep.SweepReport;
import rocelab.scenario.sweep.SweepResults;

/**
 * A rocelab sweep on Apache Spark: {@code spark-submit --class rocelab.spark.SweepApp rocelab-spark.jar SWEEP.yaml
 * --out URI}. The driver reads and validates the sweep (every point's scenario resolved, as {@code rocelab sweep}
 * does), then runs each point not yet in the output as one Spark task: the task reads the point's resolved scenario,
 * simulates it on the executor and returns its summary.json (or its error). The driver writes
 * {@code points/<id>/summary.json} and {@code scenario.yaml}, {@code results.csv} (the same bytes as a local sweep,
 * wall-clock columns aside), {@code results.parquet} and {@code sweep.html} through Hadoop's FileSystem, so the
 * output may be a local path, {@code hdfs://...} or {@code s3a://...}.
 */
public final class SweepApp {
    /** Exit code for bad input (as the CLI's). */
    static final int EXIT_BAD_INPUT = 2;
    static final String USAGE = "usage: spark-submit --class rocelab.spark.SweepApp rocelab-spark.jar SWEEP.yaml"
            + " --out URI";
    /** What a sweep's output folder holds, here or written by rocelab sweep. */
    private static final Set<String> OWN_FOLDERS = Set.of(LocalSweep.POINTS, "results.parquet");
    private static final Set<String> OWN_FILES = Set.of(SweepResults.FILE, SweepReport.FILE);

    private SweepApp() {}

    public static void main(String[] args) {
        int code;
        try {
            code = run(args, System.out, System.err);
        } catch (IOException e) {
            System.err.println("error: cannot write the output: " + e.getMessage());
            code = EXIT_BAD_INPUT;
        }
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Runs the sweep in the Spark session of the environment (spark-submit's master); returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        String sweepFile = null;
        String outUri = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--out") && i + 1 < args.length) {
                outUri = args[++i];
            } else if (args[i].startsWith("--out=")) {
                outUri = args[i].substring("--out=".length());
            } else if (args[i].equals("-h") || args[i].equals("--help")) {
                out.println(USAGE);
                return 0;
            } else if (sweepFile == null && !args[i].startsWith("-")) {
                sweepFile = args[i];
            } else {
                err.println("error: unexpected argument '" + args[i] + "'");
                err.println(USAGE);
                return EXIT_BAD_INPUT;
            }
        }
        if (sweepFile == null || outUri == null) {
            err.println("error: " + (sweepFile == null ? "missing the SWEEP file" : "missing --out URI"));
            err.println(USAGE);
            return EXIT_BAD_INPUT;
        }
        SweepPlan plan;
        try {
            // The driver reads the sweep and its base scenario; executors receive resolved scenarios.
            plan = new SweepReader().read(java.nio.file.Path.of(sweepFile));
        } catch (ScenarioException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        SparkSession spark = SparkSession.builder().appName("rocelab sweep " + sweepFile).getOrCreate();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        Path root = new Path(outUri);
        FileSystem fs = root.getFileSystem(jsc.hadoopConfiguration());
        String unusable = outputProblem(fs, root);
        if (unusable != null) {
            err.println("error: --out " + outUri + ": " + unusable);
            return EXIT_BAD_INPUT;
        }
        Map<String, PointOutcome> outcomes = new LinkedHashMap<>();
        List<SweepPoint> pending = new ArrayList<>();
        for (SweepPoint p : plan.points()) {
            Path summary = new Path(new Path(new Path(root, "points"), p.id()), "summary.json");
            if (fs.exists(summary)) {
                String text = null;
                String problem;
                try {
                    text = read(fs, summary);
                    problem = SummaryMetrics.problem(text);
                } catch (ChecksumException e) {
                    // A local file system's .summary.json.crc: the file was changed behind Hadoop's back.
                    problem = "it does not match its checksum file .summary.json.crc";
                } catch (IOException e) {
                    problem = "it cannot be read: " + e.getMessage();
                }
                if (problem == null) {
                    outcomes.put(p.id(), PointOutcome.completed(p.id(), text));
                    continue;
                }
                // Not a complete run: run it again (its files are overwritten).
                err.println("warning: points/" + p.id() + "/summary.json is damaged (" + problem + "): running point "
                        + p.id() + " again");
            }
            pending.add(p);
        }
        int reused = outcomes.size();
        if (!pending.isEmpty()) {
            // One task per point: points differ a lot in cost, so Spark balances them better one by one.
            List<PointOutcome> ran = jsc.parallelize(pending, pending.size()).map(new RunPoint(plan.model()))
                    .collect();
            for (PointOutcome o : ran) {
                outcomes.put(o.id(), o);
            }
            for (SweepPoint p : pending) {
                PointOutcome o = outcomes.get(p.id());
                if (o.ok()) {
                    // summary.json last: it marks the point complete.
                    Path dir = new Path(new Path(root, "points"), p.id());
                    write(fs, new Path(dir, "scenario.yaml"), p.scenarioYaml());
                    write(fs, new Path(dir, "summary.json"), o.summaryJson());
                }
            }
        }
        // The lint reads a point's scenario alone: the driver's, as rocelab sweep gives it, so the rows are the same.
        SweepResults results = SweepResults.of(plan, outcomes, PointLint.all(plan.points()));
        write(fs, new Path(root, SweepResults.FILE), results.csv());
        write(fs, new Path(root, SweepReport.FILE), SweepReport.html(plan, results));
        parquet(spark, results, new Path(root, "results.parquet").toString());
        for (String f : results.failures()) {
            err.println("error: " + f);
        }
        // As rocelab sweep says them (an audit: the driver was silent on the runs with lint errors).
        results.warnings().forEach(err::println);
        out.printf("sweep %s · %d runs (%d ran now as Spark tasks, %d complete before) · %d failed%s%n",
                plan.sweepFile(), plan.points().size(), pending.size(), reused, results.failed(),
                results.stopped() == 0 ? "" : " · " + results.stopped() + " stopped before their workload completed ("
                        + results.stoppedText() + ")");
        out.println("output    " + outUri + " (results.csv, results.parquet, sweep.html, points/<id>/summary.json)");
        return results.failed() == 0 ? 0 : 1;
    }

    /**
     * What is wrong with {@code root} as the sweep's output, or null: as rocelab sweep's {@code --out}, it is new, empty
     * or an earlier sweep's folder (one the same sweep wrote, here or with rocelab sweep), never a run's folder or one
     * with files rocelab did not write, among which the sweep's would be left mixed (an audit: a sweep into a
     * {@code rocelab run} folder added points/ and results.csv beside its summary.json).
     */
    static String outputProblem(FileSystem fs, Path root) throws IOException {
        if (!fs.exists(root)) {
            return null;
        }
        if (!fs.getFileStatus(root).isDirectory()) {
            return "exists and is not a directory; expected a folder to write the sweep's files into";
        }
        String expected = "expected a new or empty folder, or an earlier sweep's output folder (it goes on there)";
        String foreign = null;
        for (FileStatus f : fs.listStatus(root)) {
            String n = f.getPath().getName();
            if (n.equals("summary.json")) {
                return "is an earlier run's output folder (it holds summary.json): a sweep adds its points to its"
                        + " folder and replaces nothing, so its files would be left mixed with the sweep's; " + expected;
            }
            boolean own = OWN_FOLDERS.contains(n) ? f.isDirectory() : OWN_FILES.contains(n)
                    // Hadoop's checksum files and this driver's files being written.
                    || n.startsWith(".") && (n.endsWith(".crc") || n.contains(".partial"));
            if (!own && (foreign == null || n.compareTo(foreign) < 0)) {
                foreign = n;
            }
        }
        return foreign == null ? null : "holds " + foreign + ", which rocelab did not write; " + expected;
    }

    /** The task: simulate one point on the executor, send back its summary.json or its error. */
    static final class RunPoint implements Function<SweepPoint, PointOutcome> {
        private static final long serialVersionUID = 1L;
        private final String model;

        RunPoint(String model) {
            this.model = model;
        }

        @Override
        public PointOutcome call(SweepPoint point) {
            return PointRunner.outcome(point, model);
        }
    }

    /**
     * results.csv as a typed table: ids, keys and texts as strings, the seed and the lint's counts as longs, metrics
     * as doubles.
     */
    private static void parquet(SparkSession spark, SweepResults results, String uri) {
        List<String> header = results.header();
        int firstMetric = header.size() - results.metrics().size();
        List<StructField> fields = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            DataType type = i >= firstMetric ? DataTypes.DoubleType
                    : whole(header.get(i)) ? DataTypes.LongType : DataTypes.StringType;
            fields.add(DataTypes.createStructField(header.get(i), type, true));
        }
        List<Row> rows = new ArrayList<>();
        for (List<String> r : results.rows()) {
            Object[] cells = new Object[r.size()];
            for (int i = 0; i < r.size(); i++) {
                String v = r.get(i);
                cells[i] = i >= firstMetric ? (v.isEmpty() ? null : Double.valueOf(v))
                        : whole(header.get(i)) ? (v.isEmpty() ? null : Long.valueOf(v)) : v;
            }
            rows.add(RowFactory.create(cells));
        }
        spark.createDataFrame(rows, new StructType(fields.toArray(new StructField[0]))).coalesce(1).write()
                .mode(SaveMode.Overwrite).parquet(uri);
    }

    /** The columns before the metrics that hold whole numbers: the seed and the lint's counts. */
    private static boolean whole(String column) {
        return column.equals("seed") || column.equals("lint_errors") || column.equals("lint_warnings");
    }

    /**
     * Writes {@code text} to {@code file} whole or not at all, as rocelab sweep writes its files: into a hidden file
     * next to it, then renamed over it, so a driver stopped mid-write (killed, out of space) leaves the earlier file,
     * not the start of a new one (an audit: results.csv was written in place).
     */
    static void write(FileSystem fs, Path file, String text) throws IOException {
        Path partial = new Path(file.getParent(), "." + file.getName() + ".partial");
        try {
            try (OutputStream o = fs.create(partial, true)) {
                o.write(text.getBytes(StandardCharsets.UTF_8));
            }
            // A local file system's rename replaces the file; HDFS's refuses to: there it is removed first.
            if (!fs.rename(partial, file) && !(fs.delete(file, false) && fs.rename(partial, file))) {
                throw new IOException("cannot rename " + partial + " to " + file);
            }
        } catch (IOException e) {
            fs.delete(partial, false);
            throw e;
        }
    }

    private static String read(FileSystem fs, Path file) throws IOException {
        try (FSDataInputStream in = fs.open(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
